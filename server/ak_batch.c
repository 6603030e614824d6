/* ak_batch: group commit.
 *
 * Every action accepted during one turn of the libuv loop joins a batch;
 * a check handle (which runs after the loop has read every socket that was
 * ready) writes the whole batch in one SQLite transaction, so one sync to
 * disk serves every game that moved in that turn. Only after the commit are
 * the senders answered and the pushes sent, in the order the actions came;
 * a sender's later requests wait (ak_conn_hold) so its replies stay in
 * order. If the commit fails, the games go back to their states before the
 * batch and every sender gets an "internal" error: nothing half-applied.
 * The loop is blocked only for that one commit per turn: SQLite's own
 * checkpoints (which copy the write-ahead log into the database, with
 * syncs) are turned off and run every CHECKPOINT_EVERY commits on the
 * libuv work queue, on a connection of their own.
 */
#include <stdlib.h>

#define CHECKPOINT_EVERY 200
#define SNAPSHOT_EVERY 16
#define SLOW_COMMIT_NS 10000000

#include "ak_engine.h"
#include "ak_server.h"

static void free_commit(struct ak_commit *k)
{
    free(k->action_text);
    json_decref(k->events);
    json_decref(k->push);
    json_decref(k->id);
    free(k);
}

static void on_idle(uv_idle_t *h)
{
    (void)h;    /* only keeps the loop from sleeping while a batch waits */
}

/* After the loop has read every ready socket: commit the turn's actions,
 * then write each connection's replies and pushes at once. */
static void on_check(uv_check_t *h)
{
    struct ak_server *srv = h->data;
    ak_batch_flush(srv);
    ak_conn_flush_all(srv);
    if (!srv->batch && !srv->dirty)
        uv_idle_stop(&srv->keep_polling);
}

void ak_batch_wake(struct ak_server *srv)
{
    if (srv->loop && srv->keep_polling.data && !uv_is_closing((uv_handle_t *)&srv->keep_polling))
        uv_idle_start(&srv->keep_polling, on_idle);
}


struct checkpoint_work {
    uv_work_t req;
    struct ak_server *srv;
    int rc;
};

static void checkpoint_run(uv_work_t *req)
{
    struct checkpoint_work *w = req->data;
    w->rc = ak_store_checkpoint(w->srv->cfg.db);
}

static void checkpoint_done(uv_work_t *req, int status)
{
    struct checkpoint_work *w = req->data;
    if (status != 0 || w->rc != AK_STORE_OK)
        ak_log(AK_LOG_WARN, "WAL checkpoint did not complete");
    w->srv->checkpointing = false;
    free(w);
}

static void maybe_checkpoint(struct ak_server *srv)
{
    if (++srv->commits_since_checkpoint < CHECKPOINT_EVERY || srv->checkpointing)
        return;
    struct checkpoint_work *w = calloc(1, sizeof *w);
    if (!w)
        return;
    w->srv = srv;
    w->req.data = w;
    if (uv_queue_work(srv->loop, &w->req, checkpoint_run, checkpoint_done) == 0) {
        srv->checkpointing = true;
        srv->commits_since_checkpoint = 0;
    } else {
        free(w);
    }
}

void ak_batch_start(struct ak_server *srv)
{
    ak_store_manual_checkpoints(srv->store);
    srv->batch = NULL;
    srv->batch_tail = &srv->batch;
    uv_check_init(srv->loop, &srv->flusher);
    uv_idle_init(srv->loop, &srv->keep_polling);
    srv->flusher.data = srv->keep_polling.data = srv;
    uv_check_start(&srv->flusher, on_check);
}

void ak_batch_add(struct ak_server *srv, struct ak_commit *k)
{
    *srv->batch_tail = k;
    srv->batch_tail = &k->next;
    if (k->conn) {
        k->conn->refs++;
        ak_conn_hold(k->conn);
    }
    ak_batch_wake(srv);
}

static int store_all(struct ak_server *srv, struct ak_commit *batch)
{
    if (ak_store_begin(srv->store) != AK_STORE_OK)
        return AK_STORE_ERROR;
    for (struct ak_commit *k = batch; k; k = k->next) {
        /* The game's current state is the snapshot; it is written with the
         * game's last action in the batch, and then only every
         * SNAPSHOT_EVERY actions or at the end (loading replays the rest). */
        uint32_t seq = (uint32_t)json_integer_value(json_object_get(k->push, "seq"));
        bool last_of_game = seq == k->g->state.actions;
        bool snapshot = last_of_game && (seq % SNAPSHOT_EVERY == 0 || k->g->state.phase == AK_PHASE_OVER ||
                                         k->g->snapshot_seq + SNAPSHOT_EVERY <= seq);
        if (snapshot)
            k->g->snapshot_seq = seq;
        if (ak_store_game_append_rows(srv->store, k->g->id, seq, k->side, k->action_text, k->when,
                                      snapshot ? &k->g->state : NULL, sizeof k->g->state) != AK_STORE_OK) {
            ak_store_rollback(srv->store);
            return AK_STORE_ERROR;
        }
    }
    return ak_store_commit(srv->store);
}

/* A commit that held the loop up (a slow sync to disk) is worth knowing
 * about when latency is being investigated. */
static void log_slow_commit(const struct ak_commit *batch, uint64_t ns)
{
    if (ns < SLOW_COMMIT_NS)
        return;
    int n = 0;
    for (const struct ak_commit *k = batch; k; k = k->next)
        n++;
    ak_log(AK_LOG_DEBUG, "commit of %d actions took %.1f ms", n, (double)ns / 1e6);
}

/* Undo the batch in memory, newest first. */
static void roll_back(struct ak_commit *batch)
{
    struct ak_commit *order[4096];
    int n = 0;
    for (struct ak_commit *k = batch; k && n < 4096; k = k->next)
        order[n++] = k;
    while (n-- > 0) {
        order[n]->g->state = order[n]->prev;
    }
}

void ak_batch_flush(struct ak_server *srv)
{
    struct ak_commit *batch = srv->batch;
    if (!batch)
        return;
    /* Detach first: replies resume connections, whose queued requests may
     * start the next batch. */
    srv->batch = NULL;
    srv->batch_tail = &srv->batch;
    /* Each game's snapshot is its state after its last action in the
     * batch: append in order, with the state current now, is right for
     * the last row of each game and harmless for the earlier ones. */
    uint64_t t0 = uv_hrtime();
    bool ok = store_all(srv, batch) == AK_STORE_OK;
    log_slow_commit(batch, uv_hrtime() - t0);
    if (ok)
        maybe_checkpoint(srv);
    if (!ok) {
        ak_log(AK_LOG_ERROR, "group commit failed: %s", ak_store_error(srv->store));
        roll_back(batch);
    }
    while (batch) {
        struct ak_commit *k = batch;
        batch = k->next;
        if (ok) {
            if (k->conn)
                ak_conn_reply_ok(k->conn, k->id, json_pack("{s:O,s:O}", "seq",
                                                           json_object_get(k->push, "seq"),
                                                           "events", k->events));
            ak_game_push(k->g, k->push);
            ak_clock_reset(srv, k->g, k->new_turn || ak_waiting_for(&k->g->state) != k->waiting_before);
            ak_game_notify_after(srv, k->g, k->waiting_before);
            if (k->prev.phase != AK_PHASE_OVER && k->g->state.phase == AK_PHASE_OVER)
                ak_ladder_game_over(srv, k->g);
        } else if (k->conn) {
            ak_conn_reply_error(k->conn, k->id, "internal", "the action could not be stored; nothing changed");
        }
        if (k->conn) {
            if (!k->conn->closing)
                ak_conn_resume(k->conn);
            ak_conn_unref(k->conn);
        }
        free_commit(k);
    }
}

void ak_batch_stop(struct ak_server *srv)
{
    ak_batch_flush(srv);
    uv_close((uv_handle_t *)&srv->flusher, NULL);
    uv_close((uv_handle_t *)&srv->keep_polling, NULL);
}
