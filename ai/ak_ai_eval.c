/* ak_ai_eval: what a position is worth to one side, for the computer
 * player's search. A sum of what the rules reward, in factor points:
 * combat factors on board (material), supply units, Tobruch, the enemy's
 * threat to one's home base, the Axis's advance toward the Allied base
 * (the Axis must take ground to win; the Allies hold it), and the risks
 * the rules punish: units with no supply line (ISOLATION, SUPPLY PHASE)
 * and units isolated for turns. Counted for both sides, the enemy's
 * subtracted, so the value is symmetric. The game's end outweighs all. */
#include <string.h>

#include "ak_ai.h"

#define WON 100000.0

const struct ak_ai_weights ak_ai_default_weights = {
    .material = 1.0,
    .supply_unit = 3.0,
    .tobruch = 8.0,
    .home_threat = 6.0,
    .advance = 0.08,
    .out_of_supply = 0.35,
    .isolated = 0.5,
    .battle = 1.0,
};

/* A combat unit's factors as they stand (a reduced unit at half). */
static double factors(const struct ak_state *s, int u)
{
    const struct ak_unit_def *d = ak_def(u);
    int a = d->attack, f = d->defense;
    if (s->unit[u].reduced) {
        a = ak_reduced_factor(a);
        f = ak_reduced_factor(f);
    }
    return a + f;
}

/* One side's part of the value (the caller subtracts the enemy's). */
static double side_value(const struct ak_ai_weights *w, const struct ak_state *s, int side, const uint8_t *supply)
{
    const struct ak_map *m = ak_map();
    ak_hex goal = m->homebase[!side];
    double v = 0;
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit_def *d = ak_def(u);
        if (d->side != side || !ak_on_board(s, u))
            continue;
        ak_hex h = s->unit[u].hex;
        if (d->type == AK_TYPE_SUPPLY) {
            v += w->supply_unit;
            continue;
        }
        if (!ak_unit_is_combat(d))
            continue;
        double f = factors(s, u);
        v += w->material * f;
        if (side == AK_AXIS)
            v -= w->advance * ak_hex_distance(h, goal);
        if (!supply[h])
            v -= w->out_of_supply * f;
        v -= w->isolated * f * s->unit[u].isolated;
        if (ak_hex_distance(h, goal) <= 3)
            v += w->home_threat;       /* the enemy's base threatened */
        if (h == m->tobruch)
            v += w->tobruch;
    }
    return v;
}

double ak_ai_evaluate(const struct ak_ai_weights *w, const struct ak_state *s, int side)
{
    if (s->phase == AK_PHASE_OVER)
            return s->result == AK_RESULT_DRAW ? 0
               : s->result == (side == AK_AXIS ? AK_RESULT_AXIS_WINS : AK_RESULT_ALLIED_WINS) ? WON : -WON;
    static uint8_t supply[AK_SIDES][AK_HEX_COUNT];
    ak_overlay(s, AK_AXIS, NULL, supply[AK_AXIS]);
    ak_overlay(s, AK_ALLIED, NULL, supply[AK_ALLIED]);
    return side_value(w, s, side, supply[side]) - side_value(w, s, !side, supply[!side]);
}
