/* ak_rules_updated: the Updated Afrika Korps variant (seed 003) as a
 * ruleset, beside the 1964 rules (ak_rules_classic.c).
 *
 * What differs lives here as parameters and handlers; the mechanics both
 * editions share (the map, counters, capture of supply, control of key
 * squares, concession) are the same functions. Built so far, each with its
 * scenarios in tests/scenarios/updated-*.scn:
 *
 *   - movement by movement points (ak_move_points.c): TERRAIN EFFECTS 3,
 *     ROAD MOVEMENT, NEW ZOCS 1, 2 and 4;
 *   - NEW STACKING (ak_stacking.c): two units where an Italian division is;
 *   - the sequence of play (ak_updated_turn.c): the reinforcement phase's
 *     supply units and replacement points, the mechanized movement phase;
 *   - the supply phase (ak_updated_supply.c): trace supply, out of supply
 *     and isolated marks, extenders and emergency supply, isolation
 *     attrition and break-outs;
 *   - the replacement phase: rebuilding, whole units bought back;
 *   - boxes (ak_updated_boxes.c);
 *   - the 1964 Allied substitute counters, for full-strength units;
 *   - new units at the entry squares, the first Axis capture of Tobruch,
 *     port movement between the off-board box and Tobruch
 *     (ak_updated_arrival.c);
 *   - combat on the operator's table (ak_updated_combat.c,
 *     ak_updated_retreat.c): attack supply, bombardment, armor advantage,
 *     steps and loss requirements, exchanges, retreats, the advance.
 *
 * Each game is fought on the table akd held when it began, which its
 * record carries (ak_crt_attach; server/ak_crt.c).
 */
#include <stddef.h>

#include "ak_hazards_internal.h"
#include "ak_lister.h"
#include "ak_move.h"
#include "ak_substitute.h"
#include "ak_updated.h"
#include "ak_victory.h"

static bool updated_move(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                         struct ak_events *ev, struct ak_reject *rej)
{
    struct ak_dest route;
    if (!ak_move_action_route(s, a, &route, rej))
        return false;
    ak_move_execute(r, s, s->side, a->units, a->nunits, &route, ev);
    ak_updated_boxes_entered(s, s->side, route.path, route.npath, ev);
    ak_updated_tobruch_taken(s, ev);
    return true;
}

/* ALLIED SUBSTITUTE COUNTERS (1964), kept by the variant (A-27 (v)):
 * equal attack factors of full-strength units; a reduced unit is not
 * exchanged, else its lost step would come back for nothing. */
static bool updated_substitute(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                               struct ak_events *ev, struct ak_reject *rej)
{
    for (int i = 0; i < a->nunits; i++)
        if (ak_on_board(s, a->units[i]) && s->unit[a->units[i]].reduced)
            return ak_reject(rej, "SUBSTITUTE", "%s is reduced: only units at full strength are exchanged",
                             ak_def(a->units[i])->shortname);
    return ak_substitute(r, s, a, ev, rej);
}

/* Advances and retreats can garrison Tobruch too. Box builders remain
 * stationary for their player turn (BOXES 1): they fight but do not
 * advance (a retreat the table orders is not theirs to refuse). */
static bool updated_advance(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                            struct ak_events *ev, struct ak_reject *rej)
{
    for (int i = 0; i < a->nunits; i++)
        if (a->units[i] < s->units && (s->unit[a->units[i]].marks & AK_MARK_FORTIFIED))
            return ak_reject(rej, "UPD-BOX", "%s built a box this turn: box builders remain stationary for their "
                             "whole player turn and do not advance", ak_def(a->units[i])->shortname);
    if (!ak_updated_advance(r, s, a, ev, rej))
        return false;
    if (a->nunits > 0)
        ak_updated_boxes_entered(s, s->side, &a->hex, 1, ev);
    ak_updated_tobruch_taken(s, ev);
    return true;
}

static bool updated_retreat(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                            struct ak_events *ev, struct ak_reject *rej)
{
    int retreating = !s->pending.side;
    if (!ak_updated_retreat(r, s, a, ev, rej))
        return false;
    ak_updated_boxes_entered(s, retreating, a->path, a->npath, ev);
    ak_updated_tobruch_taken(s, ev);
    return true;
}

/* Movement points in twelfths (AK_MP): seed 003, TERRAIN EFFECTS 3 and
 * ROAD MOVEMENT; NEW ZOCS 1-2. */
static const struct ak_mp_costs updated_costs = {
    .clear = AK_MP,
    .escarpment = {[AK_MOVE_ITALIAN_INFANTRY] = 2 * AK_MP, [AK_MOVE_INFANTRY] = 2 * AK_MP,
                   [AK_MOVE_MECHANIZED] = 3 * AK_MP, [AK_MOVE_OTHER] = 3 * AK_MP},
    .road = {[AK_MOVE_ITALIAN_INFANTRY] = AK_MP / 4, [AK_MOVE_INFANTRY] = AK_MP / 3,
             [AK_MOVE_MECHANIZED] = AK_MP / 3, [AK_MOVE_OTHER] = AK_MP / 3},
    .zoc_mechanized = 2 * AK_MP,
    .infantry_leave_divisor = 2,
};

const struct ak_ruleset ak_rules_updated = {
    .name = "updated",
    .title = "Updated Afrika Korps (variant)",
    .stack_limit = 3,
    .start_stack_limit = 10,
    .road_bonus = 0,
    .rommel_bonus = 2,              /* movement points (reading A-27 (iv)) */
    .italian_stack_limit = 2,
    .zoc_out_of_fortress = true,
    .two_step_units = true,
    .zoc_halt_code = "UPD-ZOC-1",
    .movement = &ak_movement_points,
    .mp_costs = &updated_costs,
    .needs_crt_table = true,
    .odds_name = ak_updated_odds_name,
    .phase_word = "phase",
    .move_phases = 1u << AK_PHASE_MOVEMENT | 1u << AK_PHASE_MECH,
    .end_phase_phases = 1u << AK_PHASE_COMBAT | 1u << AK_PHASE_MECH | 1u << AK_PHASE_SUPPLY,
    .last_phase = AK_PHASE_REPLACEMENT,
    .supply_bombards = true,
    .half_points = true,
    .sequence_code = "UPD-SEQUENCE",
    .hazards = ak_hazards_updated,
    .result_name = ak_updated_result_name,
    .phases = 1u << AK_PHASE_MOVEMENT | 1u << AK_PHASE_COMBAT | 1u << AK_PHASE_MECH | 1u << AK_PHASE_SUPPLY |
              1u << AK_PHASE_REPLACEMENT | 1u << AK_PHASE_OVER,
    .possible_actions = ak_updated_possible_actions,
    .arrival_squares = ak_updated_entries,
    .start_player_turn = ak_updated_turn_start,
    .battle_preview = ak_updated_battle_preview,
    .declared_preview = ak_updated_declared_preview,
    .supply_map = ak_updated_supply_map,
    .isolation_map = ak_updated_isolation_map,
    .apply = {
        [AK_ACT_MOVE] = updated_move,
        [AK_ACT_PLACE] = ak_updated_place,
        [AK_ACT_END_MOVEMENT] = ak_updated_end_movement,
        [AK_ACT_END_PHASE] = ak_updated_end_phase,
        [AK_ACT_BURN_SUPPLY] = ak_updated_burn_supply,
        [AK_ACT_REBUILD] = ak_updated_rebuild,
        [AK_ACT_BREAK_OUT] = ak_updated_break_out,
        [AK_ACT_FORTIFY] = ak_updated_fortify,
        [AK_ACT_PORT_MOVE] = ak_updated_port_move,
        [AK_ACT_SUBSTITUTE] = updated_substitute,
        [AK_ACT_SUPPLY_ATTACKS] = ak_updated_supply_attacks,
        [AK_ACT_BATTLE] = ak_updated_battle,
        [AK_ACT_RESOLVE] = ak_updated_resolve,
        [AK_ACT_LOSSES] = ak_updated_losses,
        [AK_ACT_RETREAT] = updated_retreat,
        [AK_ACT_ADVANCE] = updated_advance,
        [AK_ACT_END_TURN] = ak_updated_end_turn,
        [AK_ACT_RESIGN] = ak_victory_concede,
        [AK_ACT_TIMEOUT] = ak_victory_concede,
        [AK_ACT_ADJUDICATE] = ak_victory_adjudicate,
    },
    .list = {
        [AK_ACT_PLACE] = ak_list_placements,
        [AK_ACT_BATTLE] = ak_list_battles,
        [AK_ACT_RESOLVE] = ak_list_resolutions,
        [AK_ACT_RETREAT] = ak_updated_list_retreats,
        [AK_ACT_ADVANCE] = ak_list_advances,
        [AK_ACT_BURN_SUPPLY] = ak_updated_list_burns,
        [AK_ACT_SUPPLY_ATTACKS] = ak_updated_list_supply_attacks,
        [AK_ACT_LOSSES] = ak_updated_list_losses,
        [AK_ACT_REBUILD] = ak_updated_list_rebuilds,
        [AK_ACT_FORTIFY] = ak_updated_list_fortify,
        [AK_ACT_PORT_MOVE] = ak_updated_list_port_moves,
        [AK_ACT_BREAK_OUT] = ak_updated_list_break_outs,
        [AK_ACT_END_MOVEMENT] = ak_list_end_movement,
        [AK_ACT_END_PHASE] = ak_list_end_phase,
        [AK_ACT_END_TURN] = ak_list_end_turn,
    },
};
