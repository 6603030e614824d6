/* ak_bid: extra supply units at the start for the side that lost a side
 * auction (ak_bid.h says what and why). Reads the scenario's quota and
 * setup; no ruleset decides anything here, both editions start alike. */
#include "ak_bid.h"

/* The square where side's initial supply unit stands (PREPARE FOR PLAY),
 * or AK_HEX_NONE. */
static ak_hex initial_supply_square(const struct ak_state *s, int side)
{
    const struct ak_scenario *sc = &ak_data()->scenario;
    for (int i = 0; i < sc->setups; i++) {
        int u = sc->setup[i].unit;
        const struct ak_unit_def *d = ak_def(u);
        if (d->side == side && d->type == AK_TYPE_SUPPLY && s->unit[u].hex == sc->setup[i].hex)
            return sc->setup[i].hex;
    }
    return AK_HEX_NONE;
}

/* The opening position: turn 1, the first player's movement, no action. */
static bool opening(const struct ak_state *s)
{
    return s->turn == 1 && s->actions == 0 && s->side == AK_AXIS && s->result == AK_RESULT_NONE;
}

/* Side's own supply counters still off board, in the units' order. */
static int spare_counters(const struct ak_state *s, int side, uint8_t *out, int max)
{
    int n = 0;
    for (int u = 0; u < s->units && n < max; u++) {
        const struct ak_unit_def *d = ak_def(u);
        if (d->side == side && d->type == AK_TYPE_SUPPLY && !d->captured_counter && s->unit[u].where == AK_AT_POOL)
            out[n++] = (uint8_t)u;
    }
    return n;
}

int ak_bid_supply_max(const struct ak_state *s, int side)
{
    if (side < 0 || side >= AK_SIDES || !opening(s) || initial_supply_square(s, side) == AK_HEX_NONE)
        return 0;
    uint8_t spare[AK_UNIT_MAX];
    int room = ak_data()->scenario.supply_max[side] - ak_own_supply_on_board(s, side);
    int have = spare_counters(s, side, spare, AK_UNIT_MAX);
    room = room < have ? room : have;
    return room > 0 ? room : 0;
}

bool ak_bid_place(struct ak_state *s, int side, int n, struct ak_reject *rej)
{
    if (side < 0 || side >= AK_SIDES)
        return ak_reject(rej, "BID", "a bid gives supply units to the Axis or the Allies");
    if (!opening(s))
        return ak_reject(rej, "BID", "a bid's supply units are placed before the first action, not after");
    int max = ak_bid_supply_max(s, side);
    if (n < 0 || n > max)
        return ak_reject(rej, "BID", "the %s player may start with at most %d extra supply units (at most %d on "
                         "board)", ak_side_name(side), max, ak_data()->scenario.supply_max[side]);
    uint8_t spare[AK_UNIT_MAX];
    spare_counters(s, side, spare, n);
    ak_hex at = initial_supply_square(s, side);
    for (int i = 0; i < n; i++) {
        struct ak_unit *x = &s->unit[spare[i]];
        x->where = AK_AT_BOARD;
        x->hex = x->start_hex = at;
    }
    return true;
}
