/* ak_logistics: LOGISTICS, MOVEMENT 5 in the 1964 rules, supply units
 * next to the enemy.
 *
 * "Supply Units may be moved adjacent to enemy units only to sustain an
 * attack that turn." The end of the movement portion checks it
 * (ak_logistics_adjacency_ok); every move checks ahead that it can still
 * hold (ak_logistics_adjacency_possible), so that no accepted move leaves
 * the mover with a portion he can neither end nor mend (issue 34: a dead
 * end is refused up front, with the reason, like SUSTAIN ATTACKS 2's
 * look-ahead in ak_sustain.c).
 */
#ifndef AK_LOGISTICS_H
#define AK_LOGISTICS_H

#include "ak_rules.h"

/* Every supply unit of side that moved next to the enemy sustains an
 * attack: an own combat unit within 5 squares attacks this turn. */
bool ak_logistics_adjacency_ok(const struct ak_state *s, int side, struct ak_reject *rej);
/* After a move, placement or embarkation of the mover: each supply unit
 * that fails the check above can still be mended this portion (it can
 * move on to a square next to no enemy, or an own combat unit can still
 * move to a square within 5 of it from which it attacks). False with
 * LOGISTICS-M5 otherwise. */
bool ak_logistics_adjacency_possible(const struct ak_state *s, struct ak_reject *rej);

#endif
