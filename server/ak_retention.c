/* ak_retention: how long akd keeps what it need not keep for ever
 * (issue 33; docs/operations.md, "Personal data and how long akd keeps
 * it"). Chat: with chat_keep_days set, messages older than that are
 * deleted with their reports, RETENTION_BATCH at a time in a group commit
 * (never a long write on the loop), once an hour, and again at the next
 * tick while a whole batch went (a backlog drains in seconds).
 *
 * Finished games: with games_keep_days set, a game over or called off
 * that last moved longer ago than that goes with its actions, snapshot,
 * chat and rating changes (the ratings stay: they are the sum of what
 * was played); a tournament's pairings stay, its standings are counted
 * from them. The games in memory are looked at GAMES_LOOKED at a time
 * from a cursor (the writer reads each one's last move, one indexed
 * lookup), at most GAMES_BATCH deleted a commit, once an hour and again
 * at the next tick while the cursor has not gone round. A game looked at
 * is marked expiring until the commit is answered: nobody finds it
 * meanwhile (ak_game_find), so no chat, report or watch of it can follow
 * its deletion into a batch, and the ones before it are answered before
 * it is freed. */
#include <stdlib.h>
#include <string.h>

#include "ak_server.h"

#define RETENTION_BATCH 1000
#define RETENTION_EVERY 3600

struct expiry {
    int64_t before;
    int deleted;
};

static bool running;
static int64_t next_run;

static int expire_write(struct ak_store *st, const struct ak_commit *k)
{
    struct expiry *e = k->data;
    return ak_store_chat_expire(st, e->before, RETENTION_BATCH, &e->deleted);
}

static void expire_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct expiry *e = k->data;
    (void)srv;
    running = false;
    if (e->deleted)
        ak_log(AK_LOG_INFO, "chat retention: %d messages older than chat_keep_days deleted", e->deleted);
    if (e->deleted == RETENTION_BATCH)
        next_run = 0;       /* more to go: at the next tick */
}

static void expire_undo(struct ak_server *srv, struct ak_commit *k)
{
    (void)srv;
    (void)k;
    running = false;        /* not stored: tried again in an hour */
}

static const struct ak_job expire_job = {expire_write, expire_answer, expire_undo, NULL, NULL};

#define GAMES_LOOKED 1000
#define GAMES_BATCH 100

struct games_expiry {
    int64_t before;
    int n, ndeleted;
    int64_t id[GAMES_LOOKED], deleted[GAMES_BATCH];
};

static bool games_running;
static int64_t games_next_run, games_cursor;

static int games_write(struct ak_store *st, const struct ak_commit *k)
{
    struct games_expiry *e = k->data;
    e->ndeleted = 0;
    for (int i = 0; i < e->n && e->ndeleted < GAMES_BATCH; i++) {
        bool expired = false;
        int rc = ak_store_game_expire(st, e->id[i], e->before, &expired);
        if (rc != AK_STORE_OK)
            return rc;
        if (expired)
            e->deleted[e->ndeleted++] = e->id[i];
    }
    return AK_STORE_OK;
}

/* The games looked at, found again by number (ak_game_find would not). */
static struct ak_game *looked_at(struct ak_server *srv, int64_t id)
{
    return id > 0 && (uint64_t)id < srv->games_cap ? srv->game_by_id[id] : NULL;
}

static void unmark(struct ak_server *srv, const struct games_expiry *e)
{
    for (int i = 0; i < e->n; i++) {
        struct ak_game *g = looked_at(srv, e->id[i]);
        if (g)
            g->expiring = false;
    }
}

static void games_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct games_expiry *e = k->data;
    games_running = false;
    for (int i = 0; i < e->ndeleted; i++) {
        struct ak_game *g = looked_at(srv, e->deleted[i]);
        if (g)
            ak_game_remove(srv, g);
    }
    unmark(srv, e);     /* those kept */
    if (e->ndeleted)
        ak_log(AK_LOG_INFO, "game retention: %d finished games older than games_keep_days deleted", e->ndeleted);
    if (games_cursor)
        games_next_run = 0;     /* the cursor has not gone round: the next tick goes on */
}

static void games_undo(struct ak_server *srv, struct ak_commit *k)
{
    games_running = false;      /* not stored: tried again in an hour */
    unmark(srv, k->data);
}

static const struct ak_job games_job = {games_write, games_answer, games_undo, NULL, NULL};

/* A game the retention may look at: over or called off, not a
 * tournament's, not on its way to the store, nobody watching it now. */
static bool finished(const struct ak_game *g)
{
    bool over = ak_game_brief_of(g).phase == AK_PHASE_OVER || strcmp(g->meta.status, "aborted") == 0 ||
                strcmp(g->meta.status, "declined") == 0;
    return over && !g->tournament && !g->creating && !g->expiring && g->nwatchers == 0;
}

static void games_tick(struct ak_server *srv, int64_t now)
{
    if (!srv->cfg.games_keep_days || games_running || now < games_next_run)
        return;
    struct games_expiry *e = calloc(1, sizeof *e);
    if (!e)
        return;
    e->before = now - (int64_t)srv->cfg.games_keep_days * 86400;
    int64_t id = games_cursor + 1;
    for (; id < srv->next_game_id && e->n < GAMES_LOOKED; id++) {
        struct ak_game *g = looked_at(srv, id);
        if (g && finished(g)) {
            g->expiring = true;
            e->id[e->n++] = id;
        }
    }
    games_cursor = id < srv->next_game_id ? id - 1 : 0;
    games_next_run = now + RETENTION_EVERY;
    if (!e->n) {
        free(e);
        return;
    }
    games_running = true;
    ak_batch_job(srv, NULL, NULL, &games_job, NULL, e);
}

void ak_retention_tick(struct ak_server *srv)
{
    int64_t now = ak_now();
    games_tick(srv, now);
    if (!srv->cfg.chat_keep_days || running || now < next_run)
        return;
    struct expiry *e = calloc(1, sizeof *e);
    if (!e)
        return;
    e->before = now - (int64_t)srv->cfg.chat_keep_days * 86400;
    next_run = now + RETENTION_EVERY;
    running = true;
    ak_batch_job(srv, NULL, NULL, &expire_job, NULL, e);
}
