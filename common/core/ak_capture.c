/* ak_capture: captures during movement and Rommel's displacement. */
#include "ak_capture.h"

#include "ak_battle.h"
#include "ak_zoc.h"

bool ak_capturable_from(const struct ak_state *s, int u, ak_hex h)
{
    const struct ak_unit *x = &s->unit[u];
    if (x->where != AK_AT_BOARD || (x->hex != h && !ak_adjacent(x->hex, h)))
        return false;
    /* CAPTURE 7: not while combat units of its side hold the fortress. */
    if (ak_map()->terrain[x->hex] == AK_TERRAIN_FORTRESS &&
        ak_combat_units_at(s, x->hex, ak_def(u)->side) > 0)
        return false;
    return true;
}

void ak_capture_supply(struct ak_state *s, int u, int captor, struct ak_events *ev)
{
    ak_hex h = s->unit[u].hex;
    int counter = AK_UNIT_NONE;
    for (int c = 0; c < s->units && counter == AK_UNIT_NONE; c++)
        if (ak_def(c)->captured_counter && ak_def(c)->side == captor &&
            s->unit[c].where == AK_AT_POOL)
            counter = c;
    s->unit[u].where = AK_AT_POOL;
    s->unit[u].hex = s->unit[u].start_hex = AK_HEX_NONE;
    s->unit[u].flags = 0;
    if (counter != AK_UNIT_NONE) {
        struct ak_unit *x = &s->unit[counter];
        *x = (struct ak_unit){0};
        x->where = AK_AT_BOARD;
        x->hex = x->start_hex = h;
    }
    ak_event_add(ev, AK_EV_CAPTURED, captor, u, counter, h, h, 0, 0, 0);
}

static bool rommel_endangered(const struct ak_state *s, int r, ak_hex h)
{
    const struct ak_unit *x = &s->unit[r];
    if (x->where != AK_AT_BOARD || (x->hex != h && !ak_adjacent(x->hex, h)))
        return false;
    return ak_combat_units_at(s, x->hex, ak_def(r)->side) == 0;
}

static void displace_rommel(struct ak_state *s, int r, struct ak_events *ev)
{
    ak_hex from = s->unit[r].hex;
    int best = -1, best_dist = 1000;
    for (int u = 0; u < s->units; u++) {
        if (u == r || s->unit[u].where != AK_AT_BOARD || ak_def(u)->side != ak_def(r)->side)
            continue;
        int dist = ak_hex_distance(from, s->unit[u].hex);
        if (s->unit[u].hex != from && dist < best_dist) {
            best = u;
            best_dist = dist;
        }
    }
    if (best < 0) {
        s->unit[r].where = AK_AT_POOL;
        s->unit[r].hex = AK_HEX_NONE;
    } else {
        s->unit[r].hex = s->unit[best].hex;
    }
    ak_event_add(ev, AK_EV_ROMMEL_DISPLACED, ak_def(r)->side, r, best < 0 ? AK_UNIT_NONE : best,
                 from, s->unit[r].hex, 0, 0, 0);
}

void ak_capture_around(struct ak_state *s, int side, ak_hex h, struct ak_events *ev)
{
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side != side && ak_def(u)->type == AK_TYPE_SUPPLY &&
            ak_capturable_from(s, u, h))
            ak_capture_supply(s, u, side, ev);
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side != side && ak_def(u)->type == AK_TYPE_HEADQUARTERS &&
            rommel_endangered(s, u, h))
            displace_rommel(s, u, ev);
}

/* The units a combat unit may take on the board (supply units, Rommel). */
static int list_prey(const struct ak_state *s, uint8_t *prey)
{
    int n = 0;
    for (int u = 0; u < s->units; u++)
        if (ak_on_board(s, u) && !ak_unit_is_combat(ak_def(u)))
            prey[n++] = (uint8_t)u;
    return n;
}

void ak_capture_sweep(struct ak_state *s, struct ak_events *ev)
{
    /* Only a unit next to enemy prey can take anything: test that against
     * the few prey first (listed again after a capture, which changes them). */
    uint8_t prey[AK_UNIT_MAX];
    int nprey = list_prey(s, prey);
    for (int u = 0; u < s->units; u++) {
        if (!ak_on_board(s, u) || !ak_unit_is_combat(ak_def(u)))
            continue;
        int side = ak_def(u)->side;
        bool near = false;
        for (int p = 0; p < nprey && !near; p++)
            near = ak_def(prey[p])->side != side && ak_hex_distance(s->unit[prey[p]].hex, s->unit[u].hex) <= 1;
        if (near) {
            ak_capture_around(s, side, s->unit[u].hex, ev);
            nprey = list_prey(s, prey);
        }
    }
}

void ak_rommel_isolation(struct ak_state *s, int mover, struct ak_events *ev)
{
    static uint8_t line[AK_HEX_COUNT];
    bool lines = false;
    for (int r = 0; r < s->units; r++) {
        if (ak_def(r)->side == mover || ak_def(r)->type != AK_TYPE_HEADQUARTERS ||
            !ak_on_board(s, r) || ak_combat_units_at(s, s->unit[r].hex, ak_def(r)->side) > 0)
            continue;
        if (!lines) {
            ak_isolation_map(s, ak_def(r)->side, line);
            lines = true;
        }
        if (ak_isolated(s, r, line))
            displace_rommel(s, r, ev);
    }
}
