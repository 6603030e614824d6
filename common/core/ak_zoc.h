/* ak_zoc: adjacency across hexsides and zones of control.
 *
 * ATTACKING 1-2 and HOW TO HAVE COMBAT: a combat unit controls its six
 * adjacent squares. Only combat units have a zone (CAPTURE 1, ROMMEL 1).
 * The rules notes add: nothing is adjacent across an all-water or Qattara
 * hexside, units next to a fortress exert no zone into it and units inside
 * a fortress exert none out of it (the Updated ruleset lets them: NEW ZOCS
 * 4, ak_ruleset.zoc_out_of_fortress). Automatic victory (Rules engine II) can
 * switch a unit's zone off for the rest of the turn (AK_U_ZOC_OFF).
 */
#ifndef AK_ZOC_H
#define AK_ZOC_H

#include "ak_state.h"

/* a and b touch and no blocking hexside lies between them. */
static inline bool ak_adjacent(ak_hex a, ak_hex b)
{
    int d = ak_hex_dir(a, b);
    return d >= 0 && !(ak_map()->blocked[a] & (1u << d));
}
bool ak_enterable(ak_hex h);
/* Unit u exerts a zone of control now. */
bool ak_exerts_zoc(const struct ak_state *s, int u);
/* Unit u (which exerts a zone) controls hex h. */
bool ak_zoc_covers(const struct ak_state *s, int u, ak_hex h);
/* Hex h lies in the zone of some combat unit of the enemy of side. */
bool ak_in_enemy_zoc(const struct ak_state *s, ak_hex h, int side);
/* A combat unit of side on h attacks this turn: h lies in an enemy zone,
 * or next to an enemy stack whose zone an automatic victory switched off
 * (that stack is still fought, and obliges its neighbours to attack). */
bool ak_attacks_from(const struct ak_state *s, ak_hex h, int side);
/* Some enemy unit of side controls both a and b. */
bool ak_same_enemy_zoc(const struct ak_state *s, ak_hex a, ak_hex b, int side);
/* An enemy supply unit lies on or next to h. */
bool ak_enemy_supply_near(const struct ak_state *s, ak_hex h, int side);
/* An enemy combat or supply unit lies next to h. */
bool ak_enemy_unit_adjacent(const struct ak_state *s, ak_hex h, int side);
/* The same for every square at once: near[h] = 1 where it holds. */
void ak_mark_near_enemy(const struct ak_state *s, int side, uint8_t *near);
/* Every square side's enemies hold in a zone of control, for the maps
 * and floods that need them all at once (ak_in_enemy_zoc square by square
 * would look at every unit for each square). Not reentrant: it keeps the
 * last answer of each side with the position it was found in. */
void ak_enemy_zones(const struct ak_state *s, int side, struct ak_hexset *zone);

#endif
