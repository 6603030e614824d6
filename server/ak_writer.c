/* ak_writer: the thread that writes group commits to SQLite.
 *
 * The loop hands a batch of actions (ak_batch.c) to this thread and goes
 * on reading and refereeing the next requests while the batch is written
 * and synced to disk on a database connection of its own; when it is done
 * the thread wakes the loop (an async handle) and the loop answers the
 * batch's senders. One batch is in flight at a time, so commits stay in
 * order. Everything the thread reads was prepared on the loop before the
 * hand-off (the action's text, its number, a copy of the state for a
 * snapshot, the game's new deadline): it never touches a game the loop
 * may be changing.
 *
 * The loop's own connection keeps the other writes (accounts, lobby,
 * ratings); SQLite's write lock orders the two, and a loop write waits for
 * the one commit in progress to end (wait_for_writer: woken when it does,
 * where SQLite's own busy handler would sleep a millisecond or more).
 *
 * Checkpoints copy the write-ahead log into the database, so that the log
 * can start over (a log rewritten in place syncs faster than one that
 * grows, and does not fill the disk). The writer runs one when the log
 * holds CHECKPOINT_FRAMES pages, after answering a batch and before
 * writing the next: between two of its own transactions it copies the whole log,
 * and its next commit starts the log over. (A checkpoint on another
 * connection, racing the commits, never caught up: the log grew without
 * end and its syncs grew slower.)
 */
#include <stdio.h>
#include <stdlib.h>

#include "ak_server.h"

#define CHECKPOINT_FRAMES 1000     /* SQLite's own default: about 4 MiB of log */

struct ak_writer {
    uv_thread_t thread, checkpoint_thread;
    uv_mutex_t lock;
    uv_cond_t changed;          /* the writer's work, or the checkpointer's, changed */
    uv_async_t wake_loop;
    struct ak_store *store;
    struct ak_commit *job;      /* the batch in flight, NULL: idle */
    bool done;                  /* the job is written (or failed) */
    int rc;                     /* its AK_STORE_ result */
    uint64_t submitted, ns;     /* when it was handed over, how long it took */
    bool quit;
    void (*on_done)(struct ak_server *srv);
    struct ak_store *checkpointer;
    bool checkpointer_started;
    bool copy_log;              /* the checkpointer's turn */
    bool catch_up;              /* then the writer's */
};

static int write_action(struct ak_store *st, struct ak_commit *k)
{
    int rc = ak_store_game_append_rows(st, k->game_id, k->seq, k->side, k->action_text, k->nonce, k->when,
                                       k->has_snapshot ? &k->snapshot : NULL, sizeof k->snapshot);
    if (rc == AK_STORE_OK && k->has_meta)
        rc = ak_store_game_set_meta(st, k->game_id, &k->meta);
    if (rc == AK_STORE_OK)
        rc = ak_ladder_write(st, k);
    return rc;
}

static int write_batch(struct ak_store *st, struct ak_commit *batch)
{
    if (ak_store_begin(st) != AK_STORE_OK)
        return AK_STORE_ERROR;
    for (struct ak_commit *k = batch; k; k = k->next)
        if ((k->job ? k->job->write(st, k) : write_action(st, k)) != AK_STORE_OK) {
            ak_store_rollback(st);
            return AK_STORE_ERROR;
        }
    return ak_store_commit(st);
}

/* Called with the lock held, after a commit. */
static void maybe_start_checkpoint(struct ak_writer *w)
{
    if (ak_store_wal_frames(w->store) >= CHECKPOINT_FRAMES && !w->copy_log && !w->catch_up) {
        w->copy_log = true;
        uv_cond_broadcast(&w->changed);
    }
}

/* Run a step of a checkpoint on st, unlocked. */
static void checkpoint_unlocked(struct ak_writer *w, struct ak_store *st)
{
    uv_mutex_unlock(&w->lock);
    ak_store_checkpoint(st, NULL, NULL);
    uv_mutex_lock(&w->lock);
}

static void checkpointer_main(void *arg)
{
    struct ak_writer *w = arg;
    uv_mutex_lock(&w->lock);
    for (;;) {
        while (!w->quit && !w->copy_log)
            uv_cond_wait(&w->changed, &w->lock);
        if (w->quit)
            break;
        checkpoint_unlocked(w, w->checkpointer);
        w->copy_log = false;
        w->catch_up = true;
        uv_cond_broadcast(&w->changed);
    }
    uv_mutex_unlock(&w->lock);
}

static void writer_main(void *arg)
{
    struct ak_writer *w = arg;
    uv_mutex_lock(&w->lock);
    for (;;) {
        while (!w->quit && !w->catch_up && (!w->job || w->done))
            uv_cond_wait(&w->changed, &w->lock);
        if (w->quit)
            break;
        if (w->catch_up) {
            checkpoint_unlocked(w, w->store);
            w->catch_up = false;
            continue;
        }
        struct ak_commit *batch = w->job;
        uv_mutex_unlock(&w->lock);
        int rc = write_batch(w->store, batch);
        uv_mutex_lock(&w->lock);
        w->rc = rc;
        w->ns = uv_hrtime() - w->submitted;
        w->done = true;
        uv_cond_broadcast(&w->changed);
        uv_async_send(&w->wake_loop);
        if (rc == AK_STORE_OK)
            maybe_start_checkpoint(w);
    }
    uv_mutex_unlock(&w->lock);
}

bool ak_writer_store_lost(const struct ak_server *srv)
{
    return srv->writer && ak_store_lost(srv->writer->store);
}

const char *ak_writer_error(const struct ak_server *srv)
{
    return ak_store_error(srv->writer->store);
}

/* The loop's connection found the write lock taken: by the writer (wait
 * for its commit to end), or by something else (a tool: poll). */
static int wait_for_writer(void *ud, int tries)
{
    struct ak_writer *w = ud;
    if (tries >= 5000)
        return 0;
    uv_mutex_lock(&w->lock);
    bool writing = w->job && !w->done;
    if (writing)
        uv_cond_timedwait(&w->changed, &w->lock, 100 * 1000 * 1000);
    uv_mutex_unlock(&w->lock);
    if (!writing)
        uv_sleep(1);
    return 1;
}

static void on_wake_loop(uv_async_t *h)
{
    struct ak_server *srv = h->data;
    srv->writer->on_done(srv);
}

static void on_closed(uv_handle_t *h)
{
    struct ak_writer *w = h->data;
    uv_mutex_destroy(&w->lock);
    uv_cond_destroy(&w->changed);
    free(w);
}

int ak_writer_start(struct ak_server *srv, void (*on_done)(struct ak_server *srv), char *err,
                    size_t errlen)
{
    struct ak_writer *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    w->store = ak_store_open(srv->cfg.db, err, errlen);
    if (!w->store) {
        free(w);
        return -1;
    }
    w->checkpointer = ak_store_open(srv->cfg.db, err, errlen);
    if (!w->checkpointer) {
        ak_store_close(w->store);
        free(w);
        return -1;
    }
    ak_store_manual_checkpoints(w->store);
    ak_store_manual_checkpoints(w->checkpointer);
    ak_store_set_sync(w->store, srv->cfg.sync_full);
    ak_store_set_sync(w->checkpointer, srv->cfg.sync_full);
    w->on_done = on_done;
    uv_mutex_init(&w->lock);
    uv_cond_init(&w->changed);
    uv_async_init(srv->loop, &w->wake_loop, on_wake_loop);
    w->wake_loop.data = srv;
    if (uv_thread_create(&w->thread, writer_main, w) != 0) {
        snprintf(err, errlen, "cannot start the writer thread");
        ak_store_close(w->store);
        ak_store_close(w->checkpointer);
        w->wake_loop.data = w;
        uv_close((uv_handle_t *)&w->wake_loop, on_closed);
        return -1;
    }
    w->checkpointer_started = uv_thread_create(&w->checkpoint_thread, checkpointer_main, w) == 0;
    if (!w->checkpointer_started) {
        snprintf(err, errlen, "cannot start the checkpoint thread");
        srv->writer = w;
        ak_writer_stop(srv);
        return -1;
    }
    srv->writer = w;
    ak_store_set_busy_wait(srv->store, wait_for_writer, w);
    return 0;
}

bool ak_writer_busy(const struct ak_server *srv)
{
    return srv->writer && srv->writer->job;     /* only the loop sets and clears it */
}

uint64_t ak_writer_in_flight_ns(const struct ak_server *srv)
{
    /* job and submitted are set by the loop only (ak_writer_submit) */
    return ak_writer_busy(srv) ? uv_hrtime() - srv->writer->submitted : 0;
}

void ak_writer_submit(struct ak_server *srv, struct ak_commit *batch)
{
    struct ak_writer *w = srv->writer;
    uv_mutex_lock(&w->lock);
    w->job = batch;
    w->done = false;
    w->submitted = uv_hrtime();
    uv_cond_broadcast(&w->changed);
    uv_mutex_unlock(&w->lock);
}

struct ak_commit *ak_writer_take(struct ak_server *srv, bool wait, int *rc, uint64_t *ns)
{
    struct ak_writer *w = srv->writer;
    struct ak_commit *batch = NULL;
    if (!w)
        return NULL;
    uv_mutex_lock(&w->lock);
    while (wait && w->job && !w->done)
        uv_cond_wait(&w->changed, &w->lock);
    if (w->job && w->done) {
        batch = w->job;
        *rc = w->rc;
        *ns = w->ns;
        w->job = NULL;
        w->done = false;
    }
    uv_mutex_unlock(&w->lock);
    return batch;
}

void ak_writer_stop(struct ak_server *srv)
{
    struct ak_writer *w = srv->writer;
    if (!w)
        return;
    ak_store_set_busy_wait(srv->store, NULL, NULL);
    uv_mutex_lock(&w->lock);
    w->quit = true;
    uv_cond_broadcast(&w->changed);
    uv_mutex_unlock(&w->lock);
    uv_thread_join(&w->thread);
    if (w->checkpointer_started)
        uv_thread_join(&w->checkpoint_thread);
    ak_store_close(w->store);
    ak_store_close(w->checkpointer);
    srv->writer = NULL;
    w->wake_loop.data = w;
    uv_close((uv_handle_t *)&w->wake_loop, on_closed);
}
