/* ak_admin: the admin role. The accounts named by the config key admins
 * ("alice, bob") may, with {"cmd":"admin","op":...}:
 *
 *   overdue                    list the games waiting for an operator
 *                              (their time ran out with on_expiry wait)
 *   extend  game, seconds      give the awaited player more time (the
 *                              deadline moves; an overdue game runs again)
 *   abort   game               call a game off, started or not
 *   ban     user               the account can no longer log in (its
 *                              sessions end at once) or be challenged
 *   unban   user
 *
 * Nobody else can do any of it (not_admin). Every admin action is written
 * to the audit table (admin_actions) and the log, with who did it.
 * Adjudication, password resets and tournaments are not here yet.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ak_server.h"

/* name is one of the comma-separated names of list (case-insensitive,
 * blanks around names ignored). */
static bool listed(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        while (*p == ',' || isspace((unsigned char)*p))
            p++;
        const char *start = p;
        while (*p && *p != ',')
            p++;
        const char *end = p;
        while (end > start && isspace((unsigned char)end[-1]))
            end--;
        if ((size_t)(end - start) == len && len && strncasecmp(start, name, len) == 0)
            return true;
    }
    return false;
}

static void audit(struct ak_conn *c, const char *op, const char *target, const char *detail)
{
    if (ak_store_audit(c->srv->store, ak_now(), c->user_name, op, target, detail) != AK_STORE_OK)
        ak_log(AK_LOG_ERROR, "admin %s: %s %s: could not write the audit row: %s", c->user_name, op, target,
               ak_store_error(c->srv->store));
    ak_log_with(AK_LOG_WARN, AK_LOG_CONN(c, 0), "admin %s: %s %s%s%s", c->user_name, op, target, detail[0] ? " " : "", detail);
}

static void op_overdue(struct ak_conn *c, const json_t *id)
{
    json_t *list = json_array();
    for (const struct ak_game *g = c->srv->games; g; g = g->next)
        if (g->overdue)
            json_array_append_new(list, ak_game_summary(g, c->user));
    ak_conn_reply_ok(c, id, json_pack("{s:o}", "games", list));
}

static void op_extend(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = ak_game_arg(c, id, msg);
    const json_t *sec = json_object_get(msg, "seconds");
    if (!g)
        return;
    if (!json_is_integer(sec) || json_integer_value(sec) < 60 || json_integer_value(sec) > 90 * 86400) {
        ak_conn_reply_error(c, id, "bad_request", "seconds is from 60 to 7776000 (90 days)");
        return;
    }
    if (!g->meta.tc_seconds || ak_game_brief_of(g).phase == AK_PHASE_OVER) {
        ak_conn_reply_error(c, id, "bad_request", "game %lld has no clock running", (long long)g->id);
        return;
    }
    if (ak_clock_add(c->srv, g, json_integer_value(sec)) != 0) {
        ak_conn_reply_error(c, id, "internal", "the database could not store it; nothing changed");
        return;
    }
    char target[32], detail[64];
    snprintf(target, sizeof target, "game %lld", (long long)g->id);
    snprintf(detail, sizeof detail, "+%llds", (long long)json_integer_value(sec));
    audit(c, "extend", target, detail);
    ak_conn_reply_ok(c, id, ak_game_summary(g, c->user));
}

static void op_abort(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = ak_game_arg(c, id, msg);
    if (!g)
        return;
    if (ak_game_brief_of(g).phase == AK_PHASE_OVER) {
        ak_conn_reply_error(c, id, "bad_request", "game %lld is over", (long long)g->id);
        return;
    }
    char by[80], target[32];
    snprintf(by, sizeof by, "%s (admin)", c->user_name);
    if (ak_game_close(c->srv, g, "aborted", by) != 0) {
        ak_conn_reply_error(c, id, "internal", "the database could not store it; nothing changed");
        return;
    }
    snprintf(target, sizeof target, "game %lld", (long long)g->id);
    audit(c, "abort", target, "");
    ak_conn_reply_ok(c, id, json_pack("{s:I,s:s}", "game", (json_int_t)g->id, "status", "aborted"));
}

static void op_ban(struct ak_conn *c, const json_t *id, const json_t *msg, bool ban)
{
    const char *name = json_string_value(json_object_get(msg, "user"));
    int64_t user;
    char hash[8];
    if (!name || strlen(name) > 63) {
        ak_conn_reply_error(c, id, "bad_request", "user is an account's name");
        return;
    }
    int rc = ak_store_user_find(c->srv->store, name, &user, hash, sizeof hash);
    if (rc == AK_STORE_NOT_FOUND) {
        ak_conn_reply_error(c, id, "no_such_user", "no account is called %s", name);
        return;
    }
    if (rc == AK_STORE_OK && ban && user == c->user) {
        ak_conn_reply_error(c, id, "bad_request", "an admin does not ban himself");
        return;
    }
    if (rc != AK_STORE_OK || ak_store_user_set_banned(c->srv->store, user, ban) != AK_STORE_OK) {
        ak_conn_reply_error(c, id, "internal", "the database could not store it; nothing changed");
        return;
    }
    if (ban)
        ak_conn_end_sessions(c->srv, user, NULL, NULL, "the account was banned by the server's operators");
    audit(c, ban ? "ban" : "unban", name, "");
    ak_conn_reply_ok(c, id, json_pack("{s:s,s:b}", "user", name, "banned", ban));
}

void ak_cmd_admin(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    const char *op = json_string_value(json_object_get(msg, "op"));
    if (!listed(c->srv->cfg.admins, c->user_name)) {
        ak_conn_reply_error(c, id, "not_admin", "%s does not have the admin role on this server", c->user_name);
        return;
    }
    if (op && strcmp(op, "overdue") == 0)
        op_overdue(c, id);
    else if (op && strcmp(op, "extend") == 0)
        op_extend(c, id, msg);
    else if (op && strcmp(op, "abort") == 0)
        op_abort(c, id, msg);
    else if (op && (strcmp(op, "ban") == 0 || strcmp(op, "unban") == 0))
        op_ban(c, id, msg, op[0] == 'b');
    else
        ak_conn_reply_error(c, id, "bad_request", "op is overdue, extend, abort, ban or unban");
}
