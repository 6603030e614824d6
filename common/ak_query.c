/* ak_query: listing the legal actions of the player the game waits for. */
#include "ak_query.h"

#include <string.h>

#include "ak_battle.h"
#include "ak_combat.h"
#include "ak_engine.h"
#include "ak_updated.h"
#include "ak_zoc.h"

struct list {
    const struct ak_state *s;
    struct ak_action *out;
    int n, max;
};

static struct ak_action blank(const struct ak_state *s, int kind)
{
    struct ak_action a;
    memset(&a, 0, sizeof a);
    a.kind = (uint8_t)kind;
    a.side = (uint8_t)ak_waiting_for(s);
    a.hex = AK_HEX_NONE;
    a.supply = AK_UNIT_NONE;
    return a;
}

/* Keep a if the engine accepts it on a copy of the state. */
static bool offer(struct list *l, const struct ak_action *a)
{
    if (l->n >= l->max || !ak_try(l->s, a, NULL))
        return false;
    l->out[l->n++] = *a;
    return true;
}

static bool own(const struct ak_state *s, int u, int side)
{
    return ak_def(u)->side == side && ak_on_board(s, u);
}

/* Some unit of the mover went into an enemy zone this turn, so moving a
 * supply unit away could leave it out of reach (SUSTAIN ATTACKS 2). */
static bool supply_reach_matters(const struct ak_state *s)
{
    for (int u = 0; u < s->units; u++)
        if (own(s, u, s->side) && (s->unit[u].flags & (AK_U_MOVED | AK_U_ARRIVED)) &&
            ak_unit_is_combat(ak_def(u)) && ak_enemy_unit_adjacent(s, s->unit[u].hex, s->side))
            return true;
    return false;
}

/* A supply unit of the mover went next to the enemy this turn, so any
 * move could leave it sustaining no attack (LOGISTICS, MOVEMENT 5). */
static bool supply_adjacency_matters(const struct ak_state *s)
{
    for (int u = 0; u < s->units; u++)
        if (own(s, u, s->side) && (s->unit[u].flags & AK_U_SUPPLY_NEAR_ENEMY))
            return true;
    return false;
}

int ak_legal_moves(const struct ak_state *s, int unit, struct ak_action *out, int max)
{
    static struct ak_dest dest[AK_HEX_COUNT];
    struct ak_reject rej;
    uint8_t u = (uint8_t)unit;
    int n = ak_move_destinations(s, s->side, &u, 1, dest, AK_HEX_COUNT, &rej), count = 0;
    struct list l = {s, out, 0, max};
    bool check_supply = (ak_def(unit)->type == AK_TYPE_SUPPLY && supply_reach_matters(s)) ||
                        supply_adjacency_matters(s);
    static uint8_t near_enemy[AK_HEX_COUNT];
    ak_mark_near_enemy(s, s->side, near_enemy);
    for (int i = 0; i < n && count < max; i++) {
        struct ak_action a = blank(s, AK_ACT_MOVE);
        a.nunits = 1;
        a.units[0] = u;
        a.hex = dest[i].hex;
        /* The path the search found goes with the move, so applying it
         * checks that path step by step instead of searching again. */
        a.npath = dest[i].npath;
        memcpy(a.path, dest[i].path, sizeof a.path[0] * dest[i].npath);
        /* The search has checked everything but what depends on the whole
         * position after the move (SUSTAIN ATTACKS 2: a unit going next to
         * the enemy, or a supply unit going away; LOGISTICS, MOVEMENT 5:
         * any move once a supply unit is next to the enemy): check those
         * only. */
        if (dest[i].hex == s->unit[u].hex)
            continue;
        if (check_supply || near_enemy[dest[i].hex]) {
            if (offer(&l, &a))
                count = l.n;
            continue;
        }
        out[count++] = a;
        l.n = count;
    }
    return count;
}

/* Could unit u come on board now at all? A quick sieve before the trial:
 * the engine decides, this only spares trials that cannot succeed. */
static bool placeable(const struct ak_state *s, int u)
{
    const struct ak_unit_def *d = ak_def(u);
    const struct ak_scenario *sc = &ak_data()->scenario;
    int w = s->unit[u].where;
    if (d->side != s->side || w == AK_AT_BOARD || w == AK_AT_WITHDRAWN)
        return false;
    if (w == AK_AT_SEA)
        return true;
    if (w == AK_AT_DEAD)    /* the Updated replacement phase: pools (its handler judges) */
        return s->phase == AK_PHASE_REPLACEMENT ||
               (sc->replace_from && s->turn >= sc->replace_from && d->attack <= s->replacement[s->side]);
    if (d->type == AK_TYPE_SUPPLY)
        return s->supply_due > 0 && !d->captured_counter;
    return d->arrival_turn > 0 && d->arrival_turn <= s->turn && !d->substitute;
}

static void list_placements(struct list *l)
{
    const struct ak_state *s = l->s;
    ak_hex ports[9];
    int nports = ak_ruleset_get(s->ruleset)->arrival_squares(s, s->side, ports, 8);
    ports[nports++] = AK_HEX_NONE;      /* the off-board box, where a ruleset has one (the engine says) */
    for (int u = 0; u < s->units; u++) {
        if (!placeable(s, u))
            continue;
        for (int p = 0; p < nports; p++) {
            struct ak_action a = blank(s, AK_ACT_PLACE);
            a.nunits = 1;
            a.units[0] = (uint8_t)u;
            a.hex = ports[p];
            offer(l, &a);
        }
    }
}

static void list_units_each(struct list *l, int kind, bool (*fit)(const struct ak_state *, int))
{
    for (int u = 0; u < l->s->units; u++) {
        if (!fit(l->s, u))
            continue;
        struct ak_action a = blank(l->s, kind);
        a.nunits = 1;
        a.units[0] = (uint8_t)u;
        offer(l, &a);
    }
}

static bool own_supply(const struct ak_state *s, int u)
{
    return own(s, u, s->side) && ak_def(u)->type == AK_TYPE_SUPPLY;
}

static bool own_combat(const struct ak_state *s, int u)
{
    return own(s, u, s->side) && ak_unit_is_combat(ak_def(u));
}

static bool at_port(const struct ak_state *s, int u)
{
    return own(s, u, s->side) && (s->unit[u].hex == ak_map()->tobruch ||
                                  s->unit[u].hex == ak_map()->homebase[s->side]);
}

/* Try a battle of attackers against defenders: without supply, then with
 * each supply unit in turn. */
static void offer_battle(struct list *l, const uint8_t *att, int na, const uint8_t *def, int nd)
{
    struct ak_action a = blank(l->s, AK_ACT_BATTLE);
    if (na + nd > AK_GROUP_MAX)
        return;
    memcpy(a.units, att, (size_t)na);
    memcpy(a.units + na, def, (size_t)nd);
    a.nunits = (uint8_t)(na + nd);
    if (offer(l, &a))
        return;
    for (int u = 0; u < l->s->units; u++)
        if (own_supply(l->s, u)) {
            a.supply = (uint8_t)u;
            if (offer(l, &a))
                return;
        }
}

static void list_battles(struct list *l)
{
    const struct ak_state *s = l->s;
    static uint8_t done[AK_HEX_COUNT];
    memset(done, 0, sizeof done);
    for (int e = 0; e < s->units; e++) {
        if (!own(s, e, !s->side) || !ak_unit_is_combat(ak_def(e)) || s->unit[e].battle ||
            done[s->unit[e].hex])
            continue;
        ak_hex h = s->unit[e].hex;
        done[h] = 1;
        uint8_t att[AK_GROUP_MAX], def[AK_GROUP_MAX];
        int na = 0, nd = 0;
        for (int d = 0; d < s->units && nd < AK_GROUP_MAX; d++)
            if (own(s, d, !s->side) && s->unit[d].hex == h && ak_unit_is_combat(ak_def(d)) &&
                !s->unit[d].battle)
                def[nd++] = (uint8_t)d;
        for (int u = 0; u < s->units && na < AK_GROUP_MAX - nd; u++)
            if (own_combat(s, u) && !s->unit[u].battle && ak_adjacent(s->unit[u].hex, h))
                att[na++] = (uint8_t)u;
        if (na == 0)
            continue;
        offer_battle(l, att, na, def, nd);
        for (int i = 0; na > 1 && i < na; i++)
            offer_battle(l, &att[i], 1, def, nd);
    }
}

int ak_query_battles(const struct ak_state *s, struct ak_action *out, int max)
{
    struct list l = {s, out, 0, max};
    list_battles(&l);
    return l.n;
}

static void list_resolutions(struct list *l)
{
    for (int b = 0; b < l->s->nbattles; b++) {
        if (l->s->battle[b].resolved)
            continue;
        struct ak_action a = blank(l->s, AK_ACT_RESOLVE);
        a.battle = (uint8_t)b;
        /* Unmet obligations refuse every battle alike: one try says so. */
        if (!offer(l, &a) && !l->s->combat_locked)
            break;
    }
    for (int b = 0; !l->s->combat_locked && b < l->s->nbattles; b++) {
        struct ak_action a = blank(l->s, AK_ACT_CANCEL);
        a.battle = (uint8_t)b;
        offer(l, &a);
    }
}

/* Updated ruleset: retreats of pending.retreat squares, each step one
 * farther from the start (ak_updated_retreat.c); the routes are tried in
 * the fixed direction order, the first 64 of each unit (all of them for
 * retreats of up to three squares) offered when legal. */
static void offer_routes(struct list *l, struct ak_action *a, ak_hex start, ak_hex from, int k, int n, int *left)
{
    if (*left <= 0)
        return;
    if (k == n) {
        (*left)--;
        offer(l, a);
        return;
    }
    for (int d = 0; d < AK_DIRS; d++) {
        ak_hex to = ak_hex_neighbor(from, d);
        if (to == AK_HEX_NONE || !ak_adjacent(from, to) || !ak_enterable(to) || ak_hex_distance(start, to) != k + 1)
            continue;
        a->path[k] = to;
        offer_routes(l, a, start, to, k + 1, n, left);
    }
}

static void list_retreats(struct list *l)
{
    const struct ak_state *s = l->s;
    struct ak_route routes[AK_RETREAT_ROUTES_MAX];
    if (s->pending.retreat) {
        for (int u = 0; u < s->units; u++) {
            if (!ak_on_board(s, u) || !(s->unit[u].flags & AK_U_MUST_RETREAT))
                continue;
            struct ak_action a = blank(s, AK_ACT_RETREAT);
            a.nunits = 1;
            a.units[0] = (uint8_t)u;
            a.npath = s->pending.retreat;
            int left = 64;     /* monotone routes: at most 3 choices a step */
            offer_routes(l, &a, s->unit[u].hex, s->unit[u].hex, 0, s->pending.retreat, &left);
        }
        return;
    }
    for (int u = 0; u < s->units; u++) {
        if (!ak_on_board(s, u) || !(s->unit[u].flags & AK_U_MUST_RETREAT))
            continue;
        int n = ak_retreat_routes(s, u, routes);
        for (int i = 0; i < n; i++) {
            struct ak_action a = blank(s, AK_ACT_RETREAT);
            a.nunits = 1;
            a.units[0] = (uint8_t)u;
            a.npath = 2;
            a.path[0] = routes[i].step[0];
            a.path[1] = routes[i].step[1];
            offer(l, &a);
        }
    }
}

/* The units of battle b on side, in action a. */
static int battle_units(const struct ak_state *s, int b, int side, struct ak_action *a)
{
    a->nunits = 0;
    for (int u = 0; u < s->units && a->nunits < AK_GROUP_MAX; u++)
        if (own(s, u, side) && s->unit[u].battle == b + 1)
            a->units[a->nunits++] = (uint8_t)u;
    return a->nunits;
}

static void list_exchanges(struct list *l)
{
    const struct ak_state *s = l->s;
    struct ak_action all = blank(s, AK_ACT_EXCHANGE);
    int n = battle_units(s, s->pending.battle, s->pending.side, &all);
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) {
            struct ak_action a = blank(s, AK_ACT_EXCHANGE);
            a.units[a.nunits++] = all.units[i];
            if (j != i)
                a.units[a.nunits++] = all.units[j];
            offer(l, &a);
        }
    offer(l, &all);
}

/* Updated ruleset: some ways to meet a loss requirement: one unit reduced
 * or eliminated, every reducible unit reduced, everything eliminated. */
static void list_losses(struct list *l)
{
    const struct ak_state *s = l->s;
    struct ak_action all = blank(s, AK_ACT_LOSSES), reduce = blank(s, AK_ACT_LOSSES);
    int n = s->pending.percent == AK_LOSS_ATTRITION ? (all.nunits = (uint8_t)ak_updated_isolated_stack(s, s->pending.hex, all.units))
                                                    : battle_units(s, s->pending.battle, s->pending.side, &all);
    for (int i = 0; i < n; i++) {
        struct ak_action a = blank(s, AK_ACT_LOSSES);
        a.nunits = 1;
        a.units[0] = all.units[i];
        a.nreduce = 1;
        offer(l, &a);
        a.nreduce = 0;
        offer(l, &a);
        int u = all.units[i];
        if (!s->unit[u].reduced && ak_def(u)->attack > 2)
            reduce.units[reduce.nunits++] = (uint8_t)u;
    }
    reduce.nreduce = reduce.nunits;
    if (reduce.nunits > 1)
        offer(l, &reduce);
    offer(l, &all);
    struct ak_action none = blank(s, AK_ACT_LOSSES);
    offer(l, &none);    /* declining a fortress's offer to stay (otherwise refused) */
}

static void list_advances(struct list *l)
{
    const struct ak_state *s = l->s;
    const struct ak_battle *t = &s->battle[s->pending.battle];
    struct ak_action all = blank(s, AK_ACT_ADVANCE);
    int n = battle_units(s, s->pending.battle, s->side, &all);
    offer(l, &(struct ak_action){.kind = AK_ACT_ADVANCE, .side = s->side, .hex = AK_HEX_NONE,
                                 .supply = AK_UNIT_NONE});
    for (int h = 0; h < t->ndef_hex; h++)
        for (int i = 0; i <= n; i++) {
            struct ak_action a = i < n ? blank(s, AK_ACT_ADVANCE) : all;
            if (i < n) {
                a.nunits = 1;
                a.units[0] = all.units[i];
            }
            a.hex = t->def_hex[h];
            offer(l, &a);
        }
}

int ak_legal_actions(const struct ak_state *s, unsigned flags, struct ak_action *out, int max)
{
    struct list l = {s, out, 0, max};
    unsigned kinds = ak_possible_actions(s);
    if ((kinds & (1u << AK_ACT_MOVE)) && (flags & AK_LIST_MOVES))
        for (int u = 0; u < s->units; u++)
            if (own(s, u, s->side))
                l.n += ak_legal_moves(s, u, out + l.n, max - l.n);
    if (kinds & (1u << AK_ACT_PLACE))
        list_placements(&l);
    if (kinds & (1u << AK_ACT_EMBARK))
        list_units_each(&l, AK_ACT_EMBARK, at_port);
    if (kinds & (1u << AK_ACT_BATTLE))
        list_battles(&l);
    if (kinds & (1u << AK_ACT_ABANDON))
        list_units_each(&l, AK_ACT_ABANDON, own_combat);
    if (kinds & (1u << AK_ACT_RESOLVE))
        list_resolutions(&l);
    if (kinds & (1u << AK_ACT_RETREAT))
        list_retreats(&l);
    if (kinds & (1u << AK_ACT_EXCHANGE))
        list_exchanges(&l);
    if (kinds & (1u << AK_ACT_ADVANCE))
        list_advances(&l);
    if (kinds & (1u << AK_ACT_DESTROY_SUPPLY))
        list_units_each(&l, AK_ACT_DESTROY_SUPPLY, own_supply);
    if (kinds & (1u << AK_ACT_BURN_SUPPLY))
        list_units_each(&l, AK_ACT_BURN_SUPPLY, own_supply);
    if (kinds & (1u << AK_ACT_SUPPLY_ATTACKS))
        list_units_each(&l, AK_ACT_SUPPLY_ATTACKS, own_supply);
    if (kinds & (1u << AK_ACT_LOSSES))
        list_losses(&l);
    if (kinds & (1u << AK_ACT_REBUILD))
        list_units_each(&l, AK_ACT_REBUILD, own_combat);
    if (kinds & (1u << AK_ACT_FORTIFY))     /* one unit's box with each supply unit */
        for (int su = 0; su < s->units; su++)
            for (int u = 0; own_supply(s, su) && u < s->units; u++)
                if (own_combat(s, u) && ak_hex_distance(s->unit[u].hex, s->unit[su].hex) <= 5 &&
                    (ak_def(u)->type == AK_TYPE_INFANTRY || ak_def(u)->type == AK_TYPE_ARMORED_INFANTRY)) {
                    struct ak_action a = blank(s, AK_ACT_FORTIFY);
                    a.nunits = 1;
                    a.units[0] = (uint8_t)u;
                    a.supply = (uint8_t)su;
                    offer(&l, &a);
                }
    if (kinds & (1u << AK_ACT_PORT_MOVE))   /* each unit by sea: Tobruch to the box, the box to Tobruch */
        for (int u = 0; u < s->units && !(s->flags & AK_SF_PORT_MOVED); u++) {
            if (ak_def(u)->side != s->side || !ak_unit_is_combat(ak_def(u)))
                continue;
            struct ak_action a = blank(s, AK_ACT_PORT_MOVE);
            a.nunits = 1;
            a.units[0] = (uint8_t)u;
            a.hex = ak_on_board(s, u) ? AK_HEX_NONE : ak_map()->tobruch;
            offer(&l, &a);
        }
    if (kinds & (1u << AK_ACT_BREAK_OUT))
        for (int u = 0; u < s->units; u++)
            if (own_combat(s, u) && (s->unit[u].marks & AK_MARK_ISOLATED) && !(s->unit[u].marks & AK_MARK_BREAK_OUT)) {
                struct ak_action a = blank(s, AK_ACT_BREAK_OUT);
                a.hex = s->unit[u].hex;
                offer(&l, &a);
            }
    static const int ends[] = {AK_ACT_END_MOVEMENT, AK_ACT_END_PHASE, AK_ACT_END_TURN};
    for (int i = 0; i < 3; i++)
        if (kinds & (1u << ends[i])) {
            struct ak_action a = blank(s, ends[i]);
            offer(&l, &a);
        }
    return l.n;
}
