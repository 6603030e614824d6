/* ak_undo: taking back moves of the current movement portion.
 *
 * A player may take back his last action while it is a move, a placement
 * or an embarkation of his current movement portion that revealed nothing
 * new to the opponent: no capture, no Rommel escape, no automatic victory
 * (and no die is ever rolled by these). akd rebuilds the state before it by
 * replaying the game's log from its start, drops the action from the store
 * in one transaction with the rebuilt snapshot, and pushes
 * {"push":"undo","game","seq","by","action","patch"}: the action taken back
 * and the patch back to the earlier state, whose sequence number is seq.
 * Repeating undo walks further back.
 */
#include <string.h>

#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_patch.h"
#include "ak_server.h"

/* Why the last action cannot be taken back, or NULL if it can. */
static const char *not_undoable(const struct ak_state *before, const struct ak_action *last,
                                const struct ak_state *now, int side)
{
    struct ak_state again = *before;
    struct ak_events ev = {0};
    struct ak_reject rej;
    if (last->side != side)
        return "the last action is not yours";
    if (last->kind != AK_ACT_MOVE && last->kind != AK_ACT_PLACE && last->kind != AK_ACT_EMBARK)
        return "only moves, placements and embarkations can be taken back";
    if (before->phase != AK_PHASE_MOVEMENT || now->phase != AK_PHASE_MOVEMENT ||
        before->side != now->side || before->turn != now->turn)
        return "only actions of the current movement portion can be taken back";
    if (!ak_apply(&again, last, &ev, &rej))
        return "the game's log does not replay";
    for (int i = 0; i < ev.n; i++)
        if (ev.ev[i].kind == AK_EV_CAPTURED || ev.ev[i].kind == AK_EV_ROMMEL_DISPLACED ||
            ev.ev[i].kind == AK_EV_AUTO_VICTORY)
            return "that move revealed something to the opponent (a capture, Rommel's escape or an automatic victory)";
    return NULL;
}

void ak_cmd_undo(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    static struct ak_state before;
    struct ak_action last;
    int side;
    ak_batch_flush(c->srv);     /* the log must hold every action taken */
    struct ak_game *g = ak_game_player_arg(c, id, msg, &side);
    if (!g)
        return;
    if (g->state->actions == 0) {
        ak_conn_reply_error(c, id, "cannot_undo", "there is nothing to take back");
        return;
    }
    uint32_t upto = g->state->actions - 1;
    if (ak_game_replay(c->srv, g, g->state->ruleset, upto, &before, &last) != 0) {
        ak_conn_reply_error(c, id, "internal", "the game's log could not be replayed");
        return;
    }
    const char *why = not_undoable(&before, &last, g->state, side);
    if (why) {
        ak_conn_reply_error(c, id, "cannot_undo", "%s", why);
        return;
    }
    if (ak_store_game_truncate(c->srv->store, g->id, upto, &before, sizeof before) != AK_STORE_OK) {
        ak_conn_reply_error(c, id, "internal", "the store failed; nothing changed");
        return;
    }
    json_t *patch = ak_state_patch(g->state, &before);
    json_t *taken = ak_action_to_json_in(&last, &before);
    *g->state = before;
    g->snapshot_seq = upto;
    ak_log(AK_LOG_INFO, "game %lld: %s took back action %u", (long long)g->id, c->user_name, upto + 1);
    ak_conn_reply_ok(c, id, json_pack("{s:I,s:O}", "seq", (json_int_t)upto, "action", taken));
    json_t *push = json_pack("{s:s,s:I,s:I,s:s,s:o,s:o,s:o}", "push", "undo", "game", (json_int_t)g->id,
                             "seq", (json_int_t)upto, "by", side == AK_AXIS ? "axis" : "allied",
                             "action", taken, "patch", patch, "hazards", ak_hazards_to_json(g->state));
    ak_game_push(g, push);
    json_decref(push);
}
