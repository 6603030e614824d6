/* ak_turn: start and end of player turns, the supply table roll. */
#include "ak_turn.h"

#include <string.h>

#include "ak_battle.h"
#include "ak_capture.h"
#include "ak_combat.h"
#include "ak_logistics.h"
#include "ak_stacking.h"
#include "ak_victory.h"
#include "ak_zoc.h"

int ak_control_now(const struct ak_state *s, int key)
{
    ak_hex h = ak_key_hex(key);
    for (int side = 0; side < AK_SIDES; side++) {
        if (!ak_side_occupies(s, h, side))
            continue;
        /* CONTROL: a home base must also be out of enemy zones of control. */
        if ((key == AK_KEY_AXIS_BASE || key == AK_KEY_ALLIED_BASE) && ak_in_enemy_zoc(s, h, side))
            return AK_NOBODY;
        return side;
    }
    return AK_NOBODY;
}

bool ak_tobruch_besieged(const struct ak_state *s, int side)
{
    ak_hex t = ak_map()->tobruch;
    for (int u = 0; u < s->units; u++)
        if (s->unit[u].where == AK_AT_BOARD && ak_def(u)->side != side &&
            ak_unit_is_combat(ak_def(u)) && ak_adjacent(s->unit[u].hex, t))
            return true;
    return false;
}

static void roll_supply(struct ak_state *s, struct ak_events *ev)
{
    const struct ak_scenario *sc = &ak_data()->scenario;
    if (s->side == AK_ALLIED) {
        s->supply_due = (uint8_t)sc->supply_per_turn[AK_ALLIED];
        s->supply_roll = 0;
        return;
    }
    /* SUPPLY TABLE: one die at the start of each German turn. */
    int roll = ak_rng_die(&s->rng);
    bool sunk = sc->sunk[s->turn] & (1u << roll);
    s->supply_roll = (uint8_t)roll;
    s->supply_due = sunk ? 0 : 1;
    ak_event_add(ev, AK_EV_SUPPLY_ROLL, AK_AXIS, AK_UNIT_NONE, AK_UNIT_NONE, AK_HEX_NONE,
                 AK_HEX_NONE, roll, sunk, s->turn);
}

/* REPLACEMENTS: from March 1942, attack factors for the home base and
 * Tobruch held at the start of the turn; they accumulate and are kept. */
static void earn_replacements(struct ak_state *s, struct ak_events *ev)
{
    const struct ak_scenario *sc = &ak_data()->scenario;
    if (sc->replace_from == 0 || s->turn < sc->replace_from)
        return;
    int base = s->side == AK_AXIS ? AK_KEY_AXIS_BASE : AK_KEY_ALLIED_BASE;
    int earned = (s->control[base] == s->side ? sc->replace_rate[s->side][0] : 0) +
                 (s->control[AK_KEY_TOBRUCH] == s->side ? sc->replace_rate[s->side][1] : 0);
    if (earned == 0)
        return;
    int total = s->replacement[s->side] + earned;
    s->replacement[s->side] = (uint8_t)(total > 255 ? 255 : total);
    ak_event_add(ev, AK_EV_REPLACEMENTS, s->side, AK_UNIT_NONE, AK_UNIT_NONE, AK_HEX_NONE,
                 AK_HEX_NONE, earned, s->replacement[s->side], 0);
}

/* ISOLATION: a unit without a supply line at the start of its player turn
 * is isolated for that turn (and cannot attack: ISOLATION 2); isolated at
 * the start of two consecutive own turns and still at the end of the
 * second, it is eliminated. Creating a supply line resets the count. */
static void isolation_start(struct ak_state *s, struct ak_events *ev)
{
    static uint8_t line[AK_HEX_COUNT];
    ak_supply_lines(s, s->side, line);
    for (int u = 0; u < s->units; u++) {
        struct ak_unit *x = &s->unit[u];
        if (ak_def(u)->side != s->side || !ak_unit_is_combat(ak_def(u)))
            continue;
        if (!ak_isolated(s, u, line)) {
            x->isolated = 0;
            continue;
        }
        x->isolated = (uint8_t)(x->isolated < 2 ? x->isolated + 1 : 2);
        ak_event_add(ev, AK_EV_ISOLATED, s->side, u, AK_UNIT_NONE, x->hex, AK_HEX_NONE,
                     x->isolated, 0, 0);
    }
}

void ak_turn_reset(struct ak_state *s, struct ak_events *ev)
{
    for (int k = 0; k < AK_KEYS; k++)
        s->control[k] = (uint8_t)ak_control_now(s, k);
    for (int u = 0; u < s->units; u++) {
        struct ak_unit *x = &s->unit[u];
        x->mp_spent = x->road_spent = x->rommel_spent = 0;
        x->flags = 0;
        x->battle = 0;
        x->start_hex = x->where == AK_AT_BOARD ? x->hex : AK_HEX_NONE;
    }
    s->nbattles = 0;
    s->combat_locked = 0;
    memset(&s->pending, 0, sizeof s->pending);
    ak_event_add(ev, AK_EV_TURN, s->side, AK_UNIT_NONE, AK_UNIT_NONE, AK_HEX_NONE,
                 AK_HEX_NONE, s->turn, 0, 0);
}

void ak_turn_start(struct ak_state *s, struct ak_events *ev)
{
    ak_turn_reset(s, ev);
    if (ak_victory_by_key_squares(s, ev))
        return;
    isolation_start(s, ev);
    earn_replacements(s, ev);
    roll_supply(s, ev);
}

bool ak_turn_stacking_ok(const struct ak_ruleset *r, const struct ak_state *s, int side,
                         struct ak_reject *rej)
{
    char a[8];
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit *x = &s->unit[u];
        if (x->where == AK_AT_BOARD && ak_def(u)->side == side &&
            !ak_stack_room(r, s, x->hex, side, NULL, 0, NULL)) {
            int limit = ak_stack_limit(r, s, x->hex, side, NULL, 0);
            return ak_reject(rej, limit < r->stack_limit ? "UPD-STACK" : "STACK-1",
                             "%s holds %d combat units; move some away before ending the movement portion (the limit is %d%s)",
                             ak_hex_format(x->hex, a), ak_combat_units_at(s, x->hex, side), limit,
                             limit < r->stack_limit ? " with an Italian division there" : "");
        }
    }
    return true;
}

bool ak_turn_destroy_supply(const struct ak_ruleset *r, struct ak_state *s,
                            const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej)
{
    (void)r;
    for (int i = 0; i < a->nunits; i++) {
        int u = a->units[i];
        const struct ak_unit *x = &s->unit[u];
        if (u >= s->units || ak_def(u)->side != s->side || ak_def(u)->type != AK_TYPE_SUPPLY ||
            x->where != AK_AT_BOARD)
            return ak_reject(rej, "CAPTURE-8", "%s is not one of your supply units on board",
                             u < s->units ? ak_def(u)->shortname : "?");
        bool danger = false;
        for (int e = 0; e < s->units && !danger; e++)
            danger = ak_def(e)->side != s->side && ak_on_board(s, e) &&
                     ak_unit_is_combat(ak_def(e)) &&
                     ak_hex_distance(s->unit[e].hex, x->hex) <= ak_def(e)->movement + 1;
        if (!danger)
            return ak_reject(rej, "CAPTURE-8", "%s is in no danger of capture: no enemy combat unit can reach it",
                             ak_def(u)->shortname);
    }
    for (int i = 0; i < a->nunits; i++) {
        struct ak_unit *x = &s->unit[a->units[i]];
        ak_event_add(ev, AK_EV_SUPPLY_DESTROYED, s->side, a->units[i], AK_UNIT_NONE, x->hex,
                     AK_HEX_NONE, 0, 0, 0);
        x->where = AK_AT_POOL;
        x->hex = x->start_hex = AK_HEX_NONE;
    }
    return true;
}

/* REINFORCEMENTS 7: units not in play by the last October 1942 turn are
 * eliminated. A unit the Updated ruleset keeps in its side's off-board box
 * (shipped there or bought back into it) is in play. */
static void lose_late_reinforcements(struct ak_state *s, int side, struct ak_events *ev)
{
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit_def *d = ak_def(u);
        if (d->side == side && d->arrival_turn > 0 && s->unit[u].where == AK_AT_POOL &&
            !(s->unit[u].marks & AK_MARK_IN_BOX)) {
            s->unit[u].where = AK_AT_DEAD;
            ak_event_add(ev, AK_EV_NEVER_ARRIVED, side, u, AK_UNIT_NONE, AK_HEX_NONE,
                         AK_HEX_NONE, 0, 0, 0);
        }
    }
}

static void isolation_end(struct ak_state *s, struct ak_events *ev)
{
    static uint8_t line[AK_HEX_COUNT];
    bool any = false;
    for (int u = 0; u < s->units && !any; u++)
        any = ak_def(u)->side == s->side && s->unit[u].isolated;
    if (!any)
        return;
    ak_supply_lines(s, s->side, line);
    for (int u = 0; u < s->units; u++) {
        struct ak_unit *x = &s->unit[u];
        if (ak_def(u)->side != s->side || !x->isolated)
            continue;
        if (!ak_isolated(s, u, line))
            x->isolated = 0;
        else if (x->isolated >= 2)
            ak_eliminate(s, u, AK_ELIM_ISOLATED, ev);
    }
}

static bool combat_done(const struct ak_state *s, struct ak_reject *rej)
{
    for (int b = 0; b < s->nbattles; b++)
        if (!s->battle[b].resolved)
            return ak_reject(rej, "ATTACKING-4", "battle %d is declared but not fought; resolve it (or cancel it before combat starts)",
                             b + 1);
    return s->combat_locked || ak_combat_obligations_met(s, rej);
}

bool ak_turn_end(const struct ak_ruleset *r, struct ak_state *s,
                 const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej)
{
    (void)a;
    if (!combat_done(s, rej))
        return false;
    ak_combat_finish(s, ev);
    isolation_end(s, ev);
    ak_turn_pass(r, s, ev);
    return true;
}

void ak_turn_pass(const struct ak_ruleset *r, struct ak_state *s, struct ak_events *ev)
{
    if (ak_victory_by_elimination(s, ev))
        return;
    if (s->turn == ak_data()->scenario.turns)
        lose_late_reinforcements(s, s->side, ev);
    if (s->side == AK_AXIS) {
        s->side = AK_ALLIED;
    } else if (s->turn == ak_data()->scenario.turns) {
        /* HOW TO WIN: the Allied player wins by avoiding the German
         * conditions of victory by his last October 1942 turn. */
        ak_victory_declare(s, AK_ALLIED, AK_WIN_DENIAL, ev);
        return;
    } else {
        s->side = AK_AXIS;
        s->turn++;
    }
    s->phase = AK_PHASE_MOVEMENT;
    r->start_player_turn(s, ev);
}

/* The 1964 sequence: a movement portion, then a combat portion whose
 * owed decisions come first. */
unsigned ak_turn_possible_actions(const struct ak_state *s)
{
    const struct ak_scenario *sc = &ak_data()->scenario;
    static const uint8_t decision[] = {
        [AK_PEND_RETREAT] = AK_ACT_RETREAT,
        [AK_PEND_EXCHANGE] = AK_ACT_EXCHANGE,
        [AK_PEND_ADVANCE] = AK_ACT_ADVANCE,
    };
    unsigned m = 0;
    switch (s->phase) {
    case AK_PHASE_MOVEMENT:
        m = 1u << AK_ACT_MOVE | 1u << AK_ACT_PLACE | 1u << AK_ACT_EMBARK |
            1u << AK_ACT_END_MOVEMENT;
        if (s->side == AK_ALLIED && sc->substitute_from && s->turn >= sc->substitute_from)
            m |= 1u << AK_ACT_SUBSTITUTE;
        return m;
    case AK_PHASE_COMBAT:
        if (s->pending.kind)
            return 1u << decision[s->pending.kind];
        m = 1u << AK_ACT_RESOLVE | 1u << AK_ACT_DESTROY_SUPPLY | 1u << AK_ACT_END_TURN;
        if (!s->combat_locked)
            m |= 1u << AK_ACT_BATTLE | 1u << AK_ACT_CANCEL | 1u << AK_ACT_ABANDON;
        return m;
    default:
        return 0;
    }
}
