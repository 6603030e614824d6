/* ak_arrival: placing reinforcements, supply and landings; embarking. */
#include "ak_arrival.h"

#include "ak_turn.h"
#include "ak_zoc.h"

static int key_of_port(int side, ak_hex h)
{
    const struct ak_map *m = ak_map();
    if (h == m->tobruch)
        return AK_KEY_TOBRUCH;
    if (h == m->homebase[side])
        return side == AK_AXIS ? AK_KEY_AXIS_BASE : AK_KEY_ALLIED_BASE;
    return -1;
}

bool ak_arrival_port_ok(const struct ak_state *s, int side, ak_hex h, const char *code,
                        struct ak_reject *rej)
{
    char a[8];
    const struct ak_map *m = ak_map();
    if (h == m->homebase[!side])
        return ak_reject(rej, "REINF-6", "the enemy home base %s is never an arrival square",
                         ak_hex_format(h, a));
    int key = key_of_port(side, h);
    if (key < 0)
        return ak_reject(rej, code, "%s is not a port of arrival: use your home base %s or Tobruch %s",
                         ak_hex_format(h, a), ak_hex_format(m->homebase[side], (char[8]){0}),
                         ak_hex_format(m->tobruch, (char[8]){0}));
    if (s->control[key] != side)
        return ak_reject(rej, code, "you did not control %s at the start of this turn (a garrison is needed%s)",
                         ak_hex_format(h, a),
                         key == AK_KEY_TOBRUCH ? "" : ", out of enemy zones of control");
    return true;
}

static bool place_supply(struct ak_state *s, int u, struct ak_reject *rej)
{
    const struct ak_scenario *sc = &ak_data()->scenario;
    int side = ak_def(u)->side;
    if (ak_def(u)->captured_counter)
        return ak_reject(rej, "LOGISTICS-M6", "a captured supply counter comes into play only by capture");
    if (s->supply_due == 0) {
        bool sunk = side == AK_AXIS && s->supply_roll && (sc->sunk[s->turn] & (1u << s->supply_roll));
        if (sunk)
            return ak_reject(rej, "SUPPLY-TABLE", "no supply unit this turn: the supply table roll of %d was SUNK",
                             s->supply_roll);
        return ak_reject(rej, "LOGISTICS-M6", "no new supply unit is due: at most one is started per turn");
    }
    if (ak_own_supply_on_board(s, side) >= sc->supply_max[side])
        return ak_reject(rej, "LOGISTICS-QUOTA", "the %s player may have at most %d own supply units on board",
                         ak_side_name(side), sc->supply_max[side]);
    s->supply_due--;
    return true;
}

/* REINFORCEMENTS 3: no stacking above three in a besieged Tobruch. */
static bool besieged_room(const struct ak_ruleset *r, const struct ak_state *s, int side, ak_hex h,
                          struct ak_reject *rej)
{
    if (h == ak_map()->tobruch && ak_tobruch_besieged(s, side) &&
        ak_combat_units_at(s, h, side) + 1 > r->stack_limit)
        return ak_reject(rej, "REINF-3", "Tobruch is under siege: arrivals there keep to %d combat units",
                         r->stack_limit);
    return true;
}

static bool place_reinforcement(const struct ak_ruleset *r, struct ak_state *s, int u, ak_hex h,
                                struct ak_reject *rej)
{
    const struct ak_unit_def *d = ak_def(u);
    if (d->substitute)
        return ak_reject(rej, "ACTION", "%s is a substitute counter; it enters only by substitution",
                         d->shortname);
    if (d->arrival_turn == 0 || s->turn < d->arrival_turn)
        return ak_reject(rej, "REINF-ORDER", "%s may enter no earlier than turn %d (%s)",
                         d->shortname, d->arrival_turn,
                         ak_data()->scenario.date[d->arrival_turn ? d->arrival_turn : 1]);
    return besieged_room(r, s, d->side, h, rej);
}

/* REPLACEMENTS: a unit from the dead pile, paid for with accumulated
 * attack factors, placed as a reinforcement is. */
static bool place_replacement(const struct ak_ruleset *r, struct ak_state *s, int u, ak_hex h,
                              struct ak_reject *rej)
{
    const struct ak_scenario *sc = &ak_data()->scenario;
    const struct ak_unit_def *d = ak_def(u);
    if (sc->replace_from == 0 || s->turn < sc->replace_from)
        return ak_reject(rej, "REPLACEMENTS", "replacements start on turn %d (%s)", sc->replace_from,
                         sc->date[sc->replace_from ? sc->replace_from : 1]);
    if (d->attack > s->replacement[s->side])
        return ak_reject(rej, "REPLACEMENTS", "%s costs %d attack factors; you have %d accumulated",
                         d->shortname, d->attack, s->replacement[s->side]);
    if (!ak_arrival_port_ok(s, s->side, h, "REINF-1", rej) ||
        !besieged_room(r, s, d->side, h, rej))
        return false;
    s->replacement[s->side] = (uint8_t)(s->replacement[s->side] - d->attack);
    return true;
}

int ak_arrival_unit(const struct ak_state *s, const struct ak_action *a, struct ak_reject *rej)
{
    if (a->nunits != 1)
        return ak_reject(rej, "ACTION", "place one unit at a time"), -1;
    if (ak_def(a->units[0])->side != s->side)
        return ak_reject(rej, "MOVE-1", "%s is not your unit", ak_def(a->units[0])->shortname), -1;
    return a->units[0];
}

bool ak_arrival_place(const struct ak_ruleset *r, struct ak_state *s,
                      const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej)
{
    int u = ak_arrival_unit(s, a, rej);
    if (u < 0)
        return false;
    if (a->hex == AK_HEX_NONE)      /* the 1964 rules have no off-board box */
        return ak_reject(rej, "ACTION", "place names the square to place on");
    const struct ak_unit_def *d = ak_def(u);
    struct ak_unit *x = &s->unit[u];
    if (x->where == AK_AT_SEA) {
        if (x->sea_turn >= s->turn)
            return ak_reject(rej, "FORTRESS-4", "%s put to sea this turn; it lands in your next turn",
                             d->shortname);
        if (!ak_arrival_port_ok(s, s->side, a->hex, "FORTRESS-4", rej))
            return false;
    } else if (x->where == AK_AT_POOL) {
        if (d->type != AK_TYPE_SUPPLY && !d->substitute &&
            (d->arrival_turn == 0 || s->turn < d->arrival_turn))
            return ak_reject(rej, "REINF-ORDER", "%s may enter no earlier than turn %d (%s)",
                             d->shortname, d->arrival_turn,
                             ak_data()->scenario.date[d->arrival_turn ? d->arrival_turn : 1]);
        if (!ak_arrival_port_ok(s, s->side, a->hex, d->type == AK_TYPE_SUPPLY ? "LOGISTICS-M1" : "REINF-1", rej))
            return false;
        if (d->type == AK_TYPE_SUPPLY ? !place_supply(s, u, rej)
                                      : !place_reinforcement(r, s, u, a->hex, rej))
            return false;
    } else if (x->where == AK_AT_DEAD) {
        if (!place_replacement(r, s, u, a->hex, rej))
            return false;
    } else {
        return ak_reject(rej, "ACTION", "%s is %s", d->shortname,
                         x->where == AK_AT_BOARD ? "already on the board" : "withdrawn for a substitute");
    }
    /* a: 0 arrival, 1 landing from the sea, 2 replacement */
    ak_event_add(ev, AK_EV_PLACED, s->side, u, AK_UNIT_NONE, x->where == AK_AT_SEA ? x->hex : AK_HEX_NONE,
                 a->hex, x->where == AK_AT_SEA ? 1 : x->where == AK_AT_DEAD ? 2 : 0, 0, 0);
    *x = (struct ak_unit){0};
    x->where = AK_AT_BOARD;
    x->hex = x->start_hex = a->hex;
    x->flags = AK_U_ARRIVED;
    return true;
}

int ak_arrival_ports(const struct ak_state *s, int side, ak_hex *out, int max)
{
    (void)s;
    if (max < 2)
        return 0;
    out[0] = ak_map()->homebase[side];
    out[1] = ak_map()->tobruch;
    return 2;
}

bool ak_arrival_embark(const struct ak_ruleset *r, struct ak_state *s,
                       const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej)
{
    char h[8];
    (void)r;
    const struct ak_map *m = ak_map();
    if (a->nunits < 1)
        return ak_reject(rej, "ACTION", "name the units that put to sea");
    for (int i = 0; i < a->nunits; i++) {
        int u = a->units[i];
        const struct ak_unit *x = &s->unit[u];
        if (ak_def(u)->side != s->side || x->where != AK_AT_BOARD)
            return ak_reject(rej, "MOVE-1", "%s is not your unit on the board", ak_def(u)->shortname);
        if (x->hex == m->bengasi)
            return ak_reject(rej, "FORTRESS-3", "no sea movement in or out of Bengasi");
        if (x->hex != m->tobruch && x->hex != m->homebase[s->side])
            return ak_reject(rej, "FORTRESS-4", "%s is at %s; units put to sea only from Tobruch or your own home base",
                             ak_def(u)->shortname, ak_hex_format(x->hex, h));
    }
    for (int i = 0; i < a->nunits; i++) {
        struct ak_unit *x = &s->unit[a->units[i]];
        ak_event_add(ev, AK_EV_EMBARKED, s->side, a->units[i], AK_UNIT_NONE, x->hex, AK_HEX_NONE, 0, 0, 0);
        x->where = AK_AT_SEA;
        x->sea_turn = s->turn;
    }
    return true;
}
