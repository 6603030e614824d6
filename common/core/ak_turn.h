/* ak_turn: the steps of the sequence of play every edition shares.
 *
 * Each complete turn is the German player turn then the Allied player
 * turn. Shared here: control of the key squares, the reset as a player
 * turn starts, the stacking check, and passing the turn on (the
 * elimination win, late reinforcements lost, the next player turn or the
 * end). Each ruleset's own steps are its own: the 1964 portions in
 * rules/classic/ak_classic_turn.c, the Updated phases in
 * rules/updated/ak_updated_turn.c.
 */
#ifndef AK_TURN_H
#define AK_TURN_H

#include "ak_rules.h"

/* What every edition does as a player turn starts: control of the key
 * squares judged, movement and battles reset, the turn announced. */
void ak_turn_reset(struct ak_state *s, struct ak_events *ev);
/* No square of side holds more combat units than the stacking rules allow. */
bool ak_turn_stacking_ok(const struct ak_ruleset *r, const struct ak_state *s, int side, struct ak_reject *rej);
/* The player turn is over: the elimination win, late reinforcements lost
 * on the last turn, then the next player turn begins (or the game ends). */
void ak_turn_pass(const struct ak_ruleset *r, struct ak_state *s, struct ak_events *ev);
/* Is Tobruch held by `side` with enemy combat units next to it? */
bool ak_tobruch_besieged(const struct ak_state *s, int side);

#endif
