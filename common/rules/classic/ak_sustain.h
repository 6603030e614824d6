/* ak_sustain: SUSTAIN ATTACKS 2, the supply a unit needs in an enemy zone.
 *
 * "The attacker is not allowed to place his Combat Unit under an enemy zone
 * of control if such movement would place it more than 5 squares away from
 * a Supply Unit at the end of the movement portion of his Turn." The
 * condition is judged when the portion ends (ak_turn_end_movement), so a
 * unit may go into a zone first and its supply follow. So that the portion
 * can always end (a unit in a zone cannot move again, and nothing else in
 * the movement portion takes it off), an action is refused at once when,
 * after it, the units in zones out of reach could not all be sustained by
 * the end of the portion. A supply unit the mover might capture later is
 * not counted on: that needs the capture first. akc shows the units out of
 * reach meanwhile (ak_hazards).
 */
#ifndef AK_SUSTAIN_H
#define AK_SUSTAIN_H

#include "ak_rules.h"

/* SUSTAIN ATTACKS 2 ("more than 5 squares away from a Supply Unit at the
 * end of the movement portion"): the mover's combat units moved or placed
 * this turn that stand in an enemy zone with no supply unit within 5
 * squares by a route free of enemy zones (their foes' zones excepted).
 * Fills out, returns the count. */
int ak_sustain_out_of_reach(const struct ak_state *s, uint8_t *out, int max);
/* The movement portion may end: no unit is out of reach (names them all). */
bool ak_sustain_portion_may_end(const struct ak_state *s, struct ak_reject *rej);
/* After a move, placement, embarkation or substitution: every unit out of
 * reach can still be sustained this portion, all of them together, by the
 * mover's supply units on board (going where the movement rules let them)
 * or one due and placed at a port. So the portion can always end. `moved`
 * are the units the action moved or placed (only they, or a supply move,
 * change anything); NULL: judge all. */
bool ak_sustain_still_possible(const struct ak_state *s, const uint8_t *moved, int nmoved,
                               struct ak_reject *rej);

#endif
