/* ak_batch: group commit.
 *
 * Every action accepted while a commit is in progress joins the next
 * batch; a check handle (which runs after the loop has read every socket
 * that was ready) hands the whole batch to the writer thread (ak_writer.c),
 * which writes it in one SQLite transaction, so one sync to disk serves
 * every game that moved meanwhile. The loop goes on refereeing the next
 * batch while this one is written. Only after the commit are the senders
 * answered and the pushes sent, in the order the actions came; a sender's
 * later requests wait (ak_conn_hold) so its replies stay in order. If a
 * commit fails, the games go back to their states before it (the actions
 * of the next batch, applied on top, go back too) and every sender gets an
 * "internal" error: nothing half-applied. The loop itself never waits for
 * the disk, except where a command must read the log (undo, record: they
 * flush).
 */
#include <stdlib.h>

#define SPARE_COMMITS_MAX 512
#define SNAPSHOT_EVERY 16
#define SLOW_COMMIT_NS 10000000

#include "ak_engine.h"
#include "ak_server.h"

struct ak_commit *ak_batch_commit_new(struct ak_server *srv)
{
    struct ak_commit *k = srv->spare_commits;
    if (!k)
        return calloc(1, sizeof *k);
    srv->spare_commits = k->next;
    srv->nspare_commits--;
    k->next = NULL;
    return k;
}

static void free_commit(struct ak_server *srv, struct ak_commit *k)
{
    if (k->job && k->job->release)
        k->job->release(k->data);
    else
        free(k->data);
    k->data = NULL;
    free(k->action_text);
    free(k->result_text);
    free(k->push_line);
    json_decref(k->id);
    if (srv->nspare_commits >= SPARE_COMMITS_MAX) {
        free(k);
        return;
    }
    /* Cleared field by field: the two states need not be. */
    struct ak_commit *spare = srv->spare_commits;
    k->job = NULL;
    k->g = NULL;
    k->action_text = NULL;
    k->has_snapshot = k->has_meta = k->new_turn = k->unstored = false;
    k->result_text = k->push_line = NULL;
    k->id = NULL;
    k->conn = NULL;
    k->next = spare;
    srv->spare_commits = k;
    srv->nspare_commits++;
}

static void on_idle(uv_idle_t *h)
{
    (void)h;    /* only keeps the loop from sleeping while a batch waits */
}

void ak_batch_wake(struct ak_server *srv)
{
    if (srv->loop && srv->keep_polling.data && !uv_is_closing((uv_handle_t *)&srv->keep_polling))
        uv_idle_start(&srv->keep_polling, on_idle);
}

/* What the writer needs, prepared on the loop: the game's number, and for
 * the game's last action in the batch, now and then (every SNAPSHOT_EVERY
 * actions, and at the end), a copy of its state as the snapshot (loading
 * replays the actions after it). */
static void prepare(struct ak_commit *batch)
{
    for (struct ak_commit *k = batch; k; k = k->next) {
        struct ak_game *g = k->g;
        if (g)
            k->game_id = g->id;
        if (k->job)
            continue;
        bool last_of_game = k->seq == g->state->actions;
        k->has_snapshot = last_of_game && (k->seq % SNAPSHOT_EVERY == 0 || g->state->phase == AK_PHASE_OVER ||
                                           g->snapshot_seq + SNAPSHOT_EVERY <= k->seq);
        if (k->has_snapshot) {
            k->snapshot = *g->state;
            g->snapshot_seq = k->seq;
        }
    }
}

/* Hand the pending batch to the writer, if it is free. */
static void start_commit(struct ak_server *srv)
{
    struct ak_commit *batch = srv->batch;
    if (!batch || ak_writer_busy(srv))
        return;
    /* Detached first: the actions accepted from now on make the next one. */
    srv->batch = NULL;
    srv->batch_tail = &srv->batch;
    prepare(batch);
    ak_writer_submit(srv, batch);
}

/* Every commit counts in the statistics (ak_stats.c); one that held its
 * actions up (a slow sync to disk) is worth knowing about when latency is
 * being investigated. */
static void log_slow_commit(const struct ak_commit *batch, uint64_t ns)
{
    int n = 0;
    for (const struct ak_commit *k = batch; k; k = k->next)
        n++;
    ak_stats_commit(ns, n);
    if (ns < SLOW_COMMIT_NS)
        return;
    ak_log(AK_LOG_DEBUG, "commit of %d actions took %.1f ms", n, (double)ns / 1e6);
}

static struct ak_commit *reversed(struct ak_commit *list)
{
    struct ak_commit *rev = NULL;
    while (list) {
        struct ak_commit *k = list;
        list = k->next;
        k->next = rev;
        rev = k;
    }
    return rev;
}

/* Undo a batch in memory, newest first (a game's oldest state wins). */
static void roll_back(struct ak_server *srv, struct ak_commit *batch)
{
    struct ak_commit *newest_first = reversed(batch);
    for (struct ak_commit *k = newest_first; k; k = k->next) {
        if (k->job) {
            if (k->job->undo)
                k->job->undo(srv, k);
            continue;
        }
        *k->g->state = k->prev;
        if (srv->hooks.game_rolled_back)
            srv->hooks.game_rolled_back(k);
    }
    reversed(newest_first);
}

static void answer_committed(struct ak_server *srv, struct ak_commit *k)
{
    if (k->g->stored_seq < k->seq)
        k->g->stored_seq = k->seq;      /* the log holds it now */
    if (k->conn)
        ak_conn_reply_ok_text(k->conn, k->id, k->result_text, k->result_len);
    ak_game_push_line(k->g, k->push_line, k->push_len);
    if (srv->hooks.game_stored)
        srv->hooks.game_stored(srv, k);
}

/* Answer one commit's sender (and free the commit): its action is
 * stored, or (k->unstored) it was undone. */
static void answer_one(struct ak_server *srv, struct ak_commit *k)
{
    const char *why = ak_writer_store_lost(srv) ? ak_writer_error(srv) : "the database could not store it";
    if (!k->unstored && k->job)
        k->job->answer(srv, k);
    else if (!k->unstored)
        answer_committed(srv, k);
    else if (k->conn)
        ak_conn_reply_error(k->conn, k->id, "internal", "%s; nothing changed%s%s", why,
                            k->job && k->job->unchanged ? ": " : "", k->job && k->job->unchanged ? k->job->unchanged : "");
    if (k->conn) {
        if (!k->conn->closing)
            ak_conn_resume(k->conn);
        ak_conn_unref(k->conn);
    }
    free_commit(srv, k);
}

/* At once: every commit of a list (a held list dropped). */
static void answer(struct ak_server *srv, struct ak_commit *list, bool ok)
{
    while (list) {
        struct ak_commit *k = list;
        list = k->next;
        k->unstored = !ok;
        answer_one(srv, k);
    }
}

/* Written batches wait in one line for their answers, answered in order
 * (a game's pushes, a sender's replies) but at most ANSWER_SLICE_NS of
 * the loop a turn: an answer may cost a third of a millisecond (a new
 * game's full state and its hazards for its creator), and 200 of them at
 * once stalled the loop for 60 ms. The loop keeps polling while some
 * wait. Their senders stay held until answered. */
#define ANSWER_SLICE_NS 2000000

static void answer_later(struct ak_server *srv, struct ak_commit *list, bool ok)
{
    for (struct ak_commit *k = list; k; k = k->next)
        k->unstored = !ok;
    *srv->answers_tail = list;
    while (*srv->answers_tail)
        srv->answers_tail = &(*srv->answers_tail)->next;
}

static void answer_some(struct ak_server *srv, bool all)
{
    uint64_t start = uv_hrtime();
    while (srv->answers && (all || uv_hrtime() - start < ANSWER_SLICE_NS)) {
        struct ak_commit *k = srv->answers;
        srv->answers = k->next;
        if (!srv->answers)
            srv->answers_tail = &srv->answers;
        answer_one(srv, k);
    }
    if (srv->answers)
        ak_batch_wake(srv);
}

/* The writer is done with a batch: its answers wait their turn. If it
 * failed, the pending batch was built on states that are not stored: it
 * fails too. */
static void finish(struct ak_server *srv, struct ak_commit *batch, int rc, uint64_t ns)
{
    log_slow_commit(batch, ns);
    /* for /healthz, copied now, while the writer is idle (between this
     * batch and the next): the loop never asks its connection later */
    srv->commit_failing = rc != AK_STORE_OK;
    srv->store_lost = rc != AK_STORE_OK && ak_writer_store_lost(srv);
    snprintf(srv->commit_error, sizeof srv->commit_error, "%s", rc != AK_STORE_OK ? ak_writer_error(srv) : "");
    if (rc == AK_STORE_OK) {
        answer_later(srv, batch, true);
        answer_some(srv, false);
        return;
    }
    ak_log(AK_LOG_ERROR, "group commit failed (%s); %s",
           ak_writer_store_lost(srv) ? "the database file was deleted or replaced: restore it and restart akd"
                                     : "see the database's state",
           srv->batch ? "it and the next batch are undone" : "undone");
    struct ak_commit *next = srv->batch;
    srv->batch = NULL;
    srv->batch_tail = &srv->batch;
    roll_back(srv, next);
    roll_back(srv, batch);
    answer_later(srv, batch, false);
    answer_later(srv, next, false);
    answer_some(srv, false);
}

/* Answer the batch the writer is done with (waiting for it, or not). */
static void finish_written(struct ak_server *srv, bool wait)
{
    int rc;
    uint64_t ns;
    struct ak_commit *batch = ak_writer_take(srv, wait, &rc, &ns);
    if (batch)
        finish(srv, batch, rc, ns);
}

/* The writer woke the loop: answer the batch written, start the next. */
static void on_written(struct ak_server *srv)
{
    finish_written(srv, false);
    start_commit(srv);
    ak_batch_wake(srv);     /* the check handle writes the answers out */
}

/* After the loop has read every ready socket: start committing the
 * actions accepted, and write each connection's replies and pushes at
 * once. The loop sleeps while the writer works (it wakes the loop). */
static void on_check(uv_check_t *h)
{
    struct ak_server *srv = h->data;
    answer_some(srv, false);
    start_commit(srv);
    ak_conn_flush_all(srv);
    ak_log_flush();     /* the turn's log lines, in one write */
    if ((!srv->batch || ak_writer_busy(srv)) && !srv->dirty && !srv->answers)
        uv_idle_stop(&srv->keep_polling);
}

int ak_batch_start(struct ak_server *srv, char *err, size_t errlen)
{
    if (ak_writer_start(srv, on_written, err, errlen) != 0)
        return -1;
    ak_store_manual_checkpoints(srv->store);    /* the writer runs them */
    srv->batch = NULL;
    srv->batch_tail = &srv->batch;
    srv->answers = NULL;
    srv->answers_tail = &srv->answers;
    uv_check_init(srv->loop, &srv->flusher);
    uv_idle_init(srv->loop, &srv->keep_polling);
    srv->flusher.data = srv->keep_polling.data = srv;
    uv_check_start(&srv->flusher, on_check);
    return 0;
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

void ak_batch_hold(struct ak_held *h, struct ak_commit *k)
{
    k->next = NULL;
    *h->tail = k;
    h->tail = &k->next;
}

void ak_batch_add_held(struct ak_server *srv, struct ak_held *h)
{
    while (h->head) {
        struct ak_commit *k = h->head;
        h->head = k->next;
        k->next = NULL;
        ak_batch_add(srv, k);
    }
    h->tail = &h->head;
}

/* As for a failed commit: undone newest first, then freed. */
void ak_batch_drop_held(struct ak_server *srv, struct ak_held *h)
{
    roll_back(srv, h->head);
    answer(srv, h->head, false);
    h->head = NULL;
    h->tail = &h->head;
}

bool ak_batch_job(struct ak_server *srv, struct ak_conn *c, const json_t *id, const struct ak_job *job,
                  struct ak_game *g, void *data)
{
    struct ak_commit *k = ak_batch_commit_new(srv);
    if (!k) {
        if (job->undo) {    /* what was changed in memory goes back, as for a failed commit */
            struct ak_commit spare = {.job = job, .g = g, .data = data, .user = c ? c->user : 0};
            job->undo(srv, &spare);
        }
        if (job->release)
            job->release(data);
        else
            free(data);
        if (c)
            ak_conn_reply_error(c, id, "internal", "out of memory; nothing changed");
        return false;
    }
    k->job = job;
    k->g = g;
    k->data = data;
    k->conn = c;
    k->id = id ? json_deep_copy(id) : NULL;
    k->user = c ? c->user : 0;
    ak_batch_add(srv, k);
    return true;
}

/* Wait for the batch in flight, answer it; then the same for what was
 * pending. Answers may start new actions (queued requests resume): those
 * wait for the next check. */
void ak_batch_flush(struct ak_server *srv)
{
    finish_written(srv, true);
    start_commit(srv);
    finish_written(srv, true);
    answer_some(srv, true);
}

void ak_batch_stop(struct ak_server *srv)
{
    while (srv->batch || ak_writer_busy(srv) || srv->answers)
        ak_batch_flush(srv);
    ak_writer_stop(srv);
    uv_close((uv_handle_t *)&srv->flusher, NULL);
    uv_close((uv_handle_t *)&srv->keep_polling, NULL);
    while (srv->spare_commits) {
        struct ak_commit *k = srv->spare_commits;
        srv->spare_commits = k->next;
        free(k);
    }
    srv->nspare_commits = 0;
}
