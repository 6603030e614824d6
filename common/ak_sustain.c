/* ak_sustain: SUSTAIN ATTACKS 2 (see ak_sustain.h for the reading). */
#include "ak_sustain.h"

#include <stdio.h>
#include <string.h>

#include "ak_arrival.h"
#include "ak_battle.h"
#include "ak_move.h"

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

int ak_sustain_out_of_reach(const struct ak_state *s, uint8_t *out, int max)
{
    int n = 0;
    for (int u = 0; u < s->units && n < max; u++) {
        const struct ak_unit *x = &s->unit[u];
        if (ak_def(u)->side != s->side || !ak_on_board(s, u) || !ak_unit_is_combat(ak_def(u)) ||
            !(x->flags & (AK_U_MOVED | AK_U_ARRIVED)))
            continue;
        uint8_t foes[AK_GROUP_MAX];
        int nf = foes_at(s, x->hex, foes);
        if (nf > 0 && ak_supply_near(s, s->side, x->hex, foes, nf) == AK_UNIT_NONE)
            out[n++] = (uint8_t)u;
    }
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

/* Supply unit sup, standing where it is in *w or at any square it can
 * still move to, stands on a square of `from` (ak_supply_catchment). */
static bool supply_can_serve(const struct ak_state *w, int sup, ak_hex h, const uint8_t *from)
{
    static struct ak_dest dest[AK_HEX_COUNT];
    const struct ak_unit *x = &w->unit[sup];
    const struct ak_ruleset *r = ak_ruleset_get(w->ruleset);
    uint8_t one = (uint8_t)sup;
    if (from[x->hex])
        return true;
    /* Cheap bound before the search: squares left, every step open. */
    int left = ak_def(sup)->movement - x->mp_spent + r->road_bonus - x->road_spent + r->rommel_bonus;
    if (ak_hex_distance(x->hex, h) > AK_SUPPLY_RANGE + left)
        return false;
    int n = ak_move_destinations(w, w->side, &one, 1, dest, AK_HEX_COUNT, NULL);
    for (int i = 0; i < n; i++)
        if (from[dest[i].hex])
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

/* Counter c of the mover newly on board at h with its whole movement (a
 * placement: LOGISTICS, MOVEMENT 2; a capture: CAPTURE 2, in place of the
 * enemy's unit `taken`) could serve u. */
static bool new_supply_could_serve(const struct ak_state *s, int c, int taken, ak_hex at, ak_hex h,
                                   const uint8_t *from)
{
    static struct ak_state w;
    w = *s;
    if (taken != AK_UNIT_NONE)
        w.unit[taken] = (struct ak_unit){.where = AK_AT_POOL, .hex = AK_HEX_NONE, .start_hex = AK_HEX_NONE};
    w.unit[c] = (struct ak_unit){.where = AK_AT_BOARD, .hex = at, .start_hex = at, .flags = AK_U_ARRIVED};
    return supply_can_serve(&w, c, h, from);
}

/* Some supply unit of the mover could come within reach of unit u this
 * portion: one on board, a new one placed at a port, or an enemy one
 * captured where it stands (the captor's "captured" counter moves and
 * sustains attacks that turn, CAPTURE 2). */
static bool supply_could_reach(const struct ak_state *s, int u)
{
    static uint8_t from[AK_HEX_COUNT];
    ak_hex h = s->unit[u].hex;
    uint8_t foes[AK_GROUP_MAX];
    int nf = foes_at(s, h, foes);
    ak_supply_catchment(s, s->side, h, foes, nf, from);
    for (int sup = 0; sup < s->units; sup++)
        if (ak_def(sup)->side == s->side && ak_def(sup)->type == AK_TYPE_SUPPLY && ak_on_board(s, sup) &&
            supply_can_serve(s, sup, h, from))
            return true;
    int spare = spare_counter(s, s->side, false);
    for (int k = 0; k < AK_KEYS && s->supply_due > 0 && spare != AK_UNIT_NONE; k++)
        if (ak_arrival_port_ok(s, s->side, ak_key_hex(k), "", NULL) &&
            new_supply_could_serve(s, spare, AK_UNIT_NONE, ak_key_hex(k), h, from))
            return true;
    int captured = spare_counter(s, s->side, true);
    for (int e = 0; e < s->units && captured != AK_UNIT_NONE; e++)
        if (ak_def(e)->side != s->side && ak_def(e)->type == AK_TYPE_SUPPLY && ak_on_board(s, e) &&
            new_supply_could_serve(s, captured, e, s->unit[e].hex, h, from))
            return true;
    return false;
}

bool ak_sustain_still_possible(const struct ak_state *s, const uint8_t *moved, int nmoved,
                               struct ak_reject *rej)
{
    uint8_t late[AK_GROUP_MAX];
    int n = ak_sustain_out_of_reach(s, late, AK_GROUP_MAX);
    /* Only a move of supply can take reach away from units already out of
     * reach (own units never block a supply route); otherwise only the
     * units just moved need the search. */
    bool supply_moved = false;
    for (int i = 0; i < nmoved; i++)
        supply_moved = supply_moved || ak_def(moved[i])->type == AK_TYPE_SUPPLY;
    for (int i = 0; i < n; i++) {
        char at[8];
        if (!supply_moved && !memchr(moved, late[i], (size_t)nmoved))
            continue;
        if (!supply_could_reach(s, late[i]))
            return ak_reject(rej, "SUSTAIN-2", "%s would stand in an enemy zone of control at %s more than 5 squares from any of your supply units, and none of them can come within reach this movement portion",
                             ak_def(late[i])->shortname, ak_hex_format(s->unit[late[i]].hex, at));
    }
    return true;
}
