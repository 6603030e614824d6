/* ak_victory: the three ways the game ends. */
#include "ak_victory.h"

#include <string.h>

#include "ak_combat.h"

const char *ak_win_reason_name(int reason)
{
    static const char *const n[] = {"none", "elimination", "key_squares", "denial",
                                    "resignation", "time", "adjudication"};
    return reason >= 0 && reason <= AK_WIN_ADJUDICATION ? n[reason] : "?";
}

void ak_victory_declare(struct ak_state *s, int winner, int reason, struct ak_events *ev)
{
    s->phase = AK_PHASE_OVER;
    s->result = winner == AK_AXIS ? AK_RESULT_AXIS_WINS : AK_RESULT_ALLIED_WINS;
    s->result_reason = (uint8_t)reason;
    memset(&s->pending, 0, sizeof s->pending);
    ak_event_add(ev, AK_EV_GAME_OVER, winner, AK_UNIT_NONE, AK_UNIT_NONE, AK_HEX_NONE,
                 AK_HEX_NONE, s->result, reason, s->turn);
}

bool ak_victory_by_elimination(struct ak_state *s, struct ak_events *ev)
{
    /* The side whose turn it is is judged last: if both are wiped out in
     * one exchange, the attacker's loss counts first. */
    for (int i = 0; i < AK_SIDES; i++) {
        int side = i == 0 ? s->side : !s->side;
        if (ak_combat_units_left(s, side) == 0) {
            ak_victory_declare(s, !side, AK_WIN_ELIMINATION, ev);
            return true;
        }
    }
    return false;
}

bool ak_victory_by_key_squares(struct ak_state *s, struct ak_events *ev)
{
    bool all = true;
    for (int k = 0; k < AK_KEYS; k++)
        all = all && s->control[k] == s->side;
    s->hold_turns[s->side] = all ? (uint8_t)(s->hold_turns[s->side] + 1) : 0;
    if (s->hold_turns[s->side] < 2)
        return false;
    ak_victory_declare(s, s->side, AK_WIN_KEY_SQUARES, ev);
    return true;
}

bool ak_victory_concede(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                        struct ak_events *ev, struct ak_reject *rej)
{
    (void)r;
    (void)rej;
    ak_victory_declare(s, !a->side, a->kind == AK_ACT_TIMEOUT ? AK_WIN_TIME : AK_WIN_RESIGNATION, ev);
    return true;
}

/* Not a rule of the game: an operator decides it (an abandoned or stuck
 * correspondence game, a tournament's deadline). The action's side is the
 * winner, AK_NOBODY a draw; it is in the game's log like any action, so
 * the record replays to the same end. */
bool ak_victory_adjudicate(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                           struct ak_events *ev, struct ak_reject *rej)
{
    (void)r;
    (void)rej;
    if (a->side < AK_SIDES) {
        ak_victory_declare(s, a->side, AK_WIN_ADJUDICATION, ev);
        return true;
    }
    s->phase = AK_PHASE_OVER;
    s->result = AK_RESULT_DRAW;
    s->result_reason = AK_WIN_ADJUDICATION;
    memset(&s->pending, 0, sizeof s->pending);
    ak_event_add(ev, AK_EV_GAME_OVER, AK_NOBODY, AK_UNIT_NONE, AK_UNIT_NONE, AK_HEX_NONE, AK_HEX_NONE, s->result,
                 AK_WIN_ADJUDICATION, s->turn);
    return true;
}
