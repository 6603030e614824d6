/* ak_updated: the parts of the Updated Afrika Korps ruleset (seed 003)
 * that its table (ak_rules_updated.c) points at: the sequence of play
 * (ak_updated_turn.c) and the supply phase (ak_updated_supply.c).
 * Movement by points is ak_move_points.c. */
#ifndef AK_UPDATED_H
#define AK_UPDATED_H

#include "ak_rules.h"

void ak_updated_turn_start(struct ak_state *s, struct ak_events *ev);
unsigned ak_updated_possible_actions(const struct ak_state *s);
bool ak_updated_end_movement(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                             struct ak_events *ev, struct ak_reject *rej);
bool ak_updated_end_phase(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                          struct ak_events *ev, struct ak_reject *rej);
/* The supply phase begins: trace and mark the phasing units. */
void ak_updated_supply_phase(struct ak_state *s, struct ak_events *ev);
bool ak_updated_burn_supply(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                            struct ak_events *ev, struct ak_reject *rej);
/* REINFORCEMENT PHASE: where the side's new units enter, and placing one. */
int ak_updated_entries(const struct ak_state *s, int side, ak_hex *out, int max);
bool ak_updated_place(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                      struct ak_events *ev, struct ak_reject *rej);
bool ak_updated_end_turn(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                         struct ak_events *ev, struct ak_reject *rej);

#endif
