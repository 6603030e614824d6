/* ak_ai_battle: a battle's worth to its attacker before it is fought,
 * from the ruleset's battle preview (ak_battle_preview): every result the
 * die can give, with its exact chance, times what the result costs each
 * side. The results are read from their names, so both tables are read
 * the same way: the 1964 table's AE, AB2, EX, DB2, DE, and the Updated
 * table's cells ("DL50%/DR2": the defender loses half, retreats two),
 * each part counted. A loss counts the factors lost (attack and defence,
 * as the evaluation counts material); a retreat a third of the side's
 * factors (a retreat can end in elimination, and gives ground), and all
 * of them from a fortress where the ruleset makes it an elimination
 * (1964: FORTRESSES 5, "Units in Fortresses Back 2 are eliminated"). */
#include <stdlib.h>
#include <string.h>

#include "ak_ai_internal.h"
#include "ak_zoc.h"

#define RETREAT_SHARE (1.0 / 3.0)
#define EXCHANGE_SHARE 0.2      /* EX: both lose about as much; the defender's square opens */

/* What one part of a result ("DE", "AL50%", "DR2") gives the attacker;
 * kills[side]: that side fights from a fortress where the ruleset makes
 * a retreat an elimination (1964: FORTRESSES 5; a side with units both in
 * and out of one is counted as in it, an over-estimate of its loss). */
static double part_value(const char *p, size_t len, double att, double def, const bool *kills)
{
    double weaker = att < def ? att : def;
    if (len >= 2 && p[0] == 'D' && p[1] == 'E')
        return def;
    if (len >= 2 && p[0] == 'A' && p[1] == 'E')
        return -att;
    if (len >= 2 && p[0] == 'E' && p[1] == 'X')
        return EXCHANGE_SHARE * def;
    if (len >= 3 && (p[1] == 'L') && (p[0] == 'D' || p[0] == 'A')) {
        double share = atof(p + 2) / 100.0;
        return p[0] == 'D' ? share * weaker : -share * weaker;
    }
    if (len >= 2 && (p[1] == 'B' || p[1] == 'R'))
        return p[0] == 'D'   ? (kills[1] ? def : RETREAT_SHARE * def)
               : p[0] == 'A' ? -(kills[0] ? att : RETREAT_SHARE * att)
                             : 0;
    return 0;
}

static double result_value(const char *name, double att, double def, const bool *kills)
{
    double v = 0;
    for (const char *p = name; *p;) {
        size_t len = strcspn(p, "/");
        v += part_value(p, len, att, def, kills);
        p += len + (p[len] == '/');
    }
    return v;
}

#define UNSURE 0.5      /* a result that empties the square as often as not */

/* How surely a result ("DE", "EX", "DB2", "DL50%/DR2") empties the
 * defenders' square: 1 when they are eliminated or lose every step, or
 * are driven back (a retreat, or in a 1964 fortress an elimination,
 * FORTRESSES 5), except that where a ruleset's two-step units may hold a
 * fortress by losing a step instead (step_holds), a retreat there is
 * UNSURE; an exchange is UNSURE too (1964: only the weaker side is
 * removed, and a fortress doubles the defence); 0 otherwise. A guess
 * from the name, cheap enough for the plan's inner loop; ak_battle_odds
 * (the engine fighting every face on a copy) knows exactly, at a
 * resolution a face. */
static double vacates(const char *name, bool step_holds)
{
    double v = 0;
    for (const char *p = name; *p;) {
        size_t len = strcspn(p, "/");
        if ((len >= 2 && p[0] == 'D' && p[1] == 'E') || (len >= 3 && p[0] == 'D' && p[1] == 'L' && atof(p + 2) >= 100))
            return 1;
        if (len >= 2 && p[0] == 'D' && (p[1] == 'B' || p[1] == 'R'))
            v = step_holds ? UNSURE : 1;
        else if (len >= 2 && p[0] == 'E' && p[1] == 'X' && v < UNSURE)
            v = UNSURE;
        p += len + (p[len] == '/');
    }
    return v;
}

/* The battle's attackers and defenders, and its preview; false when the
 * odds allow no battle. */
static bool preview_of(const struct ak_state *s, const struct ak_action *battle, uint8_t *att, int *na, uint8_t *def,
                       int *nd, struct ak_battle_preview *p)
{
    *na = *nd = 0;
    for (int i = 0; i < battle->nunits; i++) {
        int u = battle->units[i];
        if (ak_def(u)->side == battle->side)
            att[(*na)++] = (uint8_t)u;
        else
            def[(*nd)++] = (uint8_t)u;
    }
    ak_battle_preview(s, att, *na, def, *nd, battle->supply, p);
    return p->known && p->allowed && p->faces > 0;
}

/* Whether any of these units stands in a fortress. */
static bool in_fortress(const struct ak_state *s, const uint8_t *units, int n)
{
    for (int i = 0; i < n; i++)
        if (s->unit[units[i]].hex != AK_HEX_NONE && ak_map()->terrain[s->unit[units[i]].hex] == AK_TERRAIN_FORTRESS)
            return true;
    return false;
}

double ak_ai_battle_worth(const struct ak_ai_weights *w, const struct ak_state *s, const struct ak_action *battle)
{
    uint8_t att[AK_GROUP_MAX], def[AK_GROUP_MAX];
    int na, nd;
    struct ak_battle_preview p;
    if (!preview_of(s, battle, att, &na, def, &nd, &p))
        return 0;
    bool step_holds = in_fortress(s, def, nd) && ak_ruleset_get(s->ruleset)->two_step_units;
    double empties = 0, taken = 0;
    for (int i = 0; i < p.nresults; i++)
        empties += vacates(p.result[i].name, step_holds) * p.result[i].chances / p.faces;
    static uint8_t seen[AK_HEX_COUNT];
    for (int i = 0; i < nd; i++)
        if (s->unit[def[i]].hex != AK_HEX_NONE)
            seen[s->unit[def[i]].hex] = 0;
    for (int i = 0; i < nd && empties > 0; i++) {
        ak_hex h = s->unit[def[i]].hex;
        if (h == AK_HEX_NONE || seen[h])
            continue;
        taken += ak_ai_square_worth(w, s, h, battle->side);
        seen[h] = 1;
    }
    return w->battle * ak_ai_battle_value(s, battle) + empties * taken;
}

double ak_ai_battle_value(const struct ak_state *s, const struct ak_action *battle)
{
    uint8_t att[AK_GROUP_MAX], def[AK_GROUP_MAX];
    int na, nd;
    struct ak_battle_preview p;
    if (!preview_of(s, battle, att, &na, def, &nd, &p))
        return 0;
    /* what each side stands to lose: its units' factors, as the
     * evaluation counts material */
    double a = 0, d = 0, v = 0;
    for (int i = 0; i < na; i++)
        a += ak_def(att[i])->attack + ak_def(att[i])->defense;
    for (int i = 0; i < nd; i++)
        d += ak_def(def[i])->attack + ak_def(def[i])->defense;
    bool rule = ak_ruleset_get(s->ruleset)->fortress_retreat_kills;
    const bool kills[2] = {rule && in_fortress(s, att, na), rule && in_fortress(s, def, nd)};    /* attackers, defenders */
    for (int i = 0; i < p.nresults; i++)
        v += (double)p.result[i].chances / p.faces * result_value(p.result[i].name, a, d, kills);
    return v;
}

/* The battle side's combat units next to enemy square e would fight
 * against it, valued (ak_ai_battle_worth; 0 when e holds no enemy combat
 * unit). */
double ak_ai_battle_against(const struct ak_ai_weights *w, const struct ak_state *s, ak_hex e, int side)
{
    struct ak_action b = {.kind = AK_ACT_BATTLE, .side = (uint8_t)side, .supply = AK_UNIT_NONE, .hex = AK_HEX_NONE};
    for (int u = 0; u < s->units && b.nunits < AK_GROUP_MAX; u++)
        if (ak_on_board(s, u) && ak_unit_is_combat(ak_def(u)) && ak_def(u)->side != side && s->unit[u].hex == e)
            b.units[b.nunits++] = (uint8_t)u;
    if (!b.nunits)
        return 0;
    for (int u = 0; u < s->units && b.nunits < AK_GROUP_MAX; u++)
        if (ak_on_board(s, u) && ak_unit_is_combat(ak_def(u)) && ak_def(u)->side == side &&
            ak_adjacent(s->unit[u].hex, e))
            b.units[b.nunits++] = (uint8_t)u;
    return ak_ai_battle_worth(w, s, &b);
}

/* The battle the strong level expects a unit on h to open: the best of
 * those against the enemy squares next to h. */
double ak_ai_opened_battle(const struct ak_ai_weights *w, const struct ak_state *s, ak_hex h, int side)
{
    double best = 0;
    for (int d = 0; d < AK_DIRS; d++) {
        ak_hex e = ak_hex_neighbor(h, d);
        if (e == AK_HEX_NONE || !ak_adjacent(h, e))
            continue;
        double v = ak_ai_battle_against(w, s, e, side);
        if (v > best)
            best = v;
    }
    return best;
}
