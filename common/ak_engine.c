/* ak_engine: apply an action on a copy, commit it only when legal. */
#include "ak_engine.h"

#include <string.h>

static const char *const phase_names[] = {"movement", "combat", "over"};

static bool in_sequence(const struct ak_state *s, const struct ak_action *a, struct ak_reject *rej)
{
    if (s->phase == AK_PHASE_OVER)
        return ak_reject(rej, "PLAY-5", "the game is over");
    if (a->kind >= AK_ACT_KINDS)
        return ak_reject(rej, "ACTION", "unknown action");
    if (a->side != s->side)
        return ak_reject(rej, "PLAY-1", "it is the %s player's turn; no %s movement is allowed",
                         ak_side_name(s->side), ak_side_name(a->side));
    unsigned allowed = ak_possible_actions(s);
    if (!(allowed & (1u << a->kind)))
        return ak_reject(rej, "PLAY-2", "that is not possible in the %s portion of the turn",
                         phase_names[s->phase]);
    return true;
}

bool ak_apply(struct ak_state *s, const struct ak_action *a, struct ak_events *ev,
              struct ak_reject *rej)
{
    struct ak_state work;
    int mark = ev ? ev->n : 0;
    if (!in_sequence(s, a, rej))
        return false;
    for (int i = 0; i < a->nunits; i++)
        if (a->units[i] >= s->units)
            return ak_reject(rej, "ACTION", "unknown unit");
    const struct ak_ruleset *r = ak_ruleset_get(s->ruleset);
    memcpy(&work, s, sizeof work);
    if (!r->apply[a->kind](r, &work, a, ev, rej)) {
        if (ev)
            ev->n = mark;
        return false;
    }
    work.actions++;
    memcpy(s, &work, sizeof work);
    return true;
}

int ak_waiting_for(const struct ak_state *s)
{
    return s->phase == AK_PHASE_OVER ? AK_NOBODY : s->side;
}

unsigned ak_possible_actions(const struct ak_state *s)
{
    switch (s->phase) {
    case AK_PHASE_MOVEMENT:
        return 1u << AK_ACT_MOVE | 1u << AK_ACT_PLACE | 1u << AK_ACT_EMBARK |
               1u << AK_ACT_END_MOVEMENT;
    case AK_PHASE_COMBAT:
        return 1u << AK_ACT_DESTROY_SUPPLY | 1u << AK_ACT_END_TURN;
    default:
        return 0;
    }
}
