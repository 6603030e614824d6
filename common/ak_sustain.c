/* ak_sustain: SUSTAIN ATTACKS 2 (see ak_sustain.h for the reading). */
#include "ak_sustain.h"

#include <stdio.h>
#include <string.h>

#include "ak_arrival.h"
#include "ak_battle.h"

/* The enemy units whose zones cover h: the defenders of any battle fought
 * from h, whose own zones do not block the supply route (SUSTAIN 1). */
static int foes_at(const struct ak_state *s, ak_hex h, uint8_t *foes)
{
    int n = 0;
    for (int e = 0; e < s->units && n < AK_GROUP_MAX; e++)
        if (ak_def(e)->side != s->side && ak_battle_zoc(s, e, h))
            foes[n++] = (uint8_t)e;
    return n;
}

/* Unit u of the mover, moved or placed this turn, stands in an enemy zone
 * with no supply unit within reach. */
static bool out_of_reach(const struct ak_state *s, int u)
{
    const struct ak_unit *x = &s->unit[u];
    if (ak_def(u)->side != s->side || !ak_on_board(s, u) || !ak_unit_is_combat(ak_def(u)) ||
        !(x->flags & (AK_U_MOVED | AK_U_ARRIVED)))
        return false;
    uint8_t foes[AK_GROUP_MAX];
    int nf = foes_at(s, x->hex, foes);
    return nf > 0 && ak_supply_near(s, s->side, x->hex, foes, nf) == AK_UNIT_NONE;
}

int ak_sustain_out_of_reach(const struct ak_state *s, uint8_t *out, int max)
{
    int n = 0;
    for (int u = 0; u < s->units && n < max; u++)
        if (out_of_reach(s, u))
            out[n++] = (uint8_t)u;
    return n;
}

/* "Unit at square, unit at square, ..." for a message. */
static void name_units(const struct ak_state *s, const uint8_t *units, int n, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && at < len; i++) {
        char h[8];
        int k = snprintf(buf + at, len - at, "%s%s at %s", i ? ", " : "", ak_def(units[i])->shortname,
                         ak_hex_format(s->unit[units[i]].hex, h));
        if (k < 0)
            break;
        at += (size_t)k;
    }
}

bool ak_sustain_portion_may_end(const struct ak_state *s, struct ak_reject *rej)
{
    uint8_t late[AK_GROUP_MAX];
    int n = ak_sustain_out_of_reach(s, late, AK_GROUP_MAX);
    if (n == 0)
        return true;
    char names[200];
    name_units(s, late, n, names, sizeof names);
    return ak_reject(rej, "SUSTAIN-2", "%s %s in an enemy zone of control more than 5 squares (by a route free of enemy zones) from any of your supply units; bring a supply unit within reach before the movement portion ends",
                     names, n > 1 ? "stand" : "stands");
}

/* The most squares supply unit sup could still move this portion: its
 * movement factor, the road bonus and Rommel's (when he is on the board)
 * left, as if every step were open; 0 once it has halted. */
static int supply_budget(const struct ak_state *s, int sup, bool rommel)
{
    const struct ak_ruleset *r = ak_ruleset_get(s->ruleset);
    const struct ak_unit *x = &s->unit[sup];
    if (x->where == AK_AT_BOARD && (x->flags & (AK_U_HALTED | AK_U_NO_MOVE)))
        return 0;
    int left = ak_def(sup)->movement - x->mp_spent + r->road_bonus - x->road_spent +
               (rommel ? r->rommel_bonus - x->rommel_spent : 0);
    return left > 0 ? left : 0;
}

static bool rommel_on_board(const struct ak_state *s, int side)
{
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == side && ak_def(u)->type == AK_TYPE_HEADQUARTERS && ak_on_board(s, u))
            return true;
    return false;
}

/* The first unused counter of a kind for side: a supply unit still to
 * come, or a "captured" counter. */
static int spare_counter(const struct ak_state *s, int side, bool captured)
{
    for (int c = 0; c < s->units; c++)
        if (ak_def(c)->side == side && ak_def(c)->type == AK_TYPE_SUPPLY &&
            ak_def(c)->captured_counter == captured && s->unit[c].where == AK_AT_POOL)
            return c;
    return AK_UNIT_NONE;
}

/* Some supply unit of the mover could come within reach of unit u this
 * portion: one on board, a new one placed at a port (placement costs no
 * movement: LOGISTICS, MOVEMENT 2), or a "captured" counter put where an
 * enemy supply unit stands (it moves and sustains attacks that turn,
 * CAPTURE 2). Judged by steps through squares free of enemy zones (terrain
 * and road not priced): a bound, so that it never refuses a move a later
 * one could make good; the exact test is the one when the portion ends. */
static bool supply_could_reach(const struct ak_state *s, int u)
{
    static uint8_t from[AK_HEX_COUNT], budget[AK_HEX_COUNT];
    ak_hex h = s->unit[u].hex, at[AK_UNIT_MAX + AK_KEYS];
    int nat = 0, most = 0, left[AK_UNIT_MAX + AK_KEYS];
    bool rommel = rommel_on_board(s, s->side), near = false;
    int spare = spare_counter(s, s->side, false), captured = spare_counter(s, s->side, true);
    int fresh = supply_budget(s, spare != AK_UNIT_NONE ? spare : captured, rommel);
    /* Where a supply unit could start from, with the squares it has left. */
    for (int sup = 0; sup < s->units; sup++) {
        const struct ak_unit_def *d = ak_def(sup);
        if (d->type != AK_TYPE_SUPPLY || !ak_on_board(s, sup))
            continue;
        if (d->side == s->side) {
            at[nat] = s->unit[sup].hex;
            left[nat++] = supply_budget(s, sup, rommel);
        } else if (captured != AK_UNIT_NONE) {
            at[nat] = s->unit[sup].hex;
            left[nat++] = fresh;
        }
    }
    for (int k = 0; k < AK_KEYS && s->supply_due > 0 && spare != AK_UNIT_NONE; k++)
        if (ak_arrival_port_ok(s, s->side, ak_key_hex(k), "", NULL)) {
            at[nat] = ak_key_hex(k);
            left[nat++] = fresh;
        }
    /* Cheap bound first: as the crow flies. */
    for (int i = 0; i < nat; i++) {
        near = near || ak_hex_distance(at[i], h) <= AK_SUPPLY_RANGE + left[i];
        most = left[i] > most ? left[i] : most;
    }
    if (!near)
        return false;
    memset(budget, 0xff, sizeof budget);
    for (int i = 0; i < nat; i++)
        if (budget[at[i]] == 0xff || left[i] > budget[at[i]])
            budget[at[i]] = (uint8_t)left[i];
    uint8_t foes[AK_GROUP_MAX];
    int nf = foes_at(s, h, foes);
    ak_supply_catchment(s, s->side, h, foes, nf, from);
    return ak_supply_approach(s, s->side, from, budget, most);
}

static bool refuse_unreachable(const struct ak_state *s, int u, struct ak_reject *rej)
{
    char at[8];
    return ak_reject(rej, "SUSTAIN-2", "%s would stand in an enemy zone of control at %s more than 5 squares from any of your supply units, and none of them can come within reach this movement portion",
                     ak_def(u)->shortname, ak_hex_format(s->unit[u].hex, at));
}

bool ak_sustain_still_possible(const struct ak_state *s, const uint8_t *moved, int nmoved,
                               struct ak_reject *rej)
{
    /* Only a move of supply can take reach away from units already out of
     * reach (own units never block a supply route); otherwise only the
     * units just moved need looking at. */
    bool supply_moved = false;
    for (int i = 0; i < nmoved; i++)
        supply_moved = supply_moved || ak_def(moved[i])->type == AK_TYPE_SUPPLY;
    if (!supply_moved) {
        for (int i = 0; i < nmoved; i++)
            if (out_of_reach(s, moved[i]) && !supply_could_reach(s, moved[i]))
                return refuse_unreachable(s, moved[i], rej);
        return true;
    }
    uint8_t late[AK_GROUP_MAX];
    int n = ak_sustain_out_of_reach(s, late, AK_GROUP_MAX);
    for (int i = 0; i < n; i++)
        if (!supply_could_reach(s, late[i]))
            return refuse_unreachable(s, late[i], rej);
    return true;
}
