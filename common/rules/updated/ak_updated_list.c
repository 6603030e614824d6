/* ak_updated_list: the listers of the Updated rules' own actions (their
 * table's list[] entries beside the shared ones of ak_lister.c): retreats
 * of the result's length, loss assignments, emergency supply, attack
 * supply, rebuilds, boxes, port moves and break-outs. Each offers
 * candidates; the engine keeps the legal ones. */
#include <string.h>

#include "ak_lister.h"
#include "ak_updated.h"
#include "ak_zoc.h"

/* Retreats of pending.retreat squares, each step one
 * farther from the start (ak_updated_retreat.c); the routes are tried in
 * the fixed direction order, the first 64 of each unit (all of them for
 * retreats of up to three squares) offered when legal. */
static void offer_routes(struct ak_lister *l, struct ak_action *a, ak_hex start, ak_hex from, int k, int n, int *left)
{
    if (*left <= 0)
        return;
    if (k == n) {
        (*left)--;
        ak_lister_offer(l, a);
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

void ak_updated_list_retreats(struct ak_lister *l)
{
    const struct ak_state *s = l->s;
    if (!s->pending.retreat)    /* every retreat owed says its length */
        return;
    for (int u = 0; u < s->units; u++) {
        if (!ak_on_board(s, u) || !(s->unit[u].flags & AK_U_MUST_RETREAT))
            continue;
        struct ak_action a = ak_lister_blank(s, AK_ACT_RETREAT);
        a.nunits = 1;
        a.units[0] = (uint8_t)u;
        a.npath = s->pending.retreat;
        int left = 64;     /* monotone routes: at most 3 choices a step */
        offer_routes(l, &a, s->unit[u].hex, s->unit[u].hex, 0, s->pending.retreat, &left);
    }
}

/* Some ways to meet a loss requirement, each offered once: one unit
 * reduced (when it has a reduced side) or eliminated, every reducible
 * unit reduced, everything eliminated. */
void ak_updated_list_losses(struct ak_lister *l)
{
    const struct ak_state *s = l->s;
    struct ak_action all = ak_lister_blank(s, AK_ACT_LOSSES), reduce = ak_lister_blank(s, AK_ACT_LOSSES);
    int n = s->pending.percent == AK_LOSS_ATTRITION ? (all.nunits = (uint8_t)ak_updated_isolated_stack(s, s->pending.hex, all.units))
                                                    : ak_lister_battle_units(s, s->pending.battle, s->pending.side, &all);
    for (int i = 0; i < n; i++) {
        struct ak_action a = ak_lister_blank(s, AK_ACT_LOSSES);
        int u = all.units[i];
        bool reducible = !s->unit[u].reduced && ak_def(u)->attack > 2;     /* two steps, the full one up */
        a.nunits = 1;
        a.units[0] = (uint8_t)u;
        a.nreduce = 1;
        if (reducible)
            ak_lister_offer(l, &a);
        a.nreduce = 0;
        ak_lister_offer(l, &a);
        if (reducible)
            reduce.units[reduce.nunits++] = (uint8_t)u;
    }
    reduce.nreduce = reduce.nunits;
    if (reduce.nunits > 1)
        ak_lister_offer(l, &reduce);
    if (n > 1)      /* one unit: the same as eliminating it, offered above */
        ak_lister_offer(l, &all);
    struct ak_action none = ak_lister_blank(s, AK_ACT_LOSSES);
    ak_lister_offer(l, &none);    /* declining a fortress's offer to stay (otherwise refused) */
}


void ak_updated_list_burns(struct ak_lister *l) { ak_list_units_each(l, AK_ACT_BURN_SUPPLY, ak_lister_own_supply); }
void ak_updated_list_supply_attacks(struct ak_lister *l)
{
    ak_list_units_each(l, AK_ACT_SUPPLY_ATTACKS, ak_lister_own_supply);
}
void ak_updated_list_rebuilds(struct ak_lister *l) { ak_list_units_each(l, AK_ACT_REBUILD, ak_lister_own_combat); }

/* One unit's box with each supply unit within 5 squares (BOXES). */
void ak_updated_list_fortify(struct ak_lister *l)
{
    const struct ak_state *s = l->s;
    for (int su = 0; su < s->units; su++)
        for (int u = 0; ak_lister_own_supply(s, su) && u < s->units; u++)
            if (ak_lister_own_combat(s, u) && ak_hex_distance(s->unit[u].hex, s->unit[su].hex) <= 5 &&
                (ak_def(u)->type == AK_TYPE_INFANTRY || ak_def(u)->type == AK_TYPE_ARMORED_INFANTRY)) {
                struct ak_action a = ak_lister_blank(s, AK_ACT_FORTIFY);
                a.nunits = 1;
                a.units[0] = (uint8_t)u;
                a.supply = (uint8_t)su;
                ak_lister_offer(l, &a);
            }
}

/* Each unit by sea: Tobruch to the box, the box to Tobruch (PORTS). */
void ak_updated_list_port_moves(struct ak_lister *l)
{
    const struct ak_state *s = l->s;
    for (int u = 0; u < s->units && !(s->flags & AK_SF_PORT_MOVED); u++) {
        if (ak_def(u)->side != s->side || !ak_unit_is_combat(ak_def(u)))
            continue;
        struct ak_action a = ak_lister_blank(s, AK_ACT_PORT_MOVE);
        a.nunits = 1;
        a.units[0] = (uint8_t)u;
        a.hex = ak_on_board(s, u) ? AK_HEX_NONE : ak_map()->tobruch;
        ak_lister_offer(l, &a);
    }
}

/* A unit that may break out: isolated, and not breaking out yet. */
static bool may_break_out(const struct ak_state *s, int u)
{
    return ak_lister_own_combat(s, u) && (s->unit[u].marks & AK_MARK_ISOLATED) && !(s->unit[u].marks & AK_MARK_BREAK_OUT);
}

/* Each isolated square not yet breaking out (ISOLATION ATTRITION), once:
 * by the first of its units. */
void ak_updated_list_break_outs(struct ak_lister *l)
{
    const struct ak_state *s = l->s;
    for (int u = 0; u < s->units; u++) {
        bool first = may_break_out(s, u);
        for (int v = 0; first && v < u; v++)
            first = !(may_break_out(s, v) && s->unit[v].hex == s->unit[u].hex);
        if (first) {
            struct ak_action a = ak_lister_blank(s, AK_ACT_BREAK_OUT);
            a.hex = s->unit[u].hex;
            ak_lister_offer(l, &a);
        }
    }
}
