/* ak_engine: the one door into the rules.
 *
 * ak_apply() is what akd, akc, the scenario runner and the benchmarks all
 * call: state + action -> new state + events, or a rejection and the state
 * untouched. ak_replay() re-applies a game's action log from its seed.
 * The queries tell a client whose input the game awaits and what it may do.
 */
#ifndef AK_ENGINE_H
#define AK_ENGINE_H

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

#endif
