/* ak_updated_turn: the Updated ruleset's sequence of play (seed 003,
 * SEQUENCE): reinforcement, movement, combat, mechanized movement,
 * supply and replacement phases in each player turn.
 *
 * The reinforcement phase has no player decision of its own and is
 * carried out as the player turn starts: on the first turn of each month
 * the replacement points of the schedule (common/data/updated-1941.txt)
 * and the supply units due, the Allies one without rolling, the Axis by
 * the 1964 supply table with +1 after a month-start turn without one, in
 * April to November 1941 (readings in docs/rules-notes.md).
 * Each later phase ends by the player's action: end_movement, end_phase
 * (combat, mechanized movement, supply) and end_turn (replacement). */
#include "ak_updated.h"

#include "ak_turn.h"
#include "ak_victory.h"

static void add_points(struct ak_state *s, struct ak_events *ev)
{
    const uint8_t *due = ak_data()->updated.points[s->turn][s->side];
    for (int k = 0; k < AK_POOLS; k++) {
        if (!due[k])
            continue;
        int total = s->pool[s->side][k] + due[k];
        s->pool[s->side][k] = (uint8_t)(total > 255 ? 255 : total);
        ak_event_add(ev, AK_EV_REPLACEMENTS, s->side, AK_UNIT_NONE, AK_UNIT_NONE, AK_HEX_NONE, AK_HEX_NONE,
                     due[k], s->pool[s->side][k], 1 + k);
    }
}

/* REINFORCEMENT PHASE: "Supply units arrive only on the first turn of
 * each month, automatically for the Allies but only on a successful
 * convoy roll for the Axis." */
static void supply_arrival(struct ak_state *s, struct ak_events *ev)
{
    const struct ak_data *d = ak_data();
    s->supply_roll = 0;
    s->supply_due = 0;
    if (!d->updated.month_start[s->turn])
        return;
    if (s->side == AK_ALLIED) {
        s->supply_due = 1;
        return;
    }
    int roll = ak_rng_die(&s->rng);
    /* The first turn has no month-start turn before it. */
    int drm = (s->flags & AK_SF_AXIS_SUPPLY_MISSED) && s->turn > 1 && s->turn >= d->updated.convoy_drm_first &&
              s->turn <= d->updated.convoy_drm_last;
    int modified = roll + drm;
    bool sunk = modified <= 6 && (d->scenario.sunk[s->turn] & (1u << modified));
    s->supply_roll = (uint8_t)roll;
    s->supply_due = !sunk;
    s->flags = (uint8_t)(sunk ? s->flags | AK_SF_AXIS_SUPPLY_MISSED : s->flags & ~AK_SF_AXIS_SUPPLY_MISSED);
    int before = ev ? ev->n : 0;
    ak_event_add(ev, AK_EV_SUPPLY_ROLL, AK_AXIS, AK_UNIT_NONE, AK_UNIT_NONE, AK_HEX_NONE, AK_HEX_NONE, roll, sunk,
                 s->turn);
    if (ev && ev->n > before)       /* not when the list was full */
        ak_event_last(ev)->d = (int16_t)drm;
}

void ak_updated_turn_start(struct ak_state *s, struct ak_events *ev)
{
    ak_turn_reset(s, ev);
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == s->side)
            s->unit[u].marks &= (uint8_t)~(AK_MARK_MECH_MOVED | AK_MARK_FORTIFIED);
    s->flags &= (uint8_t)~(AK_SF_FORTIFIED | AK_SF_PORT_MOVED | AK_SF_TOBRUCH_FIRST);   /* once a player turn each */
    if (ak_victory_by_key_squares(s, ev))
        return;
    if (ak_data()->updated.month_start[s->turn])
        add_points(s, ev);
    supply_arrival(s, ev);
}

unsigned ak_updated_possible_actions(const struct ak_state *s)
{
    switch (s->phase) {
    case AK_PHASE_MOVEMENT: {
        const struct ak_scenario *sc = &ak_data()->scenario;
        unsigned m = 1u << AK_ACT_MOVE | 1u << AK_ACT_PLACE | 1u << AK_ACT_FORTIFY | 1u << AK_ACT_PORT_MOVE |
                     1u << AK_ACT_END_MOVEMENT;
        if (s->side == AK_ALLIED && sc->substitute_from && s->turn >= sc->substitute_from)
            m |= 1u << AK_ACT_SUBSTITUTE;   /* ALLIED SUBSTITUTE COUNTERS, kept (A-27 (v)) */
        return m;
    }
    case AK_PHASE_COMBAT: {
        static const uint8_t decision[] = {
            [AK_PEND_RETREAT] = AK_ACT_RETREAT, [AK_PEND_ADVANCE] = AK_ACT_ADVANCE, [AK_PEND_LOSSES] = AK_ACT_LOSSES,
        };
        if (s->pending.kind)
            return s->pending.kind < sizeof decision ? 1u << decision[s->pending.kind] : 0;
        return 1u << AK_ACT_SUPPLY_ATTACKS | 1u << AK_ACT_BATTLE | 1u << AK_ACT_RESOLVE | 1u << AK_ACT_END_PHASE;
    }
    case AK_PHASE_SUPPLY:
        if (s->pending.kind == AK_PEND_LOSSES)
            return 1u << AK_ACT_LOSSES;     /* an attrition loss */
        return 1u << AK_ACT_BURN_SUPPLY | 1u << AK_ACT_BREAK_OUT | 1u << AK_ACT_END_PHASE;
    case AK_PHASE_MECH:
        return 1u << AK_ACT_MOVE | 1u << AK_ACT_END_PHASE;
    case AK_PHASE_REPLACEMENT:
        return 1u << AK_ACT_REBUILD | 1u << AK_ACT_PLACE | 1u << AK_ACT_END_TURN;
    default:
        return 0;
    }
}

void ak_updated_begin_phase(struct ak_state *s, int phase, struct ak_events *ev)
{
    s->phase = (uint8_t)phase;
    ak_event_add(ev, AK_EV_PHASE, s->side, AK_UNIT_NONE, AK_UNIT_NONE, AK_HEX_NONE, AK_HEX_NONE, phase, 0, 0);
}

bool ak_updated_end_movement(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                             struct ak_events *ev, struct ak_reject *rej)
{
    (void)a;
    if (!ak_turn_stacking_ok(r, s, s->side, rej))
        return false;
    if (s->supply_due) {
        /* A supply unit due and not placed is not kept for later
         * (reading: the 1964 LOGISTICS, MOVEMENT 6 stands). */
        ak_event_add(ev, AK_EV_SUPPLY_UNUSED, s->side, AK_UNIT_NONE, AK_UNIT_NONE, AK_HEX_NONE, AK_HEX_NONE,
                     s->supply_due, 0, 0);
        s->supply_due = 0;
    }
    ak_updated_begin_phase(s, AK_PHASE_COMBAT, ev);
    return true;
}

/* The combat phase is over: its battles, attack supply and bombardment
 * are spent. */
static void end_combat(struct ak_state *s)
{
    for (int u = 0; u < s->units; u++)
        s->unit[u].battle = 0;
    s->nbattles = 0;
    s->combat_locked = 0;
    s->nattack_supply = 0;
    s->flags &= (uint8_t)~AK_SF_BOMBARDED;
}

/* MECH PHASE: the mechanized units move again on a fresh half allowance
 * (ak_move_points.c), so what they spent before is set aside. */
static void begin_mech_phase(struct ak_state *s, struct ak_events *ev)
{
    for (int u = 0; u < s->units; u++) {
        struct ak_unit *x = &s->unit[u];
        if (ak_def(u)->side != s->side)
            continue;
        x->mp_spent = x->rommel_spent = 0;
        x->flags &= (uint8_t)~AK_U_HALTED;
        /* box builders stay marked: stationary for the whole player turn
         * (BOXES 1, issue 32), so the mechanized phase does not move them */
    }
    ak_updated_begin_phase(s, AK_PHASE_MECH, ev);
}

bool ak_updated_end_phase(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                          struct ak_events *ev, struct ak_reject *rej)
{
    (void)r;
    (void)a;
    switch (s->phase) {
    case AK_PHASE_COMBAT:
        for (int b = 0; b < s->nbattles; b++)
            if (!s->battle[b].resolved)
                return ak_reject(rej, "ATTACKING-4", "battle %d is declared but not fought; resolve it first", b + 1);
        end_combat(s);
        begin_mech_phase(s, ev);
        return true;
    case AK_PHASE_MECH:
        ak_updated_begin_phase(s, AK_PHASE_SUPPLY, ev);
        ak_updated_boxes_supply_phase(s, ev);
        ak_updated_supply_phase(s, ev);
        return true;
    default:
        ak_updated_attrition(s, -1, ev);    /* then the replacement phase */
        return true;
    }
}

bool ak_updated_end_turn(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                         struct ak_events *ev, struct ak_reject *rej)
{
    (void)a;
    (void)rej;
    ak_turn_pass(r, s, ev);
    return true;
}
