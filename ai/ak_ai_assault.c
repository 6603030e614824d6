/* ak_ai_assault: the assault on a key square, for the strong level's plan
 * (ak_ai_plan.c). (The evaluation's pull of supply toward the same
 * squares finds them from the maps it has already made, ak_ai_eval.c's
 * find_front: the same test, written there for its cost.)
 *
 * HOW TO WIN asks the Axis to take Tobruch and the Allied home base from
 * an enemy that garrisons them (and the Allies, for their own win, the
 * same of the Axis; the targets are made for both sides alike), and a
 * fortress doubles its defenders (DEFENDING 2): an assault at odds worth
 * taking needs four to nine units next to the square and a supply unit
 * within five squares of them (SUSTAIN ATTACKS 1), all moved in the same
 * turn. One unit stepping
 * next to the square alone opens a battle it loses, so no unit's best
 * destinations alone hold its part in the assault, and a plan made of
 * those destinations finds it only by chance. The plan is therefore
 * offered, for each such square, the move that gives every unit its
 * part: a combat unit to a square next to it (no more than a stack each),
 * one supply unit (the plan keeps the best placed) to a square within
 * range of all of them by distance (the engine judges the route, SUSTAIN
 * ATTACKS 1, when the plan is tried). The plan values
 * the assault as a whole (the battle by its outcome distribution,
 * ak_ai_battle.c) and keeps it only when it is worth more than the rest;
 * a plan whose part cannot end (a unit the assault did not move left in
 * an enemy zone beyond its supply) is repaired first (ak_ai_plan.c). */
#include <math.h>

#include "ak_ai_internal.h"
#include "ak_battle.h"
#include "ak_query.h"
#include "ak_zoc.h"

int ak_ai_assault_targets(const struct ak_state *s, int side, ak_hex *out)
{
    int n = 0;
    for (int k = 0; k < AK_KEYS; k++) {
        if (ak_control_now(s, k) == side)
            continue;
        ak_hex h = ak_key_hex(k);
        for (int u = 0; u < s->units; u++)
            if (ak_def(u)->side != side && ak_on_board(s, u) && ak_unit_is_combat(ak_def(u)) && s->unit[u].hex == h) {
                out[n++] = h;
                break;
            }
    }
    return n;
}

#define SUPPLY_NEAR (AK_SUPPLY_RANGE - 1)  /* squares from the target: within range of every square next to it */

/* Whether a unit on h takes part in the assault on t. */
static bool in_assault(int u, ak_hex h, ak_hex t)
{
    if (ak_def(u)->type == AK_TYPE_SUPPLY) {
        int d = ak_hex_distance(h, t);
        return d >= 2 && d <= SUPPLY_NEAR;
    }
    return ak_unit_is_combat(ak_def(u)) && ak_adjacent(h, t);
}

/* Whether a unit on h takes part in the march up to t: next to no enemy
 * unit (so out of every enemy zone: its part can end wherever its supply
 * is), combat units a square or two short of t's neighbours. */
static bool in_staging(const struct ak_state *s, int u, ak_hex h, ak_hex t)
{
    int d = ak_hex_distance(h, t);
    if (ak_enemy_unit_adjacent(s, h, ak_def(u)->side))
        return false;
    return ak_def(u)->type == AK_TYPE_SUPPLY || (ak_unit_is_combat(ak_def(u)) && d >= 2 && d <= 3);
}

/* Is destination a a better part than b? In an assault or a combat
 * unit's march the better valued; a supply unit's march the nearer t. */
static bool better_part(const struct ak_state *s, int u, bool stage, ak_hex t, const struct ak_action *dests,
                        const double *v, int a, int b)
{
    if (stage && ak_def(u)->type == AK_TYPE_SUPPLY) {
        int da = ak_hex_distance(dests[a].hex, t), db = ak_hex_distance(dests[b].hex, t);
        if (da != db)
            return da < db;
    }
    (void)s;
    return v[a] > v[b];
}

ak_hex ak_ai_assault_part(const struct ak_state *s, int u, ak_hex t, const struct ak_action *dests, const double *v,
                          int n, uint8_t *stacked, bool stage, double *worth)
{
    bool combat = ak_unit_is_combat(ak_def(u));
    *worth = HUGE_VAL;
    if (stage ? in_staging(s, u, s->unit[u].hex, t) && ak_def(u)->type != AK_TYPE_SUPPLY
              : in_assault(u, s->unit[u].hex, t))
        return s->unit[u].hex;      /* its part already: standing still */
    int best = -1, limit = ak_ai_stack_limit(s);
    for (int i = 0; i < n; i++)
        if (v[i] > -HUGE_VAL && (stage ? in_staging(s, u, dests[i].hex, t) : in_assault(u, dests[i].hex, t)) &&
            (!combat || stacked[dests[i].hex] < limit) && (best < 0 || better_part(s, u, stage, t, dests, v, i, best)))
            best = i;
    if (best < 0 || (stage && !combat && ak_hex_distance(dests[best].hex, t) >= ak_hex_distance(s->unit[u].hex, t)))
        return AK_HEX_NONE;     /* (a supply unit that comes no nearer has no part in the march) */
    if (combat)
        stacked[dests[best].hex]++;
    *worth = v[best];
    return dests[best].hex;
}

bool ak_ai_assault_supplied(const struct ak_state *s, int side, ak_hex t)
{
    static struct ak_action dests[AK_HEX_COUNT];
    for (int u = 0; u < s->units; u++) {
        if (ak_def(u)->side != side || ak_def(u)->type != AK_TYPE_SUPPLY || !ak_on_board(s, u))
            continue;
        if (in_assault(u, s->unit[u].hex, t))
            return true;
        int n = ak_legal_moves(s, u, dests, AK_HEX_COUNT);
        for (int i = 0; i < n; i++)
            if (in_assault(u, dests[i].hex, t))
                return true;
    }
    return false;
}
