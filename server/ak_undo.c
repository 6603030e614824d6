/* ak_undo: taking back moves of the current movement portion.
 *
 * A player may take back his last action while it is a move, a placement
 * or an embarkation of his current movement portion that revealed nothing
 * new to the opponent: no capture, no Rommel escape, no automatic victory
 * (and no die is ever rolled by these). The state before it comes from
 * memory: each game keeps the states before its last undoable actions
 * (ak_undo_note in ak_undo_steps.c, a few a game in a bounded number of
 * games, dropped at the first other action), so an undo costs the loop a copy. Only when
 * memory has none (after a restart, past the bounds) is the game's log
 * replayed from its start, after the pending batch is written; that costs
 * one of the account's writes_per_minute. Either way the action is
 * dropped from the store, with the rebuilt snapshot, in the
 * next group commit (never a sync of its own on the loop), the state goes
 * back at once (a failed commit puts it forward again), and once stored
 * the player is answered and the watchers get
 * {"push":"undo","game","seq","by","action","patch"}: the action taken
 * back and the patch back to the earlier state, whose sequence number is
 * seq. Repeating undo walks further back. An undo is queued behind
 * actions.
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

/* The undo on its way to the store: the log cut after `upto`, with the
 * state there as the snapshot. */
struct undo_change {
    uint32_t upto;
    int side;
    char by[64];
    struct ak_state before, after;      /* after: the state the undo took back, for a failed commit */
    struct ak_action action;
    uint32_t snapshot_seq;              /* the game's before the undo */
};

static int undo_write(struct ak_store *st, const struct ak_commit *k)
{
    const struct undo_change *u = k->data;
    return ak_store_game_truncate_rows(st, k->game_id, u->upto, &u->before, sizeof u->before);
}

static void undo_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct undo_change *u = k->data;
    struct ak_game *g = k->g;
    (void)srv;
    if (g->stored_seq > u->upto)
        g->stored_seq = u->upto;    /* the log was cut */
    if (g->undos_unstored > 0)
        g->undos_unstored--;
    json_t *patch = ak_state_patch(&u->after, &u->before);
    json_t *taken = ak_action_to_json_in(&u->action, &u->before);
    ak_log_with(AK_LOG_INFO, AK_LOG_GAME(g->id), "game %lld: %s took back action %u", (long long)g->id, u->by, u->upto + 1);
    if (k->conn)
        ak_conn_reply_ok(k->conn, k->id, json_pack("{s:I,s:O}", "seq", (json_int_t)u->upto, "action", taken));
    json_t *push = json_pack("{s:s,s:I,s:I,s:s,s:o,s:o,s:o}", "push", "undo", "game", (json_int_t)g->id,
                             "seq", (json_int_t)u->upto, "by", u->side == AK_AXIS ? "axis" : "allied",
                             "action", taken, "patch", patch, "hazards", ak_hazards_to_json(&u->before));
    json_t *odds = ak_game_odds(&u->before);
    if (odds)
        json_object_set_new(push, "odds", odds);
    ak_game_push(g, push);
    json_decref(push);
}

static void undo_undo(struct ak_server *srv, struct ak_commit *k)
{
    const struct undo_change *u = k->data;
    (void)srv;
    *k->g->state = u->after;
    k->g->snapshot_seq = u->snapshot_seq;
    if (k->g->undos_unstored > 0)
        k->g->undos_unstored--;
    ak_undo_forget(k->g);
}

static const struct ak_job undo_job = {undo_write, undo_answer, undo_undo, NULL, "the action stands"};

/* The state before g's last action and that action: from memory, else
 * by replaying the log (after the pending batch is written). */
static bool state_before_last(struct ak_conn *c, struct ak_game *g, struct ak_state *before, struct ak_action *last)
{
    if (g->nundo > 0) {
        *before = g->undo[g->nundo - 1].before;
        *last = g->undo[g->nundo - 1].action;
        return true;
    }
    ak_batch_flush(c->srv);     /* the log must hold every action taken */
    return ak_game_load(c->srv, g) == 0 &&
           ak_game_replay(c->srv, g, g->state->ruleset, g->state->actions - 1, before, last) == 0;
}

void ak_cmd_undo(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    int side;
    struct ak_game *g = ak_game_player_arg(c, id, msg, &side);
    if (!g)
        return;
    if (g->state->actions == 0) {
        ak_conn_reply_error(c, id, "cannot_undo", "there is nothing to take back");
        return;
    }
    struct undo_change *u = malloc(sizeof *u);
    if (!u) {
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing changed");
        return;
    }
    /* Past what memory keeps, an undo waits for the batch and replays the
     * game's log: it then costs one of the account's small writes, so
     * that a player cannot make akd replay long games without end. */
    const struct ak_config *cfg = &c->srv->cfg;
    uint64_t key = ak_budget_user_key(c->user), now = uv_now(c->srv->loop);
    if (g->nundo == 0 && !ak_budget_charge(cfg, AK_BUDGET_WRITES, key, 1, now)) {
        free(u);
        ak_conn_reply_error(c, id, "rate_limited", "an undo past the last moves kept in memory replays the game "
                            "and counts as a change (%d a minute); try again in %.0f s", cfg->writes_per_minute,
                            ak_budget_wait(cfg, AK_BUDGET_WRITES, key, 1, now) + 0.5);
        return;
    }
    if (!state_before_last(c, g, &u->before, &u->action)) {
        free(u);
        ak_conn_reply_error(c, id, "internal", "the game's log could not be replayed");
        return;
    }
    const char *why = not_undoable(&u->before, &u->action, g->state, side);
    if (why) {
        free(u);
        ak_conn_reply_error(c, id, "cannot_undo", "%s", why);
        return;
    }
    u->upto = g->state->actions - 1;
    u->side = side;
    u->after = *g->state;
    u->snapshot_seq = g->snapshot_seq;
    snprintf(u->by, sizeof u->by, "%s", c->user_name);
    *g->state = u->before;          /* at once, like an action: the next one applies to it */
    g->snapshot_seq = u->upto;      /* the write stores the snapshot there */
    if (g->nundo > 0 && --g->nundo == 0)
        ak_undo_forget(g);      /* nothing left to keep: the memory goes back */
    if (ak_batch_job(c->srv, c, id, &undo_job, g, u))
        g->undos_unstored++;    /* till then the log still holds what was taken back */
}
