/* ak_audit: what every admin operation shares, below the ops that use it
 * (ak_admin.c, ak_moderation.c, ak_personal.c): the account a request
 * names, and the audit row of an action, stored in the same group commit
 * as the action and logged with who did it (user=) and to what (target=). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_server.h"

/* The audit row of an admin's action, stored in the same group commit as
 * the action (both are joined to the batch in one loop turn, so one
 * transaction holds both: no action without its row, nor a row without
 * its action), and logged once stored. Nothing an admin does writes on
 * the loop (issue 28). */
struct audit_row {
    int64_t when;
    char admin[64], op[32], target[80], detail[260];
};

static int audit_write(struct ak_store *st, const struct ak_commit *k)
{
    const struct audit_row *a = k->data;
    return ak_store_audit(st, a->when, a->admin, a->op, a->target, a->detail);
}

static void audit_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct audit_row *a = k->data;
    (void)srv;
    /* routine for an operator: info, with who (user=) and to what (target=) */
    int64_t game = strncmp(a->target, "game ", 5) == 0 ? strtoll(a->target + 5, NULL, 10) : 0;
    ak_log_with(AK_LOG_INFO, AK_LOG_ADMIN(a->admin, a->target, game), "admin %s: %s %s%s%s", a->admin, a->op,
                a->target, a->detail[0] ? " " : "", a->detail);
}

static const struct ak_job audit_job = {audit_write, audit_answer, NULL, NULL, NULL};

void ak_admin_audit(struct ak_conn *c, const char *op, const char *target, const char *detail)
{
    struct audit_row *a = calloc(1, sizeof *a);
    if (!a) {
        ak_log(AK_LOG_ERROR, "admin %s: %s %s: out of memory for the audit row", c->user_name, op, target);
        return;
    }
    a->when = ak_now();
    snprintf(a->admin, sizeof a->admin, "%s", c->user_name);
    snprintf(a->op, sizeof a->op, "%s", op);
    snprintf(a->target, sizeof a->target, "%s", target);
    snprintf(a->detail, sizeof a->detail, "%s", detail);
    ak_batch_job(c->srv, NULL, NULL, &audit_job, NULL, a);
}

/* The account named by "user" (any case): its id, and its name as
 * registered in canonical; 0 after an error reply. */
int64_t ak_admin_user_arg(struct ak_conn *c, const json_t *id, const json_t *msg, char canonical[64])
{
    const char *name = json_string_value(json_object_get(msg, "user"));
    int64_t user;
    char hash[8];
    if (!name || strlen(name) > 63) {
        ak_conn_reply_error(c, id, "bad_request", "user is an account's name");
        return 0;
    }
    int rc = ak_store_user_find(c->srv->store, name, &user, hash, sizeof hash);
    if (rc == AK_STORE_NOT_FOUND) {
        ak_conn_reply_error(c, id, "no_such_user", "no account is called %s", name);
        return 0;
    }
    if (rc != AK_STORE_OK || ak_store_user_name(c->srv->store, user, canonical, 64) != AK_STORE_OK) {
        ak_conn_reply_error(c, id, "internal", "the database could not be read");
        return 0;
    }
    return user;
}
