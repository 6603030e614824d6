/* ak_combat: the combat portion of a player turn (Rules engine II).
 *
 * The attacker first declares every battle (ATTACKING 3-4, MULTIPLE UNIT
 * BATTLES 1-9): which of his units fight which enemy units, and which supply
 * unit sustains the battle (SUSTAIN ATTACKS 1-7). He may withdraw a
 * declaration, or remove a unit that cannot attack at 1-6 (MULTIPLE 6),
 * until the first battle is resolved. Resolving the first battle checks
 * that every obligation is met and locks the declarations; the battles are
 * then fought one at a time in the order he names (ATTACKING 5).
 *
 * A result may leave a decision to a player (the winner's retreat routes,
 * the exchange losses of the stronger side, advance after combat): the state
 * records it in s->pending and ak_waiting_for() names who owes it. Where a
 * decision has a single legal answer the engine takes it and says so in an
 * event. Declarations live in ak_combat.c, results in ak_resolve.c.
 */
#ifndef AK_COMBAT_H
#define AK_COMBAT_H

#include "ak_rules.h"

bool ak_combat_battle(const struct ak_ruleset *r, struct ak_state *s,
                      const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej);
bool ak_combat_cancel(const struct ak_ruleset *r, struct ak_state *s,
                      const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej);
bool ak_combat_abandon(const struct ak_ruleset *r, struct ak_state *s,
                       const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej);

/* Every obligation of the combat portion is met (ATTACKING 6, MULTIPLE 3a,
 * FORTRESSES 2); false with the first one broken. */
bool ak_combat_obligations_met(const struct ak_state *s, struct ak_reject *rej);
/* Where a battle's units stand, in both editions: every attacker next to
 * every defender (MULTIPLE UNIT BATTLES 3b), and an attack on a fortress
 * takes on every enemy combat unit in it (FORTRESSES 1). */
bool ak_combat_positions_ok(const struct ak_state *s, const uint8_t *att, int na, const uint8_t *def, int nd,
                            struct ak_reject *rej);
/* Own combat units that must fight: on board, in an enemy zone, not
 * isolated since the start of the turn (ISOLATION 2), not yet in a
 * battle. Fills out, returns the count. */
int ak_combat_owed(const struct ak_state *s, uint8_t *out, int max);
/* Send unit u to the dead pile, with an event naming why. */
void ak_eliminate(struct ak_state *s, int u, int reason, struct ak_events *ev);
/* The end of the combat portion: used supply removed (SUSTAIN ATTACKS 5). */
void ak_combat_finish(struct ak_state *s, struct ak_events *ev);
/* The number of combat units side has on board or at sea. */
int ak_combat_units_left(const struct ak_state *s, int side);

/* Split a battle action into the mover's units and the enemy's; false
 * with *rej when a unit is named twice or a side is missing. */
bool ak_combat_split_sides(const struct ak_state *s, const struct ak_action *a, uint8_t *att, int *na, uint8_t *def,
                           int *nd, struct ak_reject *rej);

/* The battle a resolve action names, not yet fought; NULL with *rej
 * (fought_code: the rule a second fight breaks in the ruleset). */
struct ak_battle *ak_combat_unfought(struct ak_state *s, const struct ak_action *a, const char *fought_code,
                                     struct ak_reject *rej);
/* "DB2": battle b's result on the 1964 table, "" before it is fought. */
void ak_combat_result_name(const struct ak_state *s, int b, char *buf, int len);

#endif
