/* ak_classic_turn: the 1964 sequence of play (HOW TO PLAY steps 1-5), the
 * ruleset's own steps beside the shared ones (core/ak_turn.c): the start
 * of a player turn (the reset, the key-squares win, isolation counted,
 * replacements earned, the supply table rolled), the end of a movement
 * portion (stacking, supply units' adjacency and sustaining checked, units
 * left at sea lost, ISOLATION 1's count of turns without a supply unit on
 * board, Rommel's isolation, supply not taken forfeited), destroying
 * supply, the end of the player turn (combat finished, isolation
 * eliminations) and what may be done now. The Updated variant has its own
 * (ak_updated_turn.c). */
#include "ak_classic.h"

#include <string.h>

#include "ak_battle.h"
#include "ak_capture.h"
#include "ak_combat.h"
#include "ak_logistics.h"
#include "ak_sustain.h"
#include "ak_turn.h"
#include "ak_stacking.h"
#include "ak_victory.h"
#include "ak_zoc.h"

/* ISOLATION 1: a side with no supply unit on board at the end of its
 * movement portion in two consecutive turns loses every unit on board
 * (Rommel, who cannot be eliminated, stays). False if the game ended. */
static bool supply_on_board_check(struct ak_state *s, struct ak_events *ev)
{
    int have = 0;
    for (int u = 0; u < s->units; u++)
        have += ak_def(u)->side == s->side && ak_def(u)->type == AK_TYPE_SUPPLY && ak_on_board(s, u);
    s->no_supply_turns[s->side] = have ? 0 : (uint8_t)(s->no_supply_turns[s->side] + 1);
    if (s->no_supply_turns[s->side] < 2)
        return true;
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == s->side && ak_on_board(s, u) && ak_def(u)->type != AK_TYPE_HEADQUARTERS)
            ak_eliminate(s, u, AK_ELIM_NO_SUPPLY, ev);
    return !ak_victory_by_elimination(s, ev);
}

bool ak_turn_end_movement(const struct ak_ruleset *r, struct ak_state *s,
                          const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej)
{
    (void)a;
    if (!ak_turn_stacking_ok(r, s, s->side, rej) || !ak_logistics_adjacency_ok(s, s->side, rej) ||
        !ak_sustain_portion_may_end(s, rej))
        return false;
    for (int u = 0; u < s->units; u++) {
        struct ak_unit *x = &s->unit[u];
        /* FORTRESSES 4: units cannot remain at sea. */
        if (x->where == AK_AT_SEA && ak_def(u)->side == s->side && x->sea_turn < s->turn) {
            x->where = AK_AT_DEAD;
            ak_event_add(ev, AK_EV_LOST_AT_SEA, s->side, u, AK_UNIT_NONE, x->hex, AK_HEX_NONE, 0, 0, 0);
            x->hex = AK_HEX_NONE;
        }
    }
    if (!supply_on_board_check(s, ev))
        return true;
    ak_rommel_isolation(s, s->side, ev);
    if (s->supply_due) {
        /* LOGISTICS, MOVEMENT 6: supply not taken cannot be accumulated. */
        ak_event_add(ev, AK_EV_SUPPLY_UNUSED, s->side, AK_UNIT_NONE, AK_UNIT_NONE, AK_HEX_NONE,
                     AK_HEX_NONE, s->supply_due, 0, 0);
        s->supply_due = 0;
    }
    s->phase = AK_PHASE_COMBAT;
    ak_event_add(ev, AK_EV_PHASE, s->side, AK_UNIT_NONE, AK_UNIT_NONE, AK_HEX_NONE, AK_HEX_NONE,
                 AK_PHASE_COMBAT, 0, 0);
    return true;
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

/* ISOLATION: a unit encircled at the start of its player turn (no supply
 * line, no way to its home base: ak_isolation_map) is isolated for that
 * turn (and cannot attack: ISOLATION 2); isolated at the start of two
 * consecutive own turns and still at the end of the second, it is
 * eliminated. A supply line or a way out resets the count. */
static void isolation_start(struct ak_state *s, struct ak_events *ev)
{
    static uint8_t line[AK_HEX_COUNT];
    ak_isolation_map(s, s->side, line);
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

void ak_turn_start(struct ak_state *s, struct ak_events *ev)
{
    ak_turn_reset(s, ev);
    if (ak_victory_by_key_squares(s, ev))
        return;
    isolation_start(s, ev);
    earn_replacements(s, ev);
    roll_supply(s, ev);
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

static void isolation_end(struct ak_state *s, struct ak_events *ev)
{
    static uint8_t line[AK_HEX_COUNT];
    bool any = false;
    for (int u = 0; u < s->units && !any; u++)
        any = ak_def(u)->side == s->side && s->unit[u].isolated;
    if (!any)
        return;
    ak_isolation_map(s, s->side, line);
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
