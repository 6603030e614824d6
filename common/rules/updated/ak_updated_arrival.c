/* ak_updated_arrival: placing the Updated ruleset's new units (seed 003,
 * REINFORCEMENT PHASE, PORTS 1): "new arriving units are placed in entry
 * locations at the western or eastern ends of the map", supply units when
 * the reinforcement phase made one due (ak_updated_turn.c), within the
 * 1964 limit of supply counters on the board (reading A-27 (iii)). The
 * entry squares are data (`entry` in common/data/updated-1941.txt). A
 * placed unit moves from its entry with its whole allowance. */
#include "ak_updated.h"

#include <stddef.h>

#include "ak_arrival.h"

#include "ak_losses.h"
#include "ak_stacking.h"
#include "ak_zoc.h"

/* TOBRUK CAPTURE: "The first time the Axis player takes control of
 * Tobruk, he automatically receives 1 captured SU placed in Tobruk,
 * regardless of whether there was any Allied SU there": one in all (an
 * Allied supply unit captured there on the way gave it already; reading
 * A-26 (a)). Control is a garrison, as in 1964 ("to control a Fortress
 * you need only garrison it with a Combat, Supply or Rommel Unit"): the
 * first Axis unit of any of those kinds in Tobruch takes it. */
void ak_updated_tobruch_taken(struct ak_state *s, struct ak_events *ev)
{
    ak_hex t = ak_map()->tobruch;
    bool garrison = false;
    for (int u = 0; u < s->units && !garrison; u++)
        garrison = ak_def(u)->side == AK_AXIS && ak_on_board(s, u) && s->unit[u].hex == t;
    if ((s->flags & AK_SF_TOBRUCH_TAKEN) || !garrison)
        return;
    s->flags |= AK_SF_TOBRUCH_TAKEN | AK_SF_TOBRUCH_FIRST;
    int counter = -1;
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit_def *d = ak_def(u);
        if (d->side != AK_AXIS || !d->captured_counter)
            continue;
        if (ak_on_board(s, u) && s->unit[u].hex == t)
            return;         /* captured there already */
        if (counter < 0 && s->unit[u].where == AK_AT_POOL)
            counter = u;
    }
    if (counter < 0)
        return;             /* every captured counter is in play */
    struct ak_unit *x = &s->unit[counter];
    *x = (struct ak_unit){0};
    x->where = AK_AT_BOARD;
    x->hex = x->start_hex = t;
    ak_event_add(ev, AK_EV_PLACED, AK_AXIS, counter, AK_UNIT_NONE, AK_HEX_NONE, t, 3, 0, 0);
}

int ak_updated_entries(const struct ak_state *s, int side, ak_hex *out, int max)
{
    const struct ak_updated_calendar *c = &ak_data()->updated;
    (void)s;
    int n = 0;
    for (int i = 0; i < c->nentries[side] && n < max; i++)
        out[n++] = c->entry[side][i];
    return n;
}

static bool is_entry(const struct ak_state *s, int side, ak_hex h)
{
    ak_hex e[4];
    int n = ak_updated_entries(s, side, e, 4);
    for (int i = 0; i < n; i++)
        if (e[i] == h)
            return true;
    return false;
}

static bool may_enter(const struct ak_state *s, int u, struct ak_reject *rej)
{
    const struct ak_unit_def *d = ak_def(u);
    const struct ak_scenario *sc = &ak_data()->scenario;
    if (d->type == AK_TYPE_SUPPLY) {
        if (d->captured_counter)
            return ak_reject(rej, "UPD-REINF", "a captured supply counter comes into play only by capture");
        if (s->supply_due == 0)
            return ak_reject(rej, "UPD-REINF", "no supply unit is due: they arrive on the first turn of each month%s",
                             d->side == AK_AXIS ? ", for the Axis on a successful convoy roll" : "");
        if (ak_own_supply_on_board(s, d->side) >= sc->supply_max[d->side])
            return ak_reject(rej, "LOGISTICS-QUOTA", "the %s player may have at most %d own supply units on board",
                             ak_side_name(d->side), sc->supply_max[d->side]);
        return true;
    }
    if (d->substitute)
        return ak_reject(rej, "ACTION", "%s is a substitute counter; it enters only by substitution", d->shortname);
    if (s->unit[u].marks & AK_MARK_IN_BOX)
        return true;        /* shipped back to the box: it may come out again */
    if (d->arrival_turn == 0 || s->turn < d->arrival_turn)
        return ak_reject(rej, "REINF-ORDER", "%s may enter no earlier than turn %d (%s)", d->shortname, d->arrival_turn,
                         sc->date[d->arrival_turn ? d->arrival_turn : 1]);
    return true;
}

/* MOVEMENT PHASE: "One unit per turn may be moved between any two
 * friendly controlled ports as its full movement for the turn"; PORTS 1:
 * "when a player controls Tobruk" the off-board box and Tobruch, control
 * judged when the unit sails (issue 32: a side that retakes Tobruch ships
 * into it that turn); Bengasi never; the Axis only from the turn after it
 * first takes Tobruch, the one delay the text gives (TOBRUK CAPTURE).
 * Combat units only. */
bool ak_updated_port_move(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                          struct ak_events *ev, struct ak_reject *rej)
{
    char h[8];
    ak_hex t = ak_map()->tobruch;
    int u = ak_arrival_unit(s, a, rej);
    if (u < 0)
        return false;
    const struct ak_unit_def *d = ak_def(u);
    struct ak_unit *x = &s->unit[u];
    if (s->flags & AK_SF_PORT_MOVED)
        return ak_reject(rej, "UPD-PORT", "one unit a player turn moves between ports; it has moved this turn");
    if (!ak_unit_is_combat(d))
        return ak_reject(rej, "UPD-PORT", "%s is not a combat unit", d->shortname);
    if (ak_control_now(s, AK_KEY_TOBRUCH) != s->side)
        return ak_reject(rej, "UPD-PORT", "no unit of yours is in Tobruch: you do not control it, so it is no port of yours");
    if (s->flags & AK_SF_TOBRUCH_FIRST)
        return ak_reject(rej, "UPD-PORT", "Tobruch was taken this turn, the first time: it is your port from your next turn (TOBRUK CAPTURE)");
    if (a->hex == AK_HEX_NONE) {        /* Tobruch to the box */
        if (!ak_on_board(s, u) || x->hex != t)
            return ak_reject(rej, "UPD-PORT", "%s is not in Tobruch", d->shortname);
        if ((x->flags & (AK_U_MOVED | AK_U_ARRIVED)) || x->start_hex != t)
            return ak_reject(rej, "UPD-PORT", "%s has moved this turn: the voyage is its whole move", d->shortname);
        ak_event_add(ev, AK_EV_EMBARKED, s->side, u, AK_UNIT_NONE, t, AK_HEX_NONE, 0, 0, 0);
        x->where = AK_AT_POOL;
        x->hex = x->start_hex = AK_HEX_NONE;
        x->flags = 0;
        x->marks = AK_MARK_IN_BOX;
    } else {                            /* the box to Tobruch */
        if (a->hex != t)
            return ak_reject(rej, "UPD-PORT", "%s is not a port: units sail only between your box and Tobruch%s",
                             ak_hex_format(a->hex, h), a->hex == ak_map()->bengasi ? " (Bengasi never acts as a port)" : "");
        if (x->where != AK_AT_POOL || !may_enter(s, u, NULL))
            return ak_reject(rej, "UPD-PORT", "%s is not in your off-board box", d->shortname);
        if (ak_enemy_combat_at(s, t, s->side))
            return ak_reject(rej, "MOVE-6", "Tobruch is held by the enemy");
        if (!ak_stack_room(r, s, t, s->side, (uint8_t[]){(uint8_t)u}, 1, rej))
            return false;
        ak_event_add(ev, AK_EV_PLACED, s->side, u, AK_UNIT_NONE, AK_HEX_NONE, t, 1, 0, 0);
        uint8_t reduced = x->reduced;
        *x = (struct ak_unit){0};
        x->where = AK_AT_BOARD;
        x->hex = x->start_hex = t;
        x->reduced = reduced;
        x->flags = AK_U_ARRIVED | AK_U_NO_MOVE;
    }
    s->flags |= AK_SF_PORT_MOVED;
    return true;
}

int ak_updated_pool_of(int u)
{
    /* REPLACEMENT PHASE: "Only armor units (NATO armor symbol) use armor
     * replacement points, all others ... infantry replacement points." */
    return ak_def(u)->type == AK_TYPE_ARMOR ? AK_POOL_ARMOR : AK_POOL_INFANTRY;
}

/* A whole unit from the dead pile costs its full attack factor (readings
 * A-10 (a), A-25 (a)). */
static bool may_return(const struct ak_state *s, int u, struct ak_reject *rej)
{
    const struct ak_unit_def *d = ak_def(u);
    int k = ak_updated_pool_of(u);
    if (!ak_unit_is_combat(d))
        return ak_reject(rej, "UPD-REPLACE", "%s is not a combat unit: replacement points bring back combat units", d->shortname);
    if (s->pool[s->side][k] < d->attack)
        return ak_reject(rej, "UPD-REPLACE", "%s costs %d %s replacement points; the pool holds %d", d->shortname,
                         d->attack, k == AK_POOL_ARMOR ? "armor" : "infantry", s->pool[s->side][k]);
    return true;
}

bool ak_updated_rebuild(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                        struct ak_events *ev, struct ak_reject *rej)
{
    (void)r;
    if (a->nunits != 1)
        return ak_reject(rej, "ACTION", "rebuild one unit at a time");
    int u = a->units[0], k = ak_updated_pool_of(u);
    const struct ak_unit_def *d = ak_def(u);
    struct ak_unit *x = &s->unit[u];
    if (d->side != s->side || !ak_on_board(s, u))
        return ak_reject(rej, "MOVE-1", "%s is not your unit on the board", d->shortname);
    if (!x->reduced)
        return ak_reject(rej, "UPD-REPLACE", "%s is at full strength", d->shortname);
    if (x->marks & AK_MARK_OOS)
        return ak_reject(rej, "UPD-REPLACE", "%s is out of supply: only units in supply take replacements", d->shortname);
    if (x->marks & AK_MARK_MECH_MOVED)
        return ak_reject(rej, "UPD-REPLACE", "%s moved in the mechanized movement phase: no replacements this turn",
                         d->shortname);
    int cost = d->attack - ak_reduced_factor(d->attack);
    if (s->pool[s->side][k] < cost)
        return ak_reject(rej, "UPD-REPLACE", "%s needs %d %s replacement points; the pool holds %d", d->shortname, cost,
                         k == AK_POOL_ARMOR ? "armor" : "infantry", s->pool[s->side][k]);
    s->pool[s->side][k] = (uint8_t)(s->pool[s->side][k] - cost);
    x->reduced = 0;
    ak_event_add(ev, AK_EV_REBUILT, s->side, u, AK_UNIT_NONE, x->hex, AK_HEX_NONE, cost, s->pool[s->side][k], 1 + k);
    return true;
}

bool ak_updated_place(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                      struct ak_events *ev, struct ak_reject *rej)
{
    char h[8], e[8];
    int u = ak_arrival_unit(s, a, rej);
    if (u < 0)
        return false;
    const struct ak_unit_def *d = ak_def(u);
    struct ak_unit *x = &s->unit[u];
    bool whole = x->where == AK_AT_DEAD;    /* a whole unit bought back (REPLACEMENT PHASE) */
    if (whole != (s->phase == AK_PHASE_REPLACEMENT))
        return ak_reject(rej, whole ? "UPD-REPLACE" : "UPD-REINF", whole ? "%s comes back from the dead pile only in the replacement phase"
                                                                          : "%s: new units enter in the movement phase",
                         d->shortname);
    if (!whole && x->where != AK_AT_POOL)
        return ak_reject(rej, "UPD-REINF", "%s is not waiting to enter (it is %s)", d->shortname,
                         x->where == AK_AT_BOARD ? "on the board" : "out of play");
    if (whole ? !may_return(s, u, rej) : !may_enter(s, u, rej))
        return false;
    if (a->hex == AK_HEX_NONE) {
        /* PORTS 2: "Whole units taken as replacements must be placed in
         * either their side's off board box or its 'To Tripoli', 'To
         * Alexandria' hex, at the owner's option": in the box it waits,
         * to leave by sea (port-move) or by land at the entry square. */
        if (!whole)
            return ak_reject(rej, "UPD-REINF", "%s: new units enter at the entry square; only a whole unit bought back "
                             "is placed in the off-board box", d->shortname);
        s->pool[s->side][ak_updated_pool_of(u)] = (uint8_t)(s->pool[s->side][ak_updated_pool_of(u)] - d->attack);
        ak_event_add(ev, AK_EV_PLACED, s->side, u, AK_UNIT_NONE, AK_HEX_NONE, AK_HEX_NONE, 4, 0, 0);
        *x = (struct ak_unit){0};
        x->where = AK_AT_POOL;
        x->hex = x->start_hex = AK_HEX_NONE;
        x->marks = AK_MARK_IN_BOX;
        return true;
    }
    if (!is_entry(s, s->side, a->hex)) {
        ak_hex first[4];
        ak_updated_entries(s, s->side, first, 4);
        return ak_reject(rej, "UPD-REINF", "%s is not an entry square: %s units enter at %s", ak_hex_format(a->hex, h),
                         ak_side_name(s->side), ak_hex_format(first[0], e));
    }
    if (ak_enemy_combat_at(s, a->hex, s->side))
        return ak_reject(rej, "MOVE-6", "%s is held by enemy combat units", ak_hex_format(a->hex, h));
    /* New units move away before the movement phase ends; a unit bought
     * back in the replacement phase stays where it is put. */
    if (whole && !ak_stack_room(r, s, a->hex, s->side, (uint8_t[]){(uint8_t)u}, 1, rej))
        return false;
    if (d->type == AK_TYPE_SUPPLY)
        s->supply_due--;
    if (whole)
        s->pool[s->side][ak_updated_pool_of(u)] = (uint8_t)(s->pool[s->side][ak_updated_pool_of(u)] - d->attack);
    ak_event_add(ev, AK_EV_PLACED, s->side, u, AK_UNIT_NONE, AK_HEX_NONE, a->hex, whole ? 2 : 0, 0, 0);
    *x = (struct ak_unit){0};
    x->where = AK_AT_BOARD;
    x->hex = x->start_hex = a->hex;
    x->flags = AK_U_ARRIVED;
    /* BOXES 3: an enemy box on the entry square goes, as on a move in */
    ak_updated_boxes_entered(s, s->side, &a->hex, 1, ev);
    return true;
}
