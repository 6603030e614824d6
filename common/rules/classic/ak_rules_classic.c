/* ak_rules_classic: the 1964 Afrika Korps rules as a ruleset.
 *
 * The classic edition is the shared mechanics with the 1964 parameters.
 * A later edition (the Updated Afrika Korps of seed 003) is another table
 * like this one, pointing at the same mechanics where they agree and at its
 * own functions where they differ.
 */
#include <stddef.h>

#include "ak_classic.h"
#include "ak_hazards_internal.h"
#include "ak_arrival.h"
#include "ak_battle.h"
#include "ak_combat.h"
#include "ak_lister.h"
#include "ak_logistics.h"
#include "ak_sustain.h"
#include "ak_move.h"
#include "ak_substitute.h"
#include "ak_turn.h"
#include "ak_victory.h"
#include "ak_zoc.h"

static bool classic_move(const struct ak_ruleset *r, struct ak_state *s,
                         const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej)
{
    struct ak_dest route;
    if (!ak_move_action_route(s, a, &route, rej))
        return false;
    ak_move_execute(r, s, s->side, a->units, a->nunits, &route, ev);
    if (!ak_sustain_still_possible(s, a->units, a->nunits, rej))
        return false;
    /* Only a stack ending next to the enemy, or supply coming into reach,
     * can make an automatic victory. */
    bool supply = false;
    for (int i = 0; i < a->nunits; i++)
        supply = supply || ak_def(a->units[i])->type == AK_TYPE_SUPPLY;
    if (supply || ak_enemy_unit_adjacent(s, route.hex, s->side))
        ak_combat_auto_victory(s, ev);
    return ak_logistics_adjacency_possible(s, rej);
}

static bool classic_place(const struct ak_ruleset *r, struct ak_state *s,
                          const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej)
{
    if (!ak_arrival_place(r, s, a, ev, rej) || !ak_sustain_still_possible(s, a->units, a->nunits, rej))
        return false;
    ak_combat_auto_victory(s, ev);
    return ak_logistics_adjacency_possible(s, rej);
}

/* Putting a supply unit to sea, or exchanging units for substitutes, can
 * leave units in enemy zones without the supply the movement portion needs
 * to end (SUSTAIN ATTACKS 2): judged like a move of supply. */
static bool classic_embark(const struct ak_ruleset *r, struct ak_state *s,
                           const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej)
{
    return ak_arrival_embark(r, s, a, ev, rej) && ak_sustain_still_possible(s, NULL, 0, rej) &&
           ak_logistics_adjacency_possible(s, rej);
}

static bool classic_substitute(const struct ak_ruleset *r, struct ak_state *s,
                               const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej)
{
    return ak_substitute(r, s, a, ev, rej) && ak_sustain_still_possible(s, NULL, 0, rej);
}

/* The 1964 table is the same for every game. */
static const char *classic_odds_name(const struct ak_state *s, int column)
{
    (void)s;
    return ak_odds_name(column);
}

const struct ak_ruleset ak_rules_classic = {
    .name = "classic",
    .title = "Afrika Korps (1964 rules)",
    .stack_limit = 3,
    .start_stack_limit = 10,
    .road_bonus = 10,
    .rommel_bonus = 2,
    .fortress_retreat_kills = true,
    .no_supply_loses_all = true,
    .zoc_halt_code = "ATTACKING-1",
    .movement = &ak_movement_squares,
    .odds_name = classic_odds_name,
    .phase_word = "portion",
    .move_phases = 1u << AK_PHASE_MOVEMENT,
    .last_phase = AK_PHASE_COMBAT,
    .attacks_obligatory = true,
    .sequence_code = "PLAY-2",
    .hazards = ak_hazards_classic,
    .result_name = ak_combat_result_name,
    .phases = 1u << AK_PHASE_MOVEMENT | 1u << AK_PHASE_COMBAT | 1u << AK_PHASE_OVER,
    .possible_actions = ak_turn_possible_actions,
    .arrival_squares = ak_arrival_ports,
    .start_player_turn = ak_turn_start,
    .battle_preview = ak_classic_battle_preview,
    .declared_preview = ak_classic_declared_preview,
    .supply_map = ak_supply_lines,
    .isolation_map = ak_isolation_map,
    .apply = {
        [AK_ACT_MOVE] = classic_move,
        [AK_ACT_PLACE] = classic_place,
        [AK_ACT_EMBARK] = classic_embark,
        [AK_ACT_END_MOVEMENT] = ak_turn_end_movement,
        [AK_ACT_DESTROY_SUPPLY] = ak_turn_destroy_supply,
        [AK_ACT_END_TURN] = ak_turn_end,
        [AK_ACT_BATTLE] = ak_combat_battle,
        [AK_ACT_CANCEL] = ak_combat_cancel,
        [AK_ACT_ABANDON] = ak_combat_abandon,
        [AK_ACT_RESOLVE] = ak_combat_resolve,
        [AK_ACT_RETREAT] = ak_combat_retreat,
        [AK_ACT_EXCHANGE] = ak_combat_exchange,
        [AK_ACT_ADVANCE] = ak_combat_advance,
        [AK_ACT_SUBSTITUTE] = classic_substitute,
        [AK_ACT_RESIGN] = ak_victory_concede,
        [AK_ACT_TIMEOUT] = ak_victory_concede, [AK_ACT_ADJUDICATE] = ak_victory_adjudicate,
    },
    .list = {
        [AK_ACT_PLACE] = ak_list_placements,
        [AK_ACT_EMBARK] = ak_list_embarks,
        [AK_ACT_BATTLE] = ak_list_battles,
        [AK_ACT_ABANDON] = ak_list_abandons,
        [AK_ACT_RESOLVE] = ak_list_resolutions,
        [AK_ACT_RETREAT] = ak_classic_list_retreats,
        [AK_ACT_EXCHANGE] = ak_list_exchanges,
        [AK_ACT_ADVANCE] = ak_list_advances,
        [AK_ACT_DESTROY_SUPPLY] = ak_list_destroy_supply,
        [AK_ACT_END_MOVEMENT] = ak_list_end_movement,
        [AK_ACT_END_TURN] = ak_list_end_turn,
    },
};
