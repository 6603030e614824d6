/* ak_engine: the one door into the rules.
 *
 * ak_apply() is what akd, akc, the scenario runner and the benchmarks all
 * call: state + action -> new state + events, or a rejection and the state
 * untouched. ak_replay() re-applies a game's action log from its seed.
 * The queries tell a client whose input the game awaits and what it may do.
 */
#ifndef AK_ENGINE_H
#define AK_ENGINE_H

#include "ak_crt_table.h"
#include "ak_move.h"
#include "ak_rules.h"

/* Returns true and updates *s, or false with *rej and *s unchanged. */
bool ak_apply(struct ak_state *s, const struct ak_action *a, struct ak_events *ev,
              struct ak_reject *rej);

/* Would ak_apply accept a? The state is not touched (not reentrant). */
bool ak_try(const struct ak_state *s, const struct ak_action *a, struct ak_reject *rej);

/* The side whose input the game waits for, or AK_NOBODY when it is over. */
int ak_waiting_for(const struct ak_state *s);
/* Bit mask of action kinds (1 << AK_ACT_*) the waiting side may try now. */
unsigned ak_possible_actions(const struct ak_state *s);
/* The action that ends the part of the turn the mover is in: the
 * movement portion (phase), the 1964 combat portion with the turn, the
 * Updated ruleset's later phases, its replacement phase with the turn. */
int ak_ending_action(const struct ak_state *s);
/* The part of the turn the mover is in, in the edition's words: "movement
 * portion", "mechanized movement phase" (a static buffer). */
const char *ak_phase_words(const struct ak_state *s);
/* The battle att (na units) would fight against def (nd units) now, with
 * its chances, in the game's ruleset (struct ak_battle_preview). Units
 * that are not combat units on board are left out. */
void ak_battle_preview(const struct ak_state *s, const uint8_t *att, int na, const uint8_t *def, int nd, int supply,
                       struct ak_battle_preview *p);

/* What a player's map overlay shows, for side: zone[hex] = 1 where the
 * enemy's zones of control reach (a unit of side entering stops there),
 * supply[hex] = 1 where a unit of side would be in supply (the ruleset's
 * sense). Either may be NULL. */
void ak_overlay(const struct ak_state *s, int side, uint8_t *zone, uint8_t *supply);
/* open[hex] = 1 where a unit of side would not be isolated now (the
 * ruleset's sense): where a pocket would close, before it does. */
void ak_isolation_overlay(const struct ak_state *s, int side, uint8_t *open);

/* The combat results table a game's battles are fought on (akd's
 * updated_crt when the game was started), attached to its state by a small
 * number (s->crt), not kept in it: whoever makes or loads a state of the
 * Updated ruleset (a ruleset with needs_crt_table) attaches it, and a state without one declares no battle.
 * -1 when AK_CRT_SLOTS - 1 different tables are attached already. Not
 * reentrant (one thread runs the engine). */
int ak_crt_attach(struct ak_state *s, const struct ak_crt_table *t);
const struct ak_crt_table *ak_crt_of(const struct ak_state *s);

#endif
