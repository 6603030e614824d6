/* ak_retention: how long akd keeps what it need not keep for ever
 * (issue 33; docs/operations.md, "Personal data and how long akd keeps
 * it"). Chat: with chat_keep_days set, messages older than that are
 * deleted with their reports, RETENTION_BATCH at a time in a group commit
 * (never a long write on the loop), once an hour, and again at the next
 * tick while a whole batch went (a backlog drains in seconds). */
#include <stdlib.h>

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

void ak_retention_tick(struct ak_server *srv)
{
    int64_t now = ak_now();
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
