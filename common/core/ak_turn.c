/* ak_turn: what every edition does as player turns begin and end (control
 * of the key squares, the reset, stacking, passing the turn on); the
 * 1964 sequence itself is rules/classic/ak_classic_turn.c. */
#include "ak_turn.h"

#include <string.h>

#include "ak_battle.h"
#include "ak_capture.h"
#include "ak_combat.h"
#include "ak_logistics.h"
#include "ak_stacking.h"
#include "ak_victory.h"
#include "ak_zoc.h"

int ak_control_now(const struct ak_state *s, int key)
{
    ak_hex h = ak_key_hex(key);
    for (int side = 0; side < AK_SIDES; side++) {
        if (!ak_side_occupies(s, h, side))
            continue;
        /* CONTROL: a home base must also be out of enemy zones of control. */
        if ((key == AK_KEY_AXIS_BASE || key == AK_KEY_ALLIED_BASE) && ak_in_enemy_zoc(s, h, side))
            return AK_NOBODY;
        return side;
    }
    return AK_NOBODY;
}

bool ak_tobruch_besieged(const struct ak_state *s, int side)
{
    ak_hex t = ak_map()->tobruch;
    for (int u = 0; u < s->units; u++)
        if (s->unit[u].where == AK_AT_BOARD && ak_def(u)->side != side &&
            ak_unit_is_combat(ak_def(u)) && ak_adjacent(s->unit[u].hex, t))
            return true;
    return false;
}

void ak_turn_reset(struct ak_state *s, struct ak_events *ev)
{
    for (int k = 0; k < AK_KEYS; k++)
        s->control[k] = (uint8_t)ak_control_now(s, k);
    for (int u = 0; u < s->units; u++) {
        struct ak_unit *x = &s->unit[u];
        x->mp_spent = x->road_spent = x->rommel_spent = 0;
        x->flags = 0;
        x->battle = 0;
        x->start_hex = x->where == AK_AT_BOARD ? x->hex : AK_HEX_NONE;
    }
    s->nbattles = 0;
    s->combat_locked = 0;
    memset(&s->pending, 0, sizeof s->pending);
    ak_event_add(ev, AK_EV_TURN, s->side, AK_UNIT_NONE, AK_UNIT_NONE, AK_HEX_NONE,
                 AK_HEX_NONE, s->turn, 0, 0);
}

bool ak_turn_stacking_ok(const struct ak_ruleset *r, const struct ak_state *s, int side,
                         struct ak_reject *rej)
{
    char a[8];
    /* Combat units counted square by square first: only a square over the
     * lowest limit the ruleset has is looked at unit by unit. */
    static uint8_t count[AK_HEX_COUNT];
    memset(count, 0, sizeof count);
    for (int u = 0; u < s->units; u++)
        if (s->unit[u].where == AK_AT_BOARD && ak_def(u)->side == side && ak_unit_is_combat(ak_def(u)))
            count[s->unit[u].hex]++;
    int lowest = r->italian_stack_limit > 0 && r->italian_stack_limit < r->stack_limit ? r->italian_stack_limit
                                                                                       : r->stack_limit;
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit *x = &s->unit[u];
        if (x->where == AK_AT_BOARD && ak_def(u)->side == side && count[x->hex] > lowest &&
            !ak_stack_room(r, s, x->hex, side, NULL, 0, NULL)) {
            int limit = ak_stack_limit(r, s, x->hex, side, NULL, 0);
            return ak_reject(rej, limit < r->stack_limit ? "UPD-STACK" : "STACK-1",
                             "%s holds %d combat units; move some away before ending the movement portion (the limit is %d%s)",
                             ak_hex_format(x->hex, a), ak_combat_units_at(s, x->hex, side), limit,
                             limit < r->stack_limit ? " with an Italian division there" : "");
        }
    }
    return true;
}

/* REINFORCEMENTS 7: units not in play by the last October 1942 turn are
 * eliminated. A unit the Updated ruleset keeps in its side's off-board box
 * (shipped there or bought back into it) is in play. */
static void lose_late_reinforcements(struct ak_state *s, int side, struct ak_events *ev)
{
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit_def *d = ak_def(u);
        if (d->side == side && d->arrival_turn > 0 && s->unit[u].where == AK_AT_POOL &&
            !(s->unit[u].marks & AK_MARK_IN_BOX)) {
            s->unit[u].where = AK_AT_DEAD;
            ak_event_add(ev, AK_EV_NEVER_ARRIVED, side, u, AK_UNIT_NONE, AK_HEX_NONE,
                         AK_HEX_NONE, 0, 0, 0);
        }
    }
}

void ak_turn_pass(const struct ak_ruleset *r, struct ak_state *s, struct ak_events *ev)
{
    if (ak_victory_by_elimination(s, ev))
        return;
    if (s->turn == ak_data()->scenario.turns)
        lose_late_reinforcements(s, s->side, ev);
    if (s->side == AK_AXIS) {
        s->side = AK_ALLIED;
    } else if (s->turn == ak_data()->scenario.turns) {
        /* HOW TO WIN: the Allied player wins by avoiding the German
         * conditions of victory by his last October 1942 turn. */
        ak_victory_declare(s, AK_ALLIED, AK_WIN_DENIAL, ev);
        return;
    } else {
        s->side = AK_AXIS;
        s->turn++;
    }
    s->phase = AK_PHASE_MOVEMENT;
    r->start_player_turn(s, ev);
}

