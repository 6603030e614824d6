/* ak_lister: the action listers both rulesets share (ak_lister.h), and
 * the helpers every lister uses to build and offer candidates. */
#include "ak_lister.h"

#include <string.h>

#include "ak_combat.h"
#include "ak_engine.h"
#include "ak_zoc.h"

struct ak_action ak_lister_blank(const struct ak_state *s, int kind)
{
    struct ak_action a;
    memset(&a, 0, sizeof a);
    a.kind = (uint8_t)kind;
    a.side = (uint8_t)ak_waiting_for(s);
    a.hex = AK_HEX_NONE;
    a.supply = AK_UNIT_NONE;
    return a;
}

/* Keep a if the engine accepts it on a copy of the state (or untried). */
bool ak_lister_offer(struct ak_lister *l, const struct ak_action *a)
{
    if (l->n >= l->max || (!l->untried && !ak_try(l->s, a, NULL)))
        return false;
    l->out[l->n++] = *a;
    return true;
}

bool ak_lister_own(const struct ak_state *s, int u, int side)
{
    return ak_def(u)->side == side && ak_on_board(s, u);
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

void ak_list_placements(struct ak_lister *l)
{
    const struct ak_state *s = l->s;
    ak_hex ports[9];
    int nports = ak_ruleset_get(s->ruleset)->arrival_squares(s, s->side, ports, 8);
    ports[nports++] = AK_HEX_NONE;      /* the off-board box, where a ruleset has one (the engine says) */
    for (int u = 0; u < s->units; u++) {
        if (!placeable(s, u))
            continue;
        for (int p = 0; p < nports; p++) {
            struct ak_action a = ak_lister_blank(s, AK_ACT_PLACE);
            a.nunits = 1;
            a.units[0] = (uint8_t)u;
            a.hex = ports[p];
            ak_lister_offer(l, &a);
        }
    }
}

void ak_list_units_each(struct ak_lister *l, int kind, bool (*fit)(const struct ak_state *, int))
{
    for (int u = 0; u < l->s->units; u++) {
        if (!fit(l->s, u))
            continue;
        struct ak_action a = ak_lister_blank(l->s, kind);
        a.nunits = 1;
        a.units[0] = (uint8_t)u;
        ak_lister_offer(l, &a);
    }
}

bool ak_lister_own_supply(const struct ak_state *s, int u)
{
    return ak_lister_own(s, u, s->side) && ak_def(u)->type == AK_TYPE_SUPPLY;
}

bool ak_lister_own_combat(const struct ak_state *s, int u)
{
    return ak_lister_own(s, u, s->side) && ak_unit_is_combat(ak_def(u));
}

static bool at_port(const struct ak_state *s, int u)
{
    return ak_lister_own(s, u, s->side) && (s->unit[u].hex == ak_map()->tobruch ||
                                  s->unit[u].hex == ak_map()->homebase[s->side]);
}

/* Try a battle of attackers against defenders: without supply, then with
 * each supply unit in turn. */
static void offer_battle(struct ak_lister *l, const uint8_t *att, int na, const uint8_t *def, int nd)
{
    struct ak_action a = ak_lister_blank(l->s, AK_ACT_BATTLE);
    if (na + nd > AK_GROUP_MAX)
        return;
    memcpy(a.units, att, (size_t)na);
    memcpy(a.units + na, def, (size_t)nd);
    a.nunits = (uint8_t)(na + nd);
    if (ak_lister_offer(l, &a))
        return;
    for (int u = 0; u < l->s->units; u++)
        if (ak_lister_own_supply(l->s, u)) {
            a.supply = (uint8_t)u;
            if (ak_lister_offer(l, &a))
                return;
        }
}

void ak_list_battles(struct ak_lister *l)
{
    const struct ak_state *s = l->s;
    static uint8_t done[AK_HEX_COUNT];
    memset(done, 0, sizeof done);
    for (int e = 0; e < s->units; e++) {
        if (!ak_lister_own(s, e, !s->side) || !ak_unit_is_combat(ak_def(e)) || s->unit[e].battle ||
            done[s->unit[e].hex])
            continue;
        ak_hex h = s->unit[e].hex;
        done[h] = 1;
        uint8_t att[AK_GROUP_MAX], def[AK_GROUP_MAX];
        int na = 0, nd = 0;
        for (int d = 0; d < s->units && nd < AK_GROUP_MAX; d++)
            if (ak_lister_own(s, d, !s->side) && s->unit[d].hex == h && ak_unit_is_combat(ak_def(d)) &&
                !s->unit[d].battle)
                def[nd++] = (uint8_t)d;
        for (int u = 0; u < s->units && na < AK_GROUP_MAX - nd; u++)
            if (ak_lister_own_combat(s, u) && !s->unit[u].battle && ak_adjacent(s->unit[u].hex, h))
                att[na++] = (uint8_t)u;
        if (na == 0)
            continue;
        offer_battle(l, att, na, def, nd);
        for (int i = 0; na > 1 && i < na; i++)
            offer_battle(l, &att[i], 1, def, nd);
    }
}

void ak_list_resolutions(struct ak_lister *l)
{
    for (int b = 0; b < l->s->nbattles; b++) {
        if (l->s->battle[b].resolved)
            continue;
        struct ak_action a = ak_lister_blank(l->s, AK_ACT_RESOLVE);
        a.battle = (uint8_t)b;
        /* Unmet obligations refuse every battle alike: one try says so. */
        if (!ak_lister_offer(l, &a) && !l->s->combat_locked)
            break;
    }
    for (int b = 0; !l->s->combat_locked && b < l->s->nbattles; b++) {
        struct ak_action a = ak_lister_blank(l->s, AK_ACT_CANCEL);
        a.battle = (uint8_t)b;
        ak_lister_offer(l, &a);
    }
}

/* The units of battle b on side, in action a. */
int ak_lister_battle_units(const struct ak_state *s, int b, int side, struct ak_action *a)
{
    a->nunits = 0;
    for (int u = 0; u < s->units && a->nunits < AK_GROUP_MAX; u++)
        if (ak_lister_own(s, u, side) && s->unit[u].battle == b + 1)
            a->units[a->nunits++] = (uint8_t)u;
    return a->nunits;
}

#define EXCHANGE_NEED_MAX 255

/* Of the units in all, the ones whose attack factors reach need at the
 * least cost in factors (attack and defence: what the side keeps on
 * board): a knapsack over the attack total, capped at need. Into out;
 * false when even all of them fall short. */
static bool cheapest_exchange(const struct ak_state *s, const struct ak_action *all, int need, struct ak_action *out)
{
    static int cost[EXCHANGE_NEED_MAX + 1], was[EXCHANGE_NEED_MAX + 1];
    static uint32_t set[EXCHANGE_NEED_MAX + 1], was_set[EXCHANGE_NEED_MAX + 1];
    if (need < 1 || need > EXCHANGE_NEED_MAX || all->nunits > 32)
        return false;
    for (int k = 0; k <= need; k++)
        cost[k] = k ? -1 : 0, set[k] = 0;
    for (int i = 0; i < all->nunits; i++) {
        const struct ak_unit_def *d = ak_def(all->units[i]);
        memcpy(was, cost, sizeof(int) * (size_t)(need + 1));
        memcpy(was_set, set, sizeof(uint32_t) * (size_t)(need + 1));
        for (int k = 0; k <= need; k++) {
            int to = k + d->attack > need ? need : k + d->attack, c = was[k] + d->attack + d->defense;
            if (was[k] >= 0 && (cost[to] < 0 || c < cost[to])) {
                cost[to] = c;
                set[to] = was_set[k] | 1u << i;
            }
        }
    }
    if (cost[need] < 0)
        return false;
    *out = ak_lister_blank(s, AK_ACT_EXCHANGE);
    for (int i = 0; i < all->nunits; i++)
        if (set[need] & 1u << i)
            out->units[out->nunits++] = all->units[i];
    return true;
}

/* Every single unit and pair, all of them, and the cheapest set that
 * meets the exchange (EXCHANGE: units "whose combined Attack Factors
 * total at least" the loser's; a player gives no more than he must, and
 * a list of pairs alone would leave a big attack only "all"). */
void ak_list_exchanges(struct ak_lister *l)
{
    const struct ak_state *s = l->s;
    struct ak_action all = ak_lister_blank(s, AK_ACT_EXCHANGE), cheapest;
    int n = ak_lister_battle_units(s, s->pending.battle, s->pending.side, &all);
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) {
            struct ak_action a = ak_lister_blank(s, AK_ACT_EXCHANGE);
            a.units[a.nunits++] = all.units[i];
            if (j != i)
                a.units[a.nunits++] = all.units[j];
            ak_lister_offer(l, &a);
        }
    if (n > 2)      /* two units: the pair above is all of them */
        ak_lister_offer(l, &all);
    if (n > 2 && cheapest_exchange(s, &all, s->pending.need, &cheapest) && cheapest.nunits > 2 &&
        cheapest.nunits < n)
        ak_lister_offer(l, &cheapest);
}

void ak_list_advances(struct ak_lister *l)
{
    const struct ak_state *s = l->s;
    const struct ak_battle *t = &s->battle[s->pending.battle];
    struct ak_action all = ak_lister_blank(s, AK_ACT_ADVANCE);
    int n = ak_lister_battle_units(s, s->pending.battle, s->side, &all);
    ak_lister_offer(l, &(struct ak_action){.kind = AK_ACT_ADVANCE, .side = s->side, .hex = AK_HEX_NONE,
                                 .supply = AK_UNIT_NONE});
    /* each unit alone, then all of them (when that is not one unit alone) */
    for (int h = 0; h < t->ndef_hex; h++)
        for (int i = 0; i < n + (n > 1); i++) {
            struct ak_action a = i < n ? ak_lister_blank(s, AK_ACT_ADVANCE) : all;
            if (i < n) {
                a.nunits = 1;
                a.units[0] = all.units[i];
            }
            a.hex = t->def_hex[h];
            ak_lister_offer(l, &a);
        }
}


void ak_list_embarks(struct ak_lister *l) { ak_list_units_each(l, AK_ACT_EMBARK, at_port); }
void ak_list_abandons(struct ak_lister *l) { ak_list_units_each(l, AK_ACT_ABANDON, ak_lister_own_combat); }
void ak_list_destroy_supply(struct ak_lister *l) { ak_list_units_each(l, AK_ACT_DESTROY_SUPPLY, ak_lister_own_supply); }

/* An action that ends part of the turn: there is only one of each. */
void ak_list_end(struct ak_lister *l, int kind)
{
    struct ak_action a = ak_lister_blank(l->s, kind);
    ak_lister_offer(l, &a);
}

void ak_list_end_movement(struct ak_lister *l) { ak_list_end(l, AK_ACT_END_MOVEMENT); }
void ak_list_end_phase(struct ak_lister *l) { ak_list_end(l, AK_ACT_END_PHASE); }
void ak_list_end_turn(struct ak_lister *l) { ak_list_end(l, AK_ACT_END_TURN); }
