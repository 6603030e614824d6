/* ak_admin: the admin role. It belongs to accounts, never to names
 * (issue 27): the operator grants it with `akd --admin-add USER` on the
 * database, or names existing accounts in the config key admins ("alice,
 * bob"). akd remembers, for each configured name, the newest account when
 * it first saw the name there; an account registered after that (a
 * stranger registering a configured name that had no account, in any
 * letter case) does not get the role, and akd warns at
 * start for names with no account. A name taken out of admins takes the
 * role back from its account at the next start; a role granted by
 * --admin-add stays until --admin-remove. Admins may, with
 * {"cmd":"admin","op":...}:
 *
 *   overdue                    list the games waiting for an operator
 *                              (their time ran out with on_expiry wait)
 *   extend  game, seconds      give the awaited player more time (the
 *                              deadline moves; an overdue game runs again)
 *   abort   game               call a game off, started or not
 *   adjudicate game, result, reason
 *                              end a game: axis, allied or draw; an
 *                              ADJUDICATE action in the game's log (the
 *                              record verifies), rated like any result
 *   ban     user [, games]     the account can no longer log in (its
 *                              sessions end at once) or be challenged;
 *                              games "adjudicate" gives each of its
 *                              unfinished started games to the opponent
 *                              and calls off its open ones, "wait" (the
 *                              default) leaves them as they are
 *   unban   user
 *   reset_password user        a one-time token (48 hours) the player
 *                              uses with akc reset-password
 *   tournament_create ...      a round robin or a Swiss (ak_tournament.c)
 *   tournament_start tournament  start it now (else at its start date)
 *   computer user, computer    mark the account as played by a program
 *                              (true) or by a person (false): shown as
 *                              a computer, challenged by `new` with
 *                              "computer" (ak_computer.c)
 *   stats                      connections, players, games by state,
 *                              actions per second, commit latency,
 *                              errors by code (ak_stats.c)
 *
 * Nobody else can do any of it (not_admin). Every admin action is written
 * to the audit table (admin_actions), in the same group commit as the
 * action itself, and to the log, with who did it.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ak_engine.h"
#include "ak_server.h"



static void op_overdue(struct ak_conn *c, const json_t *id)
{
    json_t *list = json_array();
    for (const struct ak_game *g = c->srv->games; g; g = g->next)
        if (g->overdue)
            json_array_append_new(list, ak_game_summary(g, c->user));
    ak_conn_reply_ok(c, id, json_pack("{s:o}", "games", list));
}

static void extend_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct ak_deadline_change *d = k->data;
    (void)srv;
    ak_log_with(AK_LOG_INFO, AK_LOG_ADMIN(d->audit_by, d->audit_target, k->g->id), "admin %s: extend %s %s",
                d->audit_by, d->audit_target, d->audit_detail);
    if (k->conn)
        ak_conn_reply_ok(k->conn, k->id, ak_game_summary(k->g, k->user));
}

static const struct ak_job extend_job = {ak_clock_deadline_write, extend_answer, ak_clock_deadline_undo, NULL, NULL};

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
    if (!g->meta.tc_seconds || !g->meta.deadline || ak_game_open(g) || ak_game_brief_of(g).phase == AK_PHASE_OVER ||
        ak_bid_open(g)) {
        ak_conn_reply_error(c, id, "bad_request", "game %lld has no clock running%s", (long long)g->id,
                            ak_bid_open(g) ? " (its side auction is not over)" : "");
        return;
    }
    struct ak_deadline_change *d = calloc(1, sizeof *d);
    if (!d) {
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing changed");
        return;
    }
    /* stored with its audit row in the next group commit (ak_clock_give) */
    snprintf(d->audit_by, sizeof d->audit_by, "%s", c->user_name);
    snprintf(d->audit_target, sizeof d->audit_target, "game %lld", (long long)g->id);
    snprintf(d->audit_detail, sizeof d->audit_detail, "+%llds", (long long)json_integer_value(sec));
    ak_clock_give(c->srv, c, id, g, json_integer_value(sec), &extend_job, d);
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
    snprintf(target, sizeof target, "game %lld", (long long)g->id);
    if (ak_game_close(c->srv, c, id, g, "aborted", by))
        ak_admin_audit(c, "abort", target, "");
}

/* End game g with result (AK_AXIS, AK_ALLIED or AK_NOBODY for a draw):
 * an ADJUDICATE action through the group commit, replied to c (if any,
 * for request id) once stored. False with why if it cannot. */
static bool adjudicate(struct ak_server *srv, struct ak_conn *c, const json_t *id, struct ak_game *g, int result,
                       char *why, size_t cap)
{
    if (ak_game_brief_of(g).phase == AK_PHASE_OVER || !g->state) {
        snprintf(why, cap, "game %lld is over", (long long)g->id);
        return false;
    }
    struct ak_action a = {.kind = AK_ACT_ADJUDICATE, .side = (uint8_t)result, .hex = AK_HEX_NONE,
                          .supply = AK_UNIT_NONE};
    static struct ak_state next;
    struct ak_events ev = {0};
    struct ak_reject rej;
    if (!ak_game_try(g, &a, NULL, &next, &ev, &rej)) {
        snprintf(why, cap, "%.150s", rej.text);
        return false;
    }
    if (!ak_game_commit(srv, g, &a, NULL, &next, &ev, "admin", c, id)) {
        snprintf(why, cap, "out of memory; nothing changed");
        return false;
    }
    g->overdue = false;
    return true;
}

static void op_adjudicate(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    const char *result = json_string_value(json_object_get(msg, "result"));
    const char *reason = json_string_value(json_object_get(msg, "reason"));
    int who = !result ? -1 : strcmp(result, "draw") == 0 ? AK_NOBODY : ak_side_parse(result);
    if (who < 0 || !reason || !reason[0] || strlen(reason) > 200) {
        ak_conn_reply_error(c, id, "bad_request", "result is axis, allied or draw, and reason says why (1 to 200 characters)");
        return;
    }
    struct ak_game *g = ak_game_arg(c, id, msg);
    char why[256], target[32];
    if (!g)
        return;
    if (g->player[AK_AXIS] == 0 || g->player[AK_ALLIED] == 0) {
        ak_conn_reply_error(c, id, "bad_request", "game %lld has not started (abort it instead)", (long long)g->id);
        return;
    }
    if (!adjudicate(c->srv, c, id, g, who, why, sizeof why)) {
        ak_conn_reply_error(c, id, "bad_request", "%s", why);
        return;
    }
    snprintf(target, sizeof target, "game %lld", (long long)g->id);
    char detail[260];
    snprintf(detail, sizeof detail, "%s: %s", who == AK_NOBODY ? "draw" : ak_side_name(who), reason);
    ak_admin_audit(c, "adjudicate", target, detail);
}

/* A banned player's unfinished games, as the admin chose: started ones
 * go to the opponent, open ones (no opponent yet) are called off. */
static int adjudicate_games_of(struct ak_server *srv, const char *admin, int64_t user)
{
    int n = 0;
    char why[256], by[80];
    snprintf(by, sizeof by, "%s (admin)", admin);
    for (struct ak_game *g = srv->games; g; g = g->next) {
        int side = g->player[AK_AXIS] == user ? AK_AXIS : g->player[AK_ALLIED] == user ? AK_ALLIED : -1;
        if (side < 0 || g->creating || ak_game_brief_of(g).phase == AK_PHASE_OVER ||
            strcmp(g->meta.status, "active") != 0)     /* creating: a round being made, not stored */
            continue;
        if (g->player[!side] == 0 || g->player[!side] == user)
            n += ak_game_close(srv, NULL, NULL, g, "aborted", by);
        else if (ak_game_load(srv, g) == 0)
            n += adjudicate(srv, NULL, NULL, g, !side, why, sizeof why);
    }
    return n;
}

/* A reset token, stored (as its hash) before the admin is given it. */
struct reset_issue {
    int64_t user, expires;
    char name[64], token[33], hashed[65];
};

static int reset_write(struct ak_store *st, const struct ak_commit *k)
{
    const struct reset_issue *r = k->data;
    return ak_store_reset_put(st, r->user, r->hashed, r->expires);
}

static void reset_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct reset_issue *r = k->data;
    (void)srv;
    if (k->conn)
        ak_conn_reply_ok(k->conn, k->id, json_pack("{s:s,s:s,s:I}", "user", r->name, "token", r->token, "expires",
                                                   (json_int_t)r->expires));
}

static void reset_release(void *data)
{
    memset(data, 0, sizeof(struct reset_issue));    /* the token */
    free(data);
}

static const struct ak_job reset_job = {reset_write, reset_answer, NULL, reset_release, NULL};

static void op_reset_password(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    char canonical[64];
    int64_t user = ak_admin_user_arg(c, id, msg, canonical);
    struct reset_issue *r = user ? calloc(1, sizeof *r) : NULL;
    if (!r) {
        if (user)
            ak_conn_reply_error(c, id, "internal", "out of memory; nothing changed");
        return;
    }
    r->user = user;
    snprintf(r->name, sizeof r->name, "%s", canonical);
    ak_account_reset_token(r->token, r->hashed, &r->expires);
    if (ak_batch_job(c->srv, c, id, &reset_job, NULL, r))
        ak_admin_audit(c, "reset_password", canonical, "a one-time token issued");
}

static void op_stats(struct ak_conn *c, const json_t *id)
{
    struct ak_server *srv = c->srv;
    struct ak_stats s;
    ak_stats_read(&s);
    struct ak_census n;
    ak_census_take(srv, &n);
    json_t *errors = json_object(), *hist = json_object();
    for (int i = 0; i < s.nerrors; i++)
        json_object_set_new(errors, s.error_code[i], json_integer((json_int_t)s.error_count[i]));
    for (int b = 0; b < AK_STATS_BUCKETS; b++) {
        char le[16];
        snprintf(le, sizeof le, "%g", ak_stats_bucket_ms[b]);
        json_object_set_new(hist, le, json_integer((json_int_t)s.histogram[b]));
    }
    json_object_set_new(hist, "+Inf", json_integer((json_int_t)s.histogram[AK_STATS_BUCKETS]));
    ak_conn_reply_ok(c, id, json_pack("{s:I,s:{s:i,s:i},s:i,s:{s:i,s:i,s:i,s:i,s:i},s:f,s:I,s:I,"
                                      "s:{s:f,s:f,s:f,s:f,s:i,s:o},s:o}",
                                      "uptime", (json_int_t)s.uptime, "connections", "total", n.tcp + n.tls + n.ws,
                                      "tls", n.tls, "players", n.players, "games", "open", n.open, "running", n.running,
                                      "overdue", n.overdue, "finished", n.finished, "called_off", n.called_off,
                                      "actions_per_second", s.actions_per_second, "actions", (json_int_t)s.actions,
                                      "commits", (json_int_t)s.commits, "commit_ms", "p50", s.latency_ms[0], "p90",
                                      s.latency_ms[1], "p99", s.latency_ms[2], "max", s.latency_ms[3], "samples",
                                      s.latency_samples, "histogram", hist, "errors", errors));
}

/* A ban (its sessions revoked in the same write) or an unban; once
 * stored, the account's connections end and, with games "adjudicate",
 * its games are ended (each through the group commit of its own). */
struct ban_change {
    int64_t user;
    bool ban, adjudicate;
    char name[64], admin[64];
};

static int ban_write(struct ak_store *st, const struct ak_commit *k)
{
    const struct ban_change *b = k->data;
    return ak_store_user_set_banned_rows(st, b->user, b->ban);
}

static void ban_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct ban_change *b = k->data;
    if (b->ban)
        ak_conn_end_sessions(srv, b->user, NULL, NULL, "the account was banned by the server's operators");
    int ended = b->adjudicate ? adjudicate_games_of(srv, b->admin, b->user) : 0;
    if (b->adjudicate)
        ak_log_with(AK_LOG_INFO, AK_LOG_ADMIN(b->admin, b->name, 0), "admin %s: %d games of %s ended", b->admin, ended,
                    b->name);
    if (k->conn)
        ak_conn_reply_ok(k->conn, k->id, json_pack("{s:s,s:b,s:i}", "user", b->name, "banned", b->ban,
                                                   "games_ended", ended));
}

static const struct ak_job ban_job = {ban_write, ban_answer, NULL, NULL, NULL};

static void op_ban(struct ak_conn *c, const json_t *id, const json_t *msg, bool ban)
{
    const char *games = json_string_value(json_object_get(msg, "games"));
    if (games && strcmp(games, "wait") != 0 && strcmp(games, "adjudicate") != 0) {
        ak_conn_reply_error(c, id, "bad_request", "games is wait (the default) or adjudicate");
        return;
    }
    char canonical[64];
    int64_t user = ak_admin_user_arg(c, id, msg, canonical);
    if (!user)
        return;
    if (ban && user == c->user) {
        ak_conn_reply_error(c, id, "bad_request", "an admin does not ban himself");
        return;
    }
    struct ban_change *b = calloc(1, sizeof *b);
    if (!b) {
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing changed");
        return;
    }
    *b = (struct ban_change){.user = user, .ban = ban, .adjudicate = ban && games && strcmp(games, "adjudicate") == 0};
    snprintf(b->name, sizeof b->name, "%s", canonical);
    snprintf(b->admin, sizeof b->admin, "%s", c->user_name);
    char detail[64] = "";
    if (ban)
        snprintf(detail, sizeof detail, "games %s", games ? games : "wait");
    if (ak_batch_job(c->srv, c, id, &ban_job, NULL, b))
        ak_admin_audit(c, ban ? "ban" : "unban", canonical, detail);
}

struct computer_change {
    int64_t user;
    bool computer;
    char name[64];
};

static int computer_write(struct ak_store *st, const struct ak_commit *k)
{
    const struct computer_change *m = k->data;
    return ak_store_user_set_computer_rows(st, m->user, m->computer);
}

static void computer_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct computer_change *m = k->data;
    ak_computer_refresh(srv, m->user);
    if (k->conn)
        ak_conn_reply_ok(k->conn, k->id, json_pack("{s:s,s:b}", "user", m->name, "computer", m->computer));
}

static const struct ak_job computer_job = {computer_write, computer_answer, NULL, NULL, NULL};

static void op_computer(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    const json_t *on = json_object_get(msg, "computer");
    if (!json_is_boolean(on)) {
        ak_conn_reply_error(c, id, "bad_request", "computer is true (played by a program) or false");
        return;
    }
    char canonical[64];
    int64_t user = ak_admin_user_arg(c, id, msg, canonical);
    if (!user)
        return;
    struct computer_change *m = calloc(1, sizeof *m);
    if (!m) {
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing changed");
        return;
    }
    *m = (struct computer_change){.user = user, .computer = json_is_true(on)};
    snprintf(m->name, sizeof m->name, "%s", canonical);
    if (ak_batch_job(c->srv, c, id, &computer_job, NULL, m))
        ak_admin_audit(c, m->computer ? "computer_add" : "computer_remove", canonical, "");
}

void ak_cmd_admin(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    const char *op = json_string_value(json_object_get(msg, "op"));
    bool admin = false;
    if (ak_store_is_admin(c->srv->store, c->user, &admin, NULL, 0) != AK_STORE_OK) {
        ak_conn_reply_error(c, id, "internal", "the database could not say who is an admin; nothing was done");
        return;
    }
    if (!admin) {
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
    else if (op && strcmp(op, "adjudicate") == 0)
        op_adjudicate(c, id, msg);
    else if (op && strcmp(op, "reset_password") == 0)
        op_reset_password(c, id, msg);
    else if (op && strcmp(op, "stats") == 0)
        op_stats(c, id);
    else if (op && strcmp(op, "computer") == 0)
        op_computer(c, id, msg);
    else if (op && ak_tournament_fix_op(c, id, msg, op))
        ;                                       /* tournament_remove, _edit, _cancel (ak_tournament_fix.c) */
    else if (op && ak_personal_op(c, id, msg, op))
        ;                                       /* export_account, delete_account (ak_personal.c) */
    else if (op && ak_moderation_op(c, id, msg, op))
        ;                                       /* chat moderation (ak_moderation.c), audited in its commits */
    else if (op && strcmp(op, "tournament_create") == 0)
        ak_tournament_create(c, id, msg);       /* audited in the commit that stores it (ak_tournament.c) */
    else if (op && strcmp(op, "tournament_start") == 0)
        ak_tournament_start_now(c, id, msg);    /* the same */
    else
        ak_conn_reply_error(c, id, "bad_request", "op is overdue, extend, abort, adjudicate, ban, unban, "
                            "reset_password, stats, computer, export_account, delete_account, chat_reports, chat_delete, "
                            "chat_dismiss, chat_mute, tournament_remove, tournament_edit, tournament_cancel, "
                            "tournament_create or tournament_start");
}

/* The configured names, each resolved to the account it named when akd
 * first saw it there. */
static void grant_configured(struct ak_server *srv, const char *name, int64_t now)
{
    int64_t last_user = 0, user = 0;
    char pwhash[256];
    if (ak_store_admin_config_name(srv->store, name, now, &last_user) != AK_STORE_OK)
        return (void)ak_log(AK_LOG_ERROR, "admins: cannot record the name %s", name);
    if (ak_store_user_find(srv->store, name, &user, pwhash, sizeof pwhash) != AK_STORE_OK) {
        ak_log(AK_LOG_WARN, "admins names %s, which has no account: nobody gets the role from it, and an "
               "account registered later under that name will not either (akd --admin-add grants it to an "
               "existing account)", name);
        return;
    }
    if (user > last_user) {
        ak_log(AK_LOG_WARN, "admins names %s, but that account was registered after the name was configured: "
               "it does not get the admin role (if it is yours: akd --admin-add %s)", name, name);
        return;
    }
    bool admin = false;
    char source[16] = "";
    if (ak_store_is_admin(srv->store, user, &admin, source, sizeof source) == AK_STORE_OK &&
        !(admin && strcmp(source, "operator") == 0))
        ak_store_admin_set(srv->store, user, true, now, "config");
}

int ak_admin_load(struct ak_server *srv)
{
    int64_t now = ak_now(), ids[256];
    /* names taken out of admins: their accounts lose the role */
    int n = ak_store_admin_config_ids(srv->store, ids, 256);
    for (int i = 0; i < n; i++) {
        char name[64];
        if (ak_store_user_name(srv->store, ids[i], name, sizeof name) == AK_STORE_OK &&
            !ak_list_has(srv->cfg.admins, name)) {
            ak_store_admin_set(srv->store, ids[i], false, now, NULL);
            ak_log(AK_LOG_INFO, "admins no longer names %s: the role is taken back", name);
        }
    }
    char name[64];
    for (const char *p = srv->cfg.admins; (p = ak_list_next(p, name, sizeof name));)
        if (name[0])
            grant_configured(srv, name, now);
    return n < 0 ? -1 : 0;
}

int ak_admin_cli(struct ak_store *st, const char *user_name, bool grant)
{
    int64_t user = 0;
    char pwhash[256];
    if (ak_store_user_find(st, user_name, &user, pwhash, sizeof pwhash) != AK_STORE_OK) {
        fprintf(stderr, "akd: there is no account %s (the role goes to existing accounts only)\n", user_name);
        return 1;
    }
    char name[64] = "";
    ak_store_user_name(st, user, name, sizeof name);
    if (ak_store_admin_set(st, user, grant, ak_now(), "operator") != AK_STORE_OK ||
        ak_store_audit(st, ak_now(), "(operator)", grant ? "admin_add" : "admin_remove", name, "") != AK_STORE_OK) {
        fprintf(stderr, "akd: the database could not store it; nothing changed\n");
        return 1;
    }
    printf("%s %s the admin role\n", name, grant ? "now has" : "no longer has");
    return 0;
}
