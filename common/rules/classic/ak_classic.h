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

/* The 1964 combat results carried out (ak_resolve.c): fighting a declared
 * battle, BACK 2's retreats, EXCHANGE's losses, MOVEMENT AFTER BATTLE. */
bool ak_combat_resolve(const struct ak_ruleset *r, struct ak_state *s,
                       const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej);
bool ak_combat_retreat(const struct ak_ruleset *r, struct ak_state *s,
                       const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej);
bool ak_combat_exchange(const struct ak_ruleset *r, struct ak_state *s,
                        const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej);
bool ak_combat_advance(const struct ak_ruleset *r, struct ak_state *s,
                       const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej);

/* BACK 2: the two-square retreats open to losing unit u, none blocked by
 * enemy units or zones, terrain, the board edge or overstacking. */
#define AK_RETREAT_ROUTES_MAX 36
struct ak_route {
    ak_hex step[2];
};
int ak_retreat_routes(const struct ak_state *s, int u, struct ak_route *out);
/* Listers of the 1964 rules' own actions (ak_classic_list.c). */
struct ak_lister;
void ak_classic_list_retreats(struct ak_lister *l);

/* AUTOMATIC VICTORY (ak_auto_victory.c): after each move, switch off the
 * zone of every enemy stack that the mover's supplied units could beat at
 * 7-1 (5-1 surrounded) in a battle the battle rules allow them to fight,
 * each unit counted once (MULTIPLE UNIT BATTLES 3, 7). */
void ak_combat_auto_victory(struct ak_state *s, struct ak_events *ev);

/* The ruleset's battle_preview (ak_classic_preview.c). */
void ak_classic_declared_preview(const struct ak_state *s, int b, struct ak_battle_preview *p);
void ak_classic_battle_preview(const struct ak_state *s, const uint8_t *att, int na, const uint8_t *def, int nd,
                               int supply, struct ak_battle_preview *p);

#endif
