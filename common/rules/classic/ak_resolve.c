/* ak_resolve: fighting a declared battle and carrying out its result.
 *
 * COMBAT RESULTS: ELIM removes the losers; BACK 2 retreats them two squares
 * by routes the winner picks among the unblocked ones (a unit with none is
 * eliminated, a unit in a fortress too: FORTRESSES 5); EXCHANGE removes the
 * side with fewer defense factors and as many attack factors of the other.
 * Then captures in an emptied fortress (CAPTURE 7), advance after combat into a vacated
 * escarpment or fortress (MOVEMENT AFTER BATTLE), and the elimination win.
 */
#include <stdio.h>
#include <string.h>

#include "ak_battle.h"
#include "ak_capture.h"
#include "ak_classic.h"
#include "ak_combat.h"
#include "ak_stacking.h"
#include "ak_victory.h"
#include "ak_zoc.h"

#define ROUTES_MAX AK_RETREAT_ROUTES_MAX

static bool in_battle(const struct ak_state *s, int u, int b, int side)
{
    return ak_on_board(s, u) && s->unit[u].battle == b + 1 && ak_def(u)->side == side;
}

/* The two-square retreats open to unit u: no enemy units or enemy zones on
 * the way, playable terrain, never the same square twice nor back to the
 * start, and room under the stacking limit at the end. */
int ak_retreat_routes(const struct ak_state *s, int u, struct ak_route *out)
{
    const struct ak_ruleset *r = ak_ruleset_get(s->ruleset);
    int side = ak_def(u)->side, n = 0;
    ak_hex h0 = s->unit[u].hex;
    for (int d1 = 0; d1 < AK_DIRS; d1++) {
        ak_hex h1 = ak_hex_neighbor(h0, d1);
        if (h1 == AK_HEX_NONE || !ak_adjacent(h0, h1) || !ak_enterable(h1) ||
            ak_enemy_combat_at(s, h1, side) || ak_in_enemy_zoc(s, h1, side))
            continue;
        for (int d2 = 0; d2 < AK_DIRS; d2++) {
            ak_hex h2 = ak_hex_neighbor(h1, d2);
            if (h2 == AK_HEX_NONE || h2 == h0 || !ak_adjacent(h1, h2) || !ak_enterable(h2) ||
                ak_enemy_combat_at(s, h2, side) || ak_in_enemy_zoc(s, h2, side) ||
                !ak_stack_room(r, s, h2, side, &(uint8_t){(uint8_t)u}, 1, NULL))
                continue;
            out[n++] = (struct ak_route){{h1, h2}};
        }
    }
    return n;
}

static void retreat_along(struct ak_state *s, int u, const struct ak_route *rt, struct ak_events *ev)
{
    struct ak_unit *x = &s->unit[u];
    ak_event_add(ev, AK_EV_RETREATED, ak_def(u)->side, u, AK_UNIT_NONE, x->hex, rt->step[1], 0, 0, 0);
    x->hex = rt->step[1];
    x->flags &= (uint8_t)~AK_U_MUST_RETREAT;
}

static void finish_battle(struct ak_state *s, struct ak_events *ev)
{
    memset(&s->pending, 0, sizeof s->pending);
    ak_victory_by_elimination(s, ev);
}

/* Vacated escarpment or fortress squares the attackers may advance onto. */
static int advance_targets(const struct ak_state *s, int b, ak_hex *out)
{
    const struct ak_battle *t = &s->battle[b];
    int n = 0;
    for (int i = 0; i < t->ndef_hex; i++) {
        ak_hex h = t->def_hex[i];
        int terrain = ak_map()->terrain[h];
        if ((terrain == AK_TERRAIN_ESCARPMENT || terrain == AK_TERRAIN_FORTRESS) &&
            !ak_side_occupies(s, h, !s->side))
            out[n++] = h;
    }
    return n;
}

static void after_battle(struct ak_state *s, int b, struct ak_events *ev)
{
    ak_hex targets[AK_BATTLE_HEXES];
    bool survivors = false;
    /* Supply in a fortress falls once its garrison is gone (CAPTURE 7). */
    for (int u = 0; u < s->units; u++)
        if (in_battle(s, u, b, s->side)) {
            survivors = true;
            ak_capture_around(s, s->side, s->unit[u].hex, ev);
        }
    if (survivors && advance_targets(s, b, targets) > 0) {
        s->pending = (struct ak_pending){.kind = AK_PEND_ADVANCE, .side = s->side, .battle = (uint8_t)b};
        return;
    }
    finish_battle(s, ev);
}

/* Carry out every retreat that leaves the winner no choice; what is left
 * becomes the winner's decision. */
static void settle_retreats(struct ak_state *s, int b, int loser,
                            struct ak_events *ev)
{
    struct ak_route routes[ROUTES_MAX];
    bool changed = true, owed = false;
    while (changed) {
        changed = owed = false;
        for (int u = 0; u < s->units; u++) {
            if (!(s->unit[u].flags & AK_U_MUST_RETREAT) || !in_battle(s, u, b, loser))
                continue;
            int n = ak_retreat_routes(s, u, routes);
            if (n == 0)
                ak_eliminate(s, u, AK_ELIM_NO_RETREAT, ev);
            else if (n == 1)
                retreat_along(s, u, &routes[0], ev);
            else
                owed = true;
            changed = changed || n < 2;
        }
    }
    if (owed) {
        s->pending = (struct ak_pending){.kind = AK_PEND_RETREAT, .side = (uint8_t)!loser, .battle = (uint8_t)b};
        return;
    }
    after_battle(s, b, ev);
}

static void start_retreat(struct ak_state *s, int b, int loser,
                          struct ak_events *ev)
{
    for (int u = 0; u < s->units; u++) {
        if (!in_battle(s, u, b, loser))
            continue;
        if (ak_map()->terrain[s->unit[u].hex] == AK_TERRAIN_FORTRESS)
            ak_eliminate(s, u, AK_ELIM_FORTRESS, ev);
        else
            s->unit[u].flags |= AK_U_MUST_RETREAT;
    }
    settle_retreats(s, b, loser, ev);
}

static void eliminate_side(struct ak_state *s, int b, int side, int reason, struct ak_events *ev)
{
    for (int u = 0; u < s->units; u++)
        if (in_battle(s, u, b, side))
            ak_eliminate(s, u, reason, ev);
}

/* EXCHANGE: defense factors at terrain value for the defenders; the
 * attackers are not defending, so theirs count at basic value. */
static void start_exchange(struct ak_state *s, int b, struct ak_events *ev)
{
    int def_factors[AK_SIDES] = {0, 0}, attack_total[AK_SIDES] = {0, 0};
    int smallest[AK_SIDES] = {255, 255};
    for (int u = 0; u < s->units; u++) {
        if (!ak_on_board(s, u) || s->unit[u].battle != b + 1)
            continue;
        int side = ak_def(u)->side;
        def_factors[side] += side == s->side ? ak_def(u)->defense : ak_defense_now(s, u);
        attack_total[side] += ak_def(u)->attack;
        if (ak_def(u)->attack < smallest[side])
            smallest[side] = ak_def(u)->attack;
    }
    int att = s->side, def = !s->side;
    if (def_factors[att] == def_factors[def]) {
        eliminate_side(s, b, att, AK_ELIM_EXCHANGE, ev);
        eliminate_side(s, b, def, AK_ELIM_EXCHANGE, ev);
        after_battle(s, b, ev);
        return;
    }
    int loser = def_factors[att] < def_factors[def] ? att : def, other = !loser;
    int need = def_factors[loser];
    eliminate_side(s, b, loser, AK_ELIM_EXCHANGE, ev);
    if (attack_total[other] - smallest[other] < need) {
        eliminate_side(s, b, other, AK_ELIM_EXCHANGE, ev);
        after_battle(s, b, ev);
        return;
    }
    s->pending = (struct ak_pending){.kind = AK_PEND_EXCHANGE, .side = (uint8_t)other, .battle = (uint8_t)b, .need = (uint8_t)need};
}

bool ak_combat_resolve(const struct ak_ruleset *r, struct ak_state *s,
                       const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej)
{
    (void)r;
    int b = a->battle;
    struct ak_battle *t = ak_combat_unfought(s, a, "MULTI-9", rej);
    if (!t)
        return false;
    if (!s->combat_locked && !ak_combat_obligations_met(s, rej))
        return false;
    s->combat_locked = 1;
    t->resolved = 1;
    t->roll = t->column == AK_ODDS_AUTO ? 0 : (uint8_t)ak_rng_die(&s->rng);
    t->result = t->column == AK_ODDS_AUTO ? AK_CRT_DE : ak_data()->crt.result[t->roll - 1][t->column];
    int first = -1;
    for (int u = 0; u < s->units && first < 0; u++)
        if (in_battle(s, u, b, !s->side))
            first = u;
    ak_event_add(ev, AK_EV_BATTLE_RESOLVED, s->side, AK_UNIT_NONE,
                 first < 0 ? AK_UNIT_NONE : first, AK_HEX_NONE, t->def_hex[0], b + 1, t->roll,
                 t->result);
    struct ak_event *e = ak_event_last(ev);
    if (e)
        e->d = t->column;
    switch (t->result) {
    case AK_CRT_DE:
        eliminate_side(s, b, !s->side, AK_ELIM_COMBAT, ev);
        after_battle(s, b, ev);
        break;
    case AK_CRT_AE:
        eliminate_side(s, b, s->side, AK_ELIM_COMBAT, ev);
        after_battle(s, b, ev);
        break;
    case AK_CRT_DB2:
        start_retreat(s, b, !s->side, ev);
        break;
    case AK_CRT_AB2:
        start_retreat(s, b, s->side, ev);
        break;
    default:
        start_exchange(s, b, ev);
    }
    return true;
}

bool ak_combat_retreat(const struct ak_ruleset *r, struct ak_state *s,
                       const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej)
{
    char h[8], list[160];
    struct ak_route routes[ROUTES_MAX];
    (void)r;
    int b = s->pending.battle, loser = !s->pending.side;
    if (a->nunits < 1 || a->npath != 2)
        return ak_reject(rej, "RETREAT", "a retreat names the losing units and two squares");
    for (int i = 0; i < a->nunits; i++) {
        int u = a->units[i];
        if (!in_battle(s, u, b, loser) || !(s->unit[u].flags & AK_U_MUST_RETREAT))
            return ak_reject(rej, "RETREAT", "%s owes no retreat from battle %d", ak_def(u)->shortname, b + 1);
        int n = ak_retreat_routes(s, u, routes), k = -1, len = 0;
        list[0] = 0;
        for (int j = 0; j < n; j++) {
            if (routes[j].step[0] == a->path[0] && routes[j].step[1] == a->path[1])
                k = j;
            len += snprintf(list + len, sizeof list - (size_t)len, "%s%s", j ? ", " : "",
                            ak_hex_format(routes[j].step[0], h));
            len += snprintf(list + len, sizeof list - (size_t)len, "-%s", ak_hex_format(routes[j].step[1], h));
            if (len >= (int)sizeof list - 16)
                break;
        }
        if (k < 0)
            return ak_reject(rej, "RETREAT", "%s cannot retreat that way; its unblocked routes are %s",
                             ak_def(u)->shortname, list);
        retreat_along(s, u, &routes[k], ev);
    }
    settle_retreats(s, b, loser, ev);
    return true;
}

bool ak_combat_exchange(const struct ak_ruleset *r, struct ak_state *s,
                        const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej)
{
    (void)r;
    int b = s->pending.battle, side = s->pending.side, total = 0;
    for (int i = 0; i < a->nunits; i++) {
        int u = a->units[i];
        if (!in_battle(s, u, b, side))
            return ak_reject(rej, "EXCHANGE", "%s did not fight in battle %d", ak_def(u)->shortname, b + 1);
        for (int j = 0; j < i; j++)
            if (a->units[j] == u)
                return ak_reject(rej, "ACTION", "%s is named twice", ak_def(u)->shortname);
        total += ak_def(u)->attack;
    }
    if (total < s->pending.need)
        return ak_reject(rej, "EXCHANGE", "those units total %d attack factors; the exchange takes at least %d",
                         total, s->pending.need);
    for (int i = 0; i < a->nunits; i++)
        ak_eliminate(s, a->units[i], AK_ELIM_EXCHANGE, ev);
    after_battle(s, b, ev);
    return true;
}

bool ak_combat_advance(const struct ak_ruleset *r, struct ak_state *s,
                       const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej)
{
    char h[8];
    ak_hex targets[AK_BATTLE_HEXES];
    int b = s->pending.battle;
    if (a->nunits == 0) {
        finish_battle(s, ev);
        return true;
    }
    ak_hex_format(a->hex, h);
    int n = advance_targets(s, b, targets);
    bool target = false;
    for (int i = 0; i < n; i++)
        target = target || targets[i] == a->hex;
    if (!target)
        return ak_reject(rej, "ADVANCE", "%s is not a vacated escarpment or fortress square of battle %d",
                         h, b + 1);
    for (int i = 0; i < a->nunits; i++) {
        int u = a->units[i];
        for (int j = 0; j < i; j++)
            if (a->units[j] == u)
                return ak_reject(rej, "ACTION", "%s is named twice", ak_def(u)->shortname);
    }
    if (!ak_stack_room(r, s, a->hex, s->side, a->units, a->nunits, rej))
        return false;
    for (int i = 0; i < a->nunits; i++) {
        int u = a->units[i];
        if (!in_battle(s, u, b, s->side) || !ak_adjacent(s->unit[u].hex, a->hex))
            return ak_reject(rej, "ADVANCE", "%s did not attack in battle %d from next to %s",
                             ak_def(u)->shortname, b + 1, h);
    }
    for (int i = 0; i < a->nunits; i++) {
        struct ak_unit *x = &s->unit[a->units[i]];
        ak_event_add(ev, AK_EV_ADVANCED, s->side, a->units[i], AK_UNIT_NONE, x->hex, a->hex, 0, 0, 0);
        x->hex = a->hex;
        x->flags |= AK_U_HALTED;
    }
    ak_capture_around(s, s->side, a->hex, ev);
    finish_battle(s, ev);
    return true;
}
