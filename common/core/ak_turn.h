/* ak_turn: the sequence of play (HOW TO PLAY steps 1-5).
 *
 * Each complete turn is the German player turn then the Allied player turn;
 * each player turn is a movement portion then a combat portion. This file
 * owns the transitions: what happens at the start of a player turn (control
 * of the key squares is judged, the supply table is rolled, movement is
 * reset, replacements earned, the key-squares win), at the end of the
 * movement portion (stacking, units left at sea, supply entitlement lost,
 * ISOLATION 1) and at the end of the player turn (combat finished, used
 * supply removed, isolation counted, the next player turn or the end).
 */
#ifndef AK_TURN_H
#define AK_TURN_H

#include "ak_rules.h"

/* What every edition does as a player turn starts: control of the key
 * squares judged, movement and battles reset, the turn announced. */
void ak_turn_reset(struct ak_state *s, struct ak_events *ev);
/* The 1964 start of a player turn: the reset, the key-squares win,
 * isolation, replacements, the supply table. */
void ak_turn_start(struct ak_state *s, struct ak_events *ev);
bool ak_turn_destroy_supply(const struct ak_ruleset *r, struct ak_state *s,
                            const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej);
bool ak_turn_end(const struct ak_ruleset *r, struct ak_state *s,
                 const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej);
/* The action kinds possible now in the 1964 sequence of play. */
unsigned ak_turn_possible_actions(const struct ak_state *s);
/* No square of side holds more combat units than the stacking rules allow. */
bool ak_turn_stacking_ok(const struct ak_ruleset *r, const struct ak_state *s, int side, struct ak_reject *rej);
/* The player turn is over: the elimination win, late reinforcements lost
 * on the last turn, then the next player turn begins (or the game ends). */
void ak_turn_pass(const struct ak_ruleset *r, struct ak_state *s, struct ak_events *ev);
/* Is Tobruch held by `side` with enemy combat units next to it? */
bool ak_tobruch_besieged(const struct ak_state *s, int side);

#endif
