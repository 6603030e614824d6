/* ak_movement_end: the end of a 1964 movement portion (the ruleset's
 * END_MOVEMENT): stacking, supply units' adjacency and sustaining checked,
 * units left at sea lost, ISOLATION 1's count of turns without a supply
 * unit on board, Rommel's isolation, supply not taken forfeited; then the
 * combat portion. The Updated variant ends its portions its own way
 * (ak_updated_turn.c). */
#include "ak_classic.h"

#include "ak_battle.h"
#include "ak_capture.h"
#include "ak_combat.h"
#include "ak_logistics.h"
#include "ak_sustain.h"
#include "ak_turn.h"
#include "ak_victory.h"

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

