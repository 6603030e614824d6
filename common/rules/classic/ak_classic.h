/* ak_classic.h: what the files of the 1964 rules share among themselves
 * (their table, ak_rules_classic.c, is the ruleset the rest reaches them
 * through). */
#ifndef AK_CLASSIC_H
#define AK_CLASSIC_H

#include "ak_hazards_internal.h"
#include "ak_rules.h"

/* The 1964 sequence of play (ak_classic_turn.c): the start of a player
 * turn (the reset, the key-squares win, isolation, replacements, the
 * supply table), END_MOVEMENT, DESTROY_SUPPLY, END_TURN, and the action
 * kinds possible now. */
void ak_turn_start(struct ak_state *s, struct ak_events *ev);
bool ak_turn_end_movement(const struct ak_ruleset *r, struct ak_state *s,
                          const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej);
bool ak_turn_destroy_supply(const struct ak_ruleset *r, struct ak_state *s,
                            const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej);
bool ak_turn_end(const struct ak_ruleset *r, struct ak_state *s,
                 const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej);
unsigned ak_turn_possible_actions(const struct ak_state *s);
/* The ruleset's `hazards` (ak_hazards_classic.c). */
void ak_hazards_classic(struct ak_hz_list *l);

#endif
