/* ak_moderation: chat moderation (issue 33).
 *
 *   {"cmd":"chat_report","message":M[,"reason":R]}
 *       a player reports a message he may read (not his own): kept until
 *       an admin deletes or dismisses it
 *   {"cmd":"admin","op":"chat_reports"[,"after":M]}
 *       the reported messages, oldest first, a page at a time
 *   {"cmd":"admin","op":"chat_delete","message":M}
 *       the message's text is removed (its row, number, author and time
 *       stay; the game's record never held chat), its reports closed, and
 *       the watchers who could read it get {"push":"chat_removed"}
 *   {"cmd":"admin","op":"chat_dismiss","message":M}
 *       its reports closed, the message left
 *   {"cmd":"admin","op":"chat_mute","user":U,"seconds":S}
 *       U may not chat for S seconds (0: no longer muted)
 *
 * Budgets: a report is one of the account's small writes (the command
 * table), at most REPORTS_PER_ACCOUNT of an account's reports are open at
 * once and REPORTS_OPEN at most in all (the writer counts them in the
 * commit that stores one, so the limits hold across a batch): a stranger
 * cannot fill the table or the admins' list. A reason is at most
 * REASON_MAX bytes of plain text. The admins' ops are audited in the same
 * commit that makes the change (admin_actions) and logged with user= and
 * target=.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_server.h"

#define REPORTS_PER_ACCOUNT 20
#define REPORTS_OPEN 10000
#define REASON_MAX 200
#define REPORTS_PAGE 50
#define MUTE_MAX (366LL * 86400)

static bool plain(const char *t)
{
    for (const unsigned char *p = (const unsigned char *)t; *p; p++)
        if (*p < ' ' || *p == 0x7f)
            return false;
    return true;
}

/* The message named by "message" that c may read, or false after an error reply. */
static bool message_arg(struct ak_conn *c, const json_t *id, const json_t *msg, struct ak_store_chat_message *m)
{
    const json_t *mj = json_object_get(msg, "message");
    if (!json_is_integer(mj) || json_integer_value(mj) < 1) {
        ak_conn_reply_error(c, id, "bad_request", "message is the number of a chat message (its \"id\")");
        return false;
    }
    int rc = ak_store_chat_get(c->srv->store, json_integer_value(mj), m);
    if (rc == AK_STORE_NOT_FOUND) {
        ak_conn_reply_error(c, id, "not_found", "there is no chat message %lld", (long long)json_integer_value(mj));
        return false;
    }
    if (rc != AK_STORE_OK) {
        ak_conn_reply_error(c, id, "internal", "the database could not be read; nothing was done");
        return false;
    }
    return true;
}

/* ---- a player's report ---------------------------------------------------- */

struct report {
    int64_t message, at;
    enum { REPORT_KEPT, REPORT_AGAIN, REPORT_TOO_MANY, REPORT_FULL } outcome;
    char reason[REASON_MAX + 1];
};

static int report_write(struct ak_store *st, const struct ak_commit *k)
{
    struct report *r = k->data;
    int64_t mine = 0, all = 0;
    if (ak_store_chat_reports_count(st, k->user, &mine) != AK_STORE_OK ||
        ak_store_chat_reports_count(st, 0, &all) != AK_STORE_OK)
        return AK_STORE_ERROR;
    if (mine >= REPORTS_PER_ACCOUNT || all >= REPORTS_OPEN) {
        r->outcome = mine >= REPORTS_PER_ACCOUNT ? REPORT_TOO_MANY : REPORT_FULL;
        return AK_STORE_OK;
    }
    int rc = ak_store_chat_report(st, r->message, k->user, r->at, r->reason);
    r->outcome = rc == AK_STORE_EXISTS ? REPORT_AGAIN : REPORT_KEPT;
    return rc == AK_STORE_EXISTS ? AK_STORE_OK : rc;
}

static void report_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct report *r = k->data;
    (void)srv;
    if (!k->conn)
        return;
    if (r->outcome == REPORT_TOO_MANY)
        ak_conn_reply_error(k->conn, k->id, "rate_limited", "you have %d reports waiting for the admins already; "
                            "this one was not kept", REPORTS_PER_ACCOUNT);
    else if (r->outcome == REPORT_FULL)
        ak_conn_reply_error(k->conn, k->id, "rate_limited", "the admins have %d reports waiting; this one was not kept",
                            REPORTS_OPEN);
    else
        ak_conn_reply_ok(k->conn, k->id, json_pack("{s:I,s:b}", "message", (json_int_t)r->message, "reported_before",
                                                   r->outcome == REPORT_AGAIN));
}

static const struct ak_job report_job = {report_write, report_answer, NULL, NULL, NULL};

void ak_cmd_chat_report(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_store_chat_message m;
    if (!message_arg(c, id, msg, &m))
        return;
    const json_t *rj = json_object_get(msg, "reason");
    const char *reason = rj ? json_string_value(rj) : "";
    if (!reason || strlen(reason) > REASON_MAX || !plain(reason)) {
        ak_conn_reply_error(c, id, "bad_request", "a reason is at most %d bytes of text, on one line", REASON_MAX);
        return;
    }
    struct ak_game *g = ak_game_find(c->srv, m.game);
    if (!g || !ak_chat_can_read(g, c->user, m.channel)) {
        ak_conn_reply_error(c, id, "not_found", "there is no chat message %lld", (long long)m.id);
        return;     /* the same words: whether it exists is not told to who may not read it */
    }
    if (m.author == c->user || m.removed) {
        ak_conn_reply_error(c, id, "bad_request", m.removed ? "message %lld was removed already"
                                                            : "message %lld is your own", (long long)m.id);
        return;
    }
    struct report *r = calloc(1, sizeof *r);
    if (!r) {
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing was done");
        return;
    }
    r->message = m.id;
    r->at = ak_now();
    snprintf(r->reason, sizeof r->reason, "%s", reason);
    ak_batch_job(c->srv, c, id, &report_job, NULL, r);
}

/* ---- the admins' ops ------------------------------------------------------ */

static void one_report(void *ud, const struct ak_store_chat_message *m, const char *text, int reports,
                       const char *reason, const char *reporter)
{
    json_array_append_new(ud, json_pack("{s:I,s:I,s:s,s:s,s:I,s:s,s:i,s:s,s:s}", "message", (json_int_t)m->id, "game",
                                        (json_int_t)m->game, "channel", m->channel, "user", m->author_name, "at",
                                        (json_int_t)m->at, "text", text, "reports", reports, "reason", reason,
                                        "reporter", reporter));
}

static void op_reports(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    const json_t *after = json_object_get(msg, "after");
    if (after && (!json_is_integer(after) || json_integer_value(after) < 0)) {
        ak_conn_reply_error(c, id, "bad_request", "after is the number of a message");
        return;
    }
    json_t *list = json_array();
    if (ak_store_chat_reports(c->srv->store, after ? json_integer_value(after) : 0, REPORTS_PAGE + 1, one_report,
                              list) != AK_STORE_OK) {
        json_decref(list);
        ak_conn_reply_error(c, id, "internal", "the database could not be read");
        return;
    }
    bool more = json_array_size(list) > REPORTS_PAGE;
    if (more)
        json_array_remove(list, REPORTS_PAGE);
    ak_conn_reply_ok(c, id, json_pack("{s:o,s:b}", "reports", list, "more", more));
}

/* A change an admin makes, audited in the commit that stores it. */
struct moderation {
    char admin[64], op[16], target[80], detail[80];
    int64_t message, game, user, until, when;
    char channel[12];
    bool found;
};

static int moderation_write(struct ak_store *st, const struct ak_commit *k)
{
    struct moderation *d = k->data;
    int rc = strcmp(d->op, "chat_mute") == 0 ? ak_store_chat_mute(st, d->user, d->until)
                                             : ak_store_chat_remove(st, d->message, strcmp(d->op, "chat_delete") == 0);
    d->found = rc != AK_STORE_NOT_FOUND;
    if (rc == AK_STORE_NOT_FOUND)
        return AK_STORE_OK;
    if (rc != AK_STORE_OK)
        return rc;
    return ak_store_audit(st, d->when, d->admin, d->op, d->target, d->detail);
}

static void moderation_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct moderation *d = k->data;
    if (!d->found) {
        if (k->conn)
            ak_conn_reply_error(k->conn, k->id, "not_found", "%s: nothing to do (%s)", d->op,
                                d->message ? "no open report of that message" : "no such account");
        return;
    }
    ak_log_with(AK_LOG_INFO, AK_LOG_ADMIN(d->admin, d->target, d->game), "admin %s: %s %s%s%s", d->admin, d->op,
                d->target, d->detail[0] ? " " : "", d->detail);
    struct ak_game *g = d->game ? ak_game_find(srv, d->game) : NULL;
    if (g && strcmp(d->op, "chat_delete") == 0) {
        json_t *push = json_pack("{s:s,s:I,s:I}", "push", "chat_removed", "game", (json_int_t)d->game, "id",
                                 (json_int_t)d->message);
        ak_chat_push(srv, g, push, d->channel);
        json_decref(push);
    }
    if (k->conn)
        ak_conn_reply_ok(k->conn, k->id, d->user ? json_pack("{s:s,s:I}", "user", d->target, "muted_until",
                                                             (json_int_t)d->until)
                                                 : json_pack("{s:I,s:s}", "message", (json_int_t)d->message, "done",
                                                             d->op));
}

static const struct ak_job moderation_job = {moderation_write, moderation_answer, NULL, NULL, NULL};

static struct moderation *moderation_new(struct ak_conn *c, const char *op)
{
    struct moderation *d = calloc(1, sizeof *d);
    if (d) {
        snprintf(d->admin, sizeof d->admin, "%s", c->user_name);
        snprintf(d->op, sizeof d->op, "%s", op);
        d->when = ak_now();
    }
    return d;
}

static void op_message(struct ak_conn *c, const json_t *id, const json_t *msg, const char *op)
{
    struct ak_store_chat_message m;
    if (!message_arg(c, id, msg, &m))
        return;
    struct moderation *d = moderation_new(c, op);
    if (!d) {
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing was done");
        return;
    }
    d->message = m.id;
    d->game = m.game;
    snprintf(d->channel, sizeof d->channel, "%s", m.channel);
    snprintf(d->target, sizeof d->target, "message %lld", (long long)m.id);
    snprintf(d->detail, sizeof d->detail, "by %s in game %lld", m.author_name, (long long)m.game);
    ak_batch_job(c->srv, c, id, &moderation_job, NULL, d);
}

static void op_mute(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    char name[64];
    const json_t *sj = json_object_get(msg, "seconds");
    if (!json_is_integer(sj) || json_integer_value(sj) < 0 || json_integer_value(sj) > MUTE_MAX) {
        ak_conn_reply_error(c, id, "bad_request", "seconds is 0 (no longer muted) to %lld (a year)", MUTE_MAX);
        return;
    }
    int64_t user = ak_admin_user_arg(c, id, msg, name);
    if (!user)
        return;
    struct moderation *d = moderation_new(c, "chat_mute");
    if (!d) {
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing was done");
        return;
    }
    d->user = user;
    d->until = json_integer_value(sj) ? d->when + json_integer_value(sj) : 0;
    snprintf(d->target, sizeof d->target, "%s", name);
    snprintf(d->detail, sizeof d->detail, "%lld s", (long long)json_integer_value(sj));
    ak_batch_job(c->srv, c, id, &moderation_job, NULL, d);
}

bool ak_moderation_op(struct ak_conn *c, const json_t *id, const json_t *msg, const char *op)
{
    if (strcmp(op, "chat_reports") == 0)
        op_reports(c, id, msg);
    else if (strcmp(op, "chat_delete") == 0 || strcmp(op, "chat_dismiss") == 0)
        op_message(c, id, msg, op);
    else if (strcmp(op, "chat_mute") == 0)
        op_mute(c, id, msg);
    else
        return false;
    return true;
}
