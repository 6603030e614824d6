/* ak_query: listing the legal actions of the player the game waits for.
 * Moves are listed here, per unit, from the movement search; every other
 * kind by the lister the ruleset's table names for it (struct
 * ak_ruleset.list: the shared ones in ak_lister.c, each ruleset's own in
 * its folder), in one fixed order. */
#include "ak_query.h"

#include <string.h>

#include "ak_combat.h"
#include "ak_engine.h"
#include "ak_lister.h"
#include "ak_zoc.h"

/* Some unit of the mover went into an enemy zone this turn, so moving a
 * supply unit away could leave it out of reach (SUSTAIN ATTACKS 2). */
static bool supply_reach_matters(const struct ak_state *s)
{
    for (int u = 0; u < s->units; u++)
        if (ak_lister_own(s, u, s->side) && (s->unit[u].flags & (AK_U_MOVED | AK_U_ARRIVED)) &&
            ak_unit_is_combat(ak_def(u)) && ak_enemy_unit_adjacent(s, s->unit[u].hex, s->side))
            return true;
    return false;
}

/* A supply unit of the mover went next to the enemy this turn, so any
 * move could leave it sustaining no attack (LOGISTICS, MOVEMENT 5). */
static bool supply_adjacency_matters(const struct ak_state *s)
{
    for (int u = 0; u < s->units; u++)
        if (ak_lister_own(s, u, s->side) && (s->unit[u].flags & AK_U_SUPPLY_NEAR_ENEMY))
            return true;
    return false;
}

int ak_reach(const struct ak_state *s, int unit, ak_hex *out, int max)
{
    static struct ak_dest dest[AK_HEX_COUNT];
    if (unit < 0 || unit >= s->units || !ak_on_board(s, unit))
        return 0;
    uint8_t u = (uint8_t)unit;
    int n = ak_move_destinations(s, ak_def(unit)->side, &u, 1, dest, AK_HEX_COUNT, NULL), count = 0;
    for (int i = 0; i < n && count < max; i++)
        if (dest[i].hex != s->unit[unit].hex)
            out[count++] = dest[i].hex;
    return count;
}

int ak_untried_moves(const struct ak_state *s, const uint8_t *units, int n, struct ak_action *out, int max)
{
    static struct ak_dest dest[AK_HEX_COUNT];
    int found = ak_move_destinations(s, s->side, units, n, dest, AK_HEX_COUNT, NULL), count = 0;
    for (int i = 0; i < found && count < max; i++) {
        if (dest[i].hex == s->unit[units[0]].hex)
            continue;
        struct ak_action *a = &out[count++];
        *a = ak_lister_blank(s, AK_ACT_MOVE);
        a->nunits = (uint8_t)n;
        memcpy(a->units, units, (size_t)n);
        a->hex = dest[i].hex;
        /* The path the search found goes with the move, so applying it
         * checks that path step by step instead of searching again. */
        a->npath = dest[i].npath;
        memcpy(a->path, dest[i].path, sizeof a->path[0] * (size_t)dest[i].npath);
    }
    return count;
}

int ak_legal_moves(const struct ak_state *s, int unit, struct ak_action *out, int max)
{
    uint8_t u = (uint8_t)unit;
    int n = ak_untried_moves(s, &u, 1, out, max), count = 0;
    bool check_supply = (ak_def(unit)->type == AK_TYPE_SUPPLY && supply_reach_matters(s)) ||
                        supply_adjacency_matters(s);
    static uint8_t near_enemy[AK_HEX_COUNT];
    ak_mark_near_enemy(s, s->side, near_enemy);
    /* The search has checked everything but what depends on the whole
     * position after the move (SUSTAIN ATTACKS 2: a unit going next to the
     * enemy, or a supply unit going away; LOGISTICS, MOVEMENT 5: any move
     * once a supply unit is next to the enemy): try those only, keeping
     * the list's order. */
    for (int i = 0; i < n; i++)
        if (!(check_supply || near_enemy[out[i].hex]) || ak_try(s, &out[i], NULL))
            out[count++] = out[i];
    return count;
}

int ak_query_battles(const struct ak_state *s, struct ak_action *out, int max)
{
    struct ak_lister l = {s, out, 0, max, false};
    ak_list_battles(&l);
    return l.n;
}

int ak_query_owed(const struct ak_state *s, uint8_t *out, int max)
{
    return ak_combat_owed(s, out, max);
}

/* The order the kinds are listed in (moves first, the ends of the part of
 * the turn last): self-play picks from the list, so the order is part of
 * its recorded games. */
static const uint8_t list_order[] = {
    AK_ACT_PLACE, AK_ACT_EMBARK, AK_ACT_BATTLE, AK_ACT_ABANDON, AK_ACT_RESOLVE, AK_ACT_RETREAT,
    AK_ACT_EXCHANGE, AK_ACT_ADVANCE, AK_ACT_DESTROY_SUPPLY, AK_ACT_BURN_SUPPLY, AK_ACT_SUPPLY_ATTACKS,
    AK_ACT_LOSSES, AK_ACT_REBUILD, AK_ACT_FORTIFY, AK_ACT_PORT_MOVE, AK_ACT_BREAK_OUT,
    AK_ACT_END_MOVEMENT, AK_ACT_END_PHASE, AK_ACT_END_TURN,
};

int ak_legal_actions(const struct ak_state *s, unsigned flags, struct ak_action *out, int max)
{
    struct ak_lister l = {s, out, 0, max, false};
    const struct ak_ruleset *r = ak_ruleset_get(s->ruleset);
    unsigned kinds = ak_possible_actions(s);
    if ((kinds & (1u << AK_ACT_MOVE)) && (flags & AK_LIST_MOVES))
        for (int u = 0; u < s->units; u++)
            if (ak_lister_own(s, u, s->side))
                l.n += ak_legal_moves(s, u, out + l.n, max - l.n);
    for (size_t i = 0; i < sizeof list_order; i++)
        if ((kinds & (1u << list_order[i])) && r->list[list_order[i]])
            r->list[list_order[i]](&l);
    return l.n;
}
