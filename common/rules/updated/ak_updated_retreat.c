/* ak_updated_retreat: retreats and the advance after combat in the
 * Updated ruleset (seed 003: the table's AR n and DR n, NEW ZOCS 3,
 * COMBAT PHASE; the 1964 COMBAT RESULTS, BACK 2 where the variant is
 * silent).
 *
 *   - The side that lost retreats its surviving units of the battle n
 *     squares, each step one square farther from where it stood; the
 *     winner routes them (1964 BACK 2), one stack at a time (`retreat`).
 *   - A route may not enter enemy units; it may cross enemy zones of
 *     control, but then the whole retreating force loses one more step
 *     (`losses`, chosen by its owner), and the winner must choose a route
 *     free of enemy zones where one exists. A friendly combat unit on a
 *     square negates the enemy zone there.
 *   - A unit with no route at all is eliminated.
 *   - Then the attackers, if the defenders' squares are empty, may advance
 *     one square into one of them (`advance`, or decline with none).
 *     Defenders never advance.
 *
 *   - Defenders in Tobruch or Bengasi told to retreat may stay instead by
 *     losing one more step (TERRAIN EFFECTS 2): their owner answers the
 *     offer with `losses` naming the step, or with no unit to retreat. */
#include <string.h>

#include "ak_capture.h"
#include "ak_combat.h"
#include "ak_stacking.h"
#include "ak_updated.h"
#include "ak_zoc.h"

#define RETREAT_MAX 9

static bool negated_zoc(const struct ak_state *s, ak_hex h, int side)
{
    return ak_in_enemy_zoc(s, h, side) && ak_combat_units_at(s, h, side) == 0;
}

static bool must_retreat(const struct ak_state *s, int u, int b)
{
    return ak_on_board(s, u) && s->unit[u].battle == b + 1 && (s->unit[u].flags & AK_U_MUST_RETREAT);
}

/* May a retreat step from `from` enter `to`, n steps from start? */
static bool step_open(const struct ak_state *s, int side, ak_hex start, ak_hex from, ak_hex to, int k)
{
    return ak_adjacent(from, to) && ak_enterable(to) && !ak_enemy_combat_at(s, to, side) &&
           ak_hex_distance(start, to) == k;
}

/* Is there a route of n steps for a unit of side from start; with
 * clean, one that crosses no enemy zone. */
static bool route_exists(const struct ak_state *s, int side, const uint8_t *units, int nunits, ak_hex start,
                         ak_hex from, int k, int n, bool clean)
{
    if (k == n)
        return ak_stack_room(ak_ruleset_get(s->ruleset), s, from, side, units, nunits, NULL);
    for (int d = 0; d < AK_DIRS; d++) {
        ak_hex to = ak_hex_neighbor(from, d);
        if (to == AK_HEX_NONE || !step_open(s, side, start, from, to, k + 1))
            continue;
        if (clean && negated_zoc(s, to, side))
            continue;
        if (route_exists(s, side, units, nunits, start, to, k + 1, n, clean))
            return true;
    }
    return false;
}

static bool fortress_defender(const struct ak_state *s, int u)
{
    return ak_def(u)->side != s->side && ak_map()->terrain[s->unit[u].hex] == AK_TERRAIN_FORTRESS;
}

/* TERRAIN EFFECTS 2: does some loser defend a fortress square? (The
 * attacker's retreat is never cancelled; defenders of the battle outside
 * the fortress retreat whatever the garrison does.) */
static bool in_fortress(const struct ak_state *s, int b, int loser)
{
    for (int u = 0; u < s->units; u++)
        if (ak_on_board(s, u) && s->unit[u].battle == b + 1 && ak_def(u)->side == loser && fortress_defender(s, u))
            return true;
    return false;
}

bool ak_updated_retreat_step(struct ak_state *s, int b, struct ak_events *ev)
{
    const struct ak_crt_effect *e = ak_updated_effect(s, b);
    if (!e)
        return false;
    int loser = e->defender.retreat ? !s->side : e->attacker.retreat ? s->side : -1;
    if (loser < 0)
        return false;
    int n = loser == s->side ? e->attacker.retreat : e->defender.retreat;
    if (n > RETREAT_MAX)
        n = RETREAT_MAX;
    if (in_fortress(s, b, loser)) {
        s->pending = (struct ak_pending){.kind = AK_PEND_LOSSES, .side = (uint8_t)loser, .battle = (uint8_t)b,
                                         .need = 1, .stage = s->pending.stage, .percent = AK_LOSS_CANCEL,
                                         .removed = s->pending.removed, .retreat = (uint8_t)n};
        return true;
    }
    return ak_updated_start_retreat(s, b, loser, n, false, ev);
}

/* Losers owing a retreat with no route left (another stack took the room)
 * are eliminated; true while some still owe one. */
static bool routes_left(struct ak_state *s, int b, int loser, int n, struct ak_events *ev)
{
    bool any = false;
    for (int u = 0; u < s->units; u++) {
        struct ak_unit *x = &s->unit[u];
        if (!ak_on_board(s, u) || x->battle != b + 1 || ak_def(u)->side != loser || !(x->flags & AK_U_MUST_RETREAT))
            continue;
        uint8_t one = (uint8_t)u;
        if (!route_exists(s, loser, &one, 1, x->hex, x->hex, 0, n, false)) {
            ak_eliminate(s, u, AK_ELIM_NO_RETREAT, ev);
            continue;
        }
        any = true;
    }
    return any;
}

bool ak_updated_start_retreat(struct ak_state *s, int b, int loser, int n, bool spare_fortress, struct ak_events *ev)
{
    for (int u = 0; u < s->units; u++)
        if (ak_on_board(s, u) && s->unit[u].battle == b + 1 && ak_def(u)->side == loser &&
            !(spare_fortress && fortress_defender(s, u)))
            s->unit[u].flags |= AK_U_MUST_RETREAT;
    if (!routes_left(s, b, loser, n, ev))
        return false;
    s->pending.kind = AK_PEND_RETREAT;
    s->pending.side = (uint8_t)!loser;
    s->pending.battle = (uint8_t)b;
    s->pending.retreat = (uint8_t)n;
    s->pending.need = 0;    /* 1 once a route crossed an enemy zone */
    return true;
}

bool ak_updated_retreat(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                        struct ak_events *ev, struct ak_reject *rej)
{
    char h[8];
    int b = s->pending.battle, n = s->pending.retreat, loser = !s->pending.side;
    if (a->nunits < 1)
        return ak_reject(rej, "ACTION", "name the units that retreat, and their route");
    ak_hex start = s->unit[a->units[0]].hex;
    for (int i = 0; i < a->nunits; i++) {
        int u = a->units[i];
        for (int j = 0; j < i; j++)
            if (a->units[j] == u)
                return ak_reject(rej, "ACTION", "%s is named twice", ak_def(u)->shortname);
        if (!must_retreat(s, u, b) || ak_def(u)->side != loser)
            return ak_reject(rej, "UPD-RETREAT", "%s does not owe a retreat in battle %d", ak_def(u)->shortname, b + 1);
        if (s->unit[u].hex != start)
            return ak_reject(rej, "STACK-4", "%s is not with %s: retreat one stack at a time", ak_def(u)->shortname,
                             ak_def(a->units[0])->shortname);
    }
    int npath = a->npath;
    const ak_hex *path = a->path;
    if (npath > 0 && path[0] == start) {
        path++;
        npath--;
    }
    if (npath != n)
        return ak_reject(rej, "UPD-RETREAT", "the retreat is %d squares, each one farther from %s", n,
                         ak_hex_format(start, h));
    bool crossed = false;
    ak_hex from = start;
    for (int k = 0; k < n; k++) {
        if (!step_open(s, loser, start, from, path[k], k + 1))
            return ak_reject(rej, "UPD-RETREAT", "%s is not a retreat square: each step goes one square farther from %s, onto no enemy unit",
                             ak_hex_format(path[k], h), ak_hex_format(start, (char[8]){0}));
        crossed |= negated_zoc(s, path[k], loser);
        from = path[k];
    }
    if (!ak_stack_room(r, s, from, loser, a->units, a->nunits, rej))
        return false;
    if (crossed && route_exists(s, loser, a->units, a->nunits, start, start, 0, n, true))
        return ak_reject(rej, "RETREAT", "a route free of enemy zones of control exists; the retreat must take one");
    for (int i = 0; i < a->nunits; i++) {
        struct ak_unit *x = &s->unit[a->units[i]];
        ak_event_add(ev, AK_EV_RETREATED, loser, a->units[i], AK_UNIT_NONE, start, from, n, 0, 0);
        x->hex = from;
        x->flags &= (uint8_t)~AK_U_MUST_RETREAT;
    }
    if (crossed)
        s->pending.need = 1;
    if (routes_left(s, b, loser, n, ev))
        return true;        /* other stacks still to route */
    s->pending.retreat = 0;
    if (s->pending.need) {
        /* NEW ZOCS 3: "the entire retreating force must lose 1 additional step" */
        s->pending.kind = AK_PEND_LOSSES;
        s->pending.side = (uint8_t)loser;
        s->pending.need = 1;
        s->pending.percent = AK_LOSS_STEP;
        return true;
    }
    s->pending.kind = AK_PEND_NONE;
    ak_updated_next_step(s, b, ev);
    return true;
}

/* The defenders' squares of battle b now empty of defenders. */
static int vacated(const struct ak_state *s, int b, ak_hex *out)
{
    int n = 0;
    const struct ak_battle *t = &s->battle[b];
    for (int i = 0; i < t->ndef_hex; i++)
        if (ak_combat_units_at(s, t->def_hex[i], !s->side) == 0 && !ak_enemy_combat_at(s, t->def_hex[i], !s->side))
            out[n++] = t->def_hex[i];
    return n;
}

bool ak_updated_advance_step(struct ak_state *s, int b, struct ak_events *ev)
{
    (void)ev;
    ak_hex squares[AK_BATTLE_HEXES];
    bool attackers = false;     /* that may advance: box builders stay where they are (BOXES 1) */
    for (int u = 0; u < s->units; u++)
        attackers |= ak_on_board(s, u) && s->unit[u].battle == b + 1 && ak_def(u)->side == s->side &&
                     !(s->unit[u].marks & AK_MARK_FORTIFIED);
    if (!attackers || vacated(s, b, squares) == 0)
        return false;
    s->pending.kind = AK_PEND_ADVANCE;
    s->pending.side = s->side;
    s->pending.battle = (uint8_t)b;
    return true;
}

bool ak_updated_advance(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                        struct ak_events *ev, struct ak_reject *rej)
{
    char h[8];
    int b = s->pending.battle;
    ak_hex squares[AK_BATTLE_HEXES];
    int n = vacated(s, b, squares);
    if (a->nunits > 0) {
        bool target = false;
        for (int i = 0; i < n; i++)
            target |= squares[i] == a->hex;
        if (!target)
            return ak_reject(rej, "UPD-ADVANCE", "%s is not a defenders' square of battle %d left empty",
                             ak_hex_format(a->hex, h), b + 1);
        for (int i = 0; i < a->nunits; i++) {
            int u = a->units[i];
            for (int j = 0; j < i; j++)
                if (a->units[j] == u)
                    return ak_reject(rej, "ACTION", "%s is named twice", ak_def(u)->shortname);
            if (!ak_on_board(s, u) || s->unit[u].battle != b + 1 || ak_def(u)->side != s->side ||
                !ak_adjacent(s->unit[u].hex, a->hex))
                return ak_reject(rej, "UPD-ADVANCE", "%s did not attack in battle %d from next to %s",
                                 ak_def(u)->shortname, b + 1, h);
        }
        if (!ak_stack_room(r, s, a->hex, s->side, a->units, a->nunits, rej))
            return false;
        for (int i = 0; i < a->nunits; i++) {
            struct ak_unit *x = &s->unit[a->units[i]];
            ak_event_add(ev, AK_EV_ADVANCED, s->side, a->units[i], AK_UNIT_NONE, x->hex, a->hex, 0, 0, 0);
            x->hex = a->hex;
        }
        ak_capture_around(s, s->side, a->hex, ev);
    }
    s->pending = (struct ak_pending){0};
    return true;
}
