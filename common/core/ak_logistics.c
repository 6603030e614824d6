/* ak_logistics: LOGISTICS, MOVEMENT 5, supply units next to the enemy
 * (see ak_logistics.h).
 *
 * A supply unit sustains an attack when an own combat unit within 5
 * squares of it attacks this turn: it stands in an enemy zone, or next to
 * an enemy stack beaten by automatic victory, whose zone is ignored but
 * which is still fought ("Supply Units are required to sustain Automatic
 * Victory situations", LOGISTICS 6; docs/rules-notes.md).
 *
 * The look-ahead asks one move per idle supply unit, one after the other
 * (two idle at once must both be mended: the mend of one may leave none
 * for the other): the supply unit moving on, or one combat unit moving up
 * by a move the engine accepts (tried on a copy). A mend that needs two
 * moves (a unit out of the way, then another up) is not foreseen, and the
 * move that would need it is refused; the no-dead-ends invariant
 * (ak_way_forward, common/ak_forward.c, checked in self-play and by the
 * action fuzzer) is what checks that this is enough in the games played.
 */
#include "ak_logistics.h"

#include "ak_engine.h"
#include "ak_move.h"
#include "ak_zoc.h"

#include <string.h>

static bool sustains_attack(const struct ak_state *s, int sup, int side)
{
    for (int c = 0; c < s->units; c++)
        if (ak_def(c)->side == side && ak_on_board(s, c) && ak_unit_is_combat(ak_def(c)) &&
            ak_hex_distance(s->unit[c].hex, s->unit[sup].hex) <= 5 &&
            ak_attacks_from(s, s->unit[c].hex, side))
            return true;
    return false;
}

/* A supply unit that moved next to the enemy and sustains no attack.
 * Inline, the flag that few units carry tested first: the scan below
 * runs over every counter after every 1964 move (a playout's most
 * frequent check). */
static inline bool idle_near_enemy(const struct ak_state *s, int u, int side)
{
    const struct ak_unit *x = &s->unit[u];
    return (x->flags & AK_U_SUPPLY_NEAR_ENEMY) && x->where == AK_AT_BOARD && ak_def(u)->side == side &&
           ak_enemy_unit_adjacent(s, x->hex, side) && !sustains_attack(s, u, side);
}

/* An own combat unit within 5 squares of supply unit sup that stands in a
 * fortress next to the enemy: no zone reaches into a fortress, so it is
 * obliged to no attack, which is why sup sustains none (said so). */
static int in_fortress_near_enemy(const struct ak_state *s, int sup, int side)
{
    for (int c = 0; c < s->units; c++)
        if (ak_def(c)->side == side && ak_on_board(s, c) && ak_unit_is_combat(ak_def(c)) &&
            ak_map()->terrain[s->unit[c].hex] == AK_TERRAIN_FORTRESS &&
            ak_hex_distance(s->unit[c].hex, s->unit[sup].hex) <= 5 && ak_enemy_unit_adjacent(s, s->unit[c].hex, side))
            return c;
    return -1;
}

bool ak_logistics_adjacency_ok(const struct ak_state *s, int side, struct ak_reject *rej)
{
    for (int u = 0; u < s->units; u++) {
        if (!idle_near_enemy(s, u, side))
            continue;
        int f = in_fortress_near_enemy(s, u, side);
        char h[8];
        if (f >= 0)
            return ak_reject(rej, "LOGISTICS-M5", "%s is next to the enemy but sustains no attack this turn: %s in the fortress %s is in no enemy zone (none reaches into a fortress), so nothing obliges it to attack",
                             ak_def(u)->shortname, ak_def(f)->shortname, ak_hex_format(s->unit[f].hex, h));
        return ak_reject(rej, "LOGISTICS-M5", "%s is next to the enemy but sustains no attack this turn; supply units go next to the enemy only in the turn they sustain an attack",
                         ak_def(u)->shortname);
    }
    return true;
}

static bool can_move(const struct ak_state *s, int u)
{
    return ak_on_board(s, u) && !(s->unit[u].flags & (AK_U_HALTED | AK_U_NO_MOVE));
}

/* Set while a candidate move is tried below: the move's own look-ahead
 * is not asked again (one step ahead is what this file foresees). */
static bool trying;

/* The last mend found: tried first next time, for most moves leave it as
 * good as it was (listing the legal moves tries every one of them, and
 * each asks this file again). */
static struct {
    int sup, unit;
    ak_hex to;
} memo = {-1, -1, AK_HEX_NONE};

/* Idle supply units are mended one after the other, one move each, each
 * move tried on a copy of its own; at most MEND_DEPTH of them, and
 * MEND_TRIES moves tried in all: past either the move that made them is
 * refused (a rare position with three supply units idle, say), which is
 * the safe side of a dead end. */
#define MEND_DEPTH 3
#define MEND_TRIES 4000

static struct {
    struct ak_state after[MEND_DEPTH];
    struct ak_dest dest[MEND_DEPTH][AK_HEX_COUNT];
    int tries;
} mend;

static int first_idle(const struct ak_state *s)
{
    for (int u = 0; u < s->units; u++)
        if (idle_near_enemy(s, u, s->side))
            return u;
    return -1;
}

static bool all_mendable(const struct ak_state *s, int depth);

/* Unit moving to square to leaves supply unit sup no longer idle next to
 * the enemy, by a move the engine accepts (a square in reach by the
 * movement rules may still be refused: SUSTAIN ATTACKS 2, a supply unit
 * standing in an enemy zone traces no route), and the other idle ones
 * can be mended after it. */
static bool mends(const struct ak_state *s, int sup, int unit, ak_hex to, int depth)
{
    struct ak_state *after = &mend.after[depth];
    struct ak_action a = {.kind = AK_ACT_MOVE, .side = (uint8_t)s->side, .nunits = 1, .hex = to,
                          .supply = AK_UNIT_NONE};
    a.units[0] = (uint8_t)unit;
    if (mend.tries++ >= MEND_TRIES)
        return false;
    *after = *s;
    trying = true;
    bool ok = ak_apply(after, &a, NULL, NULL) && !idle_near_enemy(after, sup, s->side);
    trying = false;
    ok = ok && all_mendable(after, depth + 1);
    if (ok && depth == 0) {
        memo.sup = sup;
        memo.unit = unit;
        memo.to = to;
    }
    return ok;
}

/* Unit u's moves that could mend sup: for the supply unit itself, to a
 * square next to no enemy; for a combat unit, to a square within 5 of
 * sup from which it attacks. */
static bool unit_can_mend(const struct ak_state *s, int sup, int u, int depth)
{
    const struct ak_ruleset *r = ak_ruleset_get(s->ruleset);
    struct ak_dest *dest = mend.dest[depth];
    ak_hex at = s->unit[sup].hex;
    uint8_t one = (uint8_t)u;
    /* no unit goes further than its factor and the road's bonus */
    if (!can_move(s, u) || (u != sup && ak_hex_distance(s->unit[u].hex, at) > 5 + ak_def(u)->movement + r->road_bonus))
        return false;
    int n = ak_move_destinations(s, s->side, &one, 1, dest, AK_HEX_COUNT, NULL);
    for (int i = 0; i < n; i++) {
        ak_hex h = dest[i].hex;
        bool may = u == sup ? !ak_enemy_unit_adjacent(s, h, s->side)
                            : ak_hex_distance(h, at) <= 5 && ak_attacks_from(s, h, s->side);
        if (may && mends(s, sup, u, h, depth))
            return true;
    }
    return false;
}

static bool all_mendable(const struct ak_state *s, int depth)
{
    int sup = first_idle(s);
    if (sup < 0)
        return true;
    if (depth >= MEND_DEPTH)
        return false;
    if (depth == 0 && memo.sup == sup && memo.unit >= 0 && mends(s, sup, memo.unit, memo.to, depth))
        return true;
    if (unit_can_mend(s, sup, sup, depth))
        return true;
    for (int c = 0; c < s->units; c++)
        if (ak_def(c)->side == s->side && ak_unit_is_combat(ak_def(c)) && unit_can_mend(s, sup, c, depth))
            return true;
    return false;
}

bool ak_logistics_adjacency_possible(const struct ak_state *s, struct ak_reject *rej)
{
    if (trying)
        return true;
    /* Any move can take a mend away: the combat unit that could come up,
     * or the supply in reach that lets it (SUSTAIN ATTACKS 2). The cost
     * falls only where a supply unit is next to the enemy idle. */
    int u = first_idle(s);
    if (u < 0)
        return true;
    mend.tries = 0;
    if (all_mendable(s, 0))
        return true;
    return ak_reject(rej, "LOGISTICS-M5", "%s would stand next to the enemy sustaining no attack, and no moves could still change that for every supply unit there, so the movement portion could not end; supply units go next to the enemy only in the turn they sustain an attack",
                     ak_def(u)->shortname);
}
