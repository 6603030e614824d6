/* ak_tournament_fix: tournaments an organiser can correct (issue 33), and
 * the `tournament` command's table (its list, show and join are
 * ak_tournament.c's).
 *
 *   {"cmd":"tournament","op":"withdraw","tournament":T}
 *       a player leaves: before the start he is out of it; after it he
 *       forfeits the rest (his unfinished games of it resigned, and a
 *       Swiss pairs him no more; his results so far stand)
 *   {"cmd":"admin","op":"tournament_remove","tournament":T,"user":U}
 *       an admin takes a player out, the same way
 *   {"cmd":"admin","op":"tournament_edit","tournament":T, name?, starts?,
 *    rounds?, time_control?}
 *       an admin corrects it before the start
 *   {"cmd":"admin","op":"tournament_cancel","tournament":T,"games":"abort"|"finish"}
 *       an admin cancels it, open or running: no round is paired again;
 *       its unfinished games are called off (abort) or played to their end
 *       (finish, the default); its name is freed for a new tournament
 *       ("NAME" becomes "NAME (cancelled N)")
 *
 * Each is one write in the next group commit, checked again there (a
 * tournament that started meanwhile is not corrected); the admins' are
 * audited in that same commit. None while the tournament's start or a
 * join is on its way to the store (ak_tournament_busy); and while one is,
 * the tournament is held (ak_tournament_hold): not started, no round
 * paired, until it is stored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_engine.h"
#include "ak_server.h"

enum fix_kind { FIX_WITHDRAW, FIX_REMOVE, FIX_EDIT, FIX_CANCEL };

struct fix {
    enum fix_kind kind;
    struct ak_store_tournament t;   /* as it will be (FIX_EDIT), or as it was */
    int64_t user, when;
    char user_name[64], admin[64], detail[200], renamed[96];
    bool abort_games;
    bool running;                   /* withdraw, remove: after the start (he forfeits the rest) */
    int rc;                         /* the writer's finding */
};

static const char *const fix_ops[] = {"withdraw", "tournament_remove", "tournament_edit", "tournament_cancel"};

static int fix_write(struct ak_store *st, const struct ak_commit *k)
{
    struct fix *f = k->data;
    int64_t id = f->t.id;
    f->rc = (f->kind == FIX_WITHDRAW || f->kind == FIX_REMOVE) && f->running ? ak_store_tournament_withdraw(st, id, f->user)
            : f->kind == FIX_WITHDRAW || f->kind == FIX_REMOVE ? ak_store_tournament_leave(st, id, f->user)
            : f->kind == FIX_EDIT ? ak_store_tournament_edit(st, &f->t)
                                  : ak_store_tournament_cancel(st, id, f->renamed);
    if (f->rc != AK_STORE_OK)
        return f->rc == AK_STORE_NOT_FOUND || f->rc == AK_STORE_EXISTS ? AK_STORE_OK : f->rc;
    char target[96];
    snprintf(target, sizeof target, "tournament %lld", (long long)id);
    return f->admin[0] ? ak_store_audit(st, f->when, f->admin, fix_ops[f->kind], target, f->detail) : AK_STORE_OK;
}

/* A player who left a running tournament resigns its unfinished games
 * (his own games, from the seats index: not a scan of every game). */
static int resign_games_of(struct ak_server *srv, int64_t tid, int64_t user)
{
    int n = 0;
    struct ak_game *const *games;
    int of = ak_seats_of(user, &games);
    for (int i = 0; i < of; i++) {
        struct ak_game *g = games[i];
        int side = g->player[AK_AXIS] == user ? AK_AXIS : g->player[AK_ALLIED] == user ? AK_ALLIED : -1;
        if (side < 0 || g->tournament != tid || g->creating || strcmp(g->meta.status, "active") != 0 ||
            ak_game_brief_of(g).phase == AK_PHASE_OVER || ak_game_load(srv, g) != 0)
            continue;
        struct ak_action a = {.kind = AK_ACT_RESIGN, .side = (uint8_t)side, .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
        static struct ak_state next;
        struct ak_events ev = {0};
        struct ak_reject rej;
        if (ak_game_try(g, &a, NULL, &next, &ev, &rej) &&
            ak_game_commit(srv, g, &a, NULL, &next, &ev, side == AK_AXIS ? "axis" : "allied", NULL, NULL))
            n++;
    }
    return n;
}

/* The withdrawn mark and the resignations it brings are stored in two
 * commits (the resignations are actions of their games, each in its own
 * log): if akd stops between them, or a resignation's commit fails, a
 * withdrawn player keeps unfinished games. Every minute (and at the first
 * tick after a start) the players withdrawn from running tournaments are
 * read, and their unfinished games of it resigned again; once stored,
 * nothing is left to do. At most SWEEP_MAX pairs a sweep, from where the
 * last one stopped; each looks at the player's own games. */
#define SWEEP_MAX 64
#define SWEEP_SECONDS 60

void ak_tournament_fix_sweep(struct ak_server *srv)
{
    static int64_t last, after_tid, after_user;     /* where the last sweep stopped */
    int64_t now = ak_now();
    if (last && now - last < SWEEP_SECONDS)
        return;
    last = now;
    int64_t tid[SWEEP_MAX], user[SWEEP_MAX];
    int n = ak_store_tournament_withdrawn_all(srv->store, after_tid, after_user, tid, user, SWEEP_MAX);
    if (n == SWEEP_MAX) {       /* more after these: from here next time */
        after_tid = tid[n - 1];
        after_user = user[n - 1];
    } else {
        after_tid = after_user = 0;
    }
    for (int i = 0; i < n; i++) {
        int resigned = resign_games_of(srv, tid[i], user[i]);
        if (resigned)
            ak_log(AK_LOG_WARN, "tournament %lld: %d unfinished games of player %lld, withdrawn, resigned now (the "
                   "first resignation was not stored)", (long long)tid[i], resigned, (long long)user[i]);
    }
}

/* A cancelled tournament's unfinished games, called off when asked. */
static int abort_games_of(struct ak_server *srv, int64_t tid, const char *by)
{
    int n = 0;
    char who[96];
    snprintf(who, sizeof who, "%s (admin)", by);
    for (struct ak_game *g = srv->games; g; g = g->next)
        if (g->tournament == tid && !g->creating && strcmp(g->meta.status, "active") == 0 &&
            ak_game_brief_of(g).phase != AK_PHASE_OVER)
            n += ak_game_close(srv, NULL, NULL, g, "aborted", who);
    return n;
}

static void fix_undo(struct ak_server *srv, struct ak_commit *k)
{
    const struct fix *f = k->data;
    (void)srv;
    ak_tournament_hold(f->t.id, false);
}

static void fix_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct fix *f = k->data;
    ak_tournament_hold(f->t.id, false);
    if (f->rc == AK_STORE_NOT_FOUND || f->rc == AK_STORE_EXISTS) {
        if (k->conn && f->rc == AK_STORE_EXISTS)
            ak_conn_reply_error(k->conn, k->id, "bad_request", "a tournament is called %s already",
                                f->kind == FIX_CANCEL ? f->renamed : f->t.name);
        else if (k->conn)
            ak_conn_reply_error(k->conn, k->id, "tournament_closed", f->kind == FIX_CANCEL
                                ? "tournament %s is over or cancelled already" : f->kind == FIX_EDIT
                                ? "tournament %s has started: it can no longer be edited"
                                : "tournament %s has moved on, or %s is not in it (or left it already)", f->t.name,
                                f->user_name);
        return;
    }
    int aborted = f->kind == FIX_CANCEL && f->abort_games ? abort_games_of(srv, f->t.id, f->admin) : 0;
    int resigned = f->running ? resign_games_of(srv, f->t.id, f->user) : 0;
    if (f->admin[0])
        ak_log_with(AK_LOG_INFO, AK_LOG_ADMIN(f->admin, f->t.name, 0), "admin %s: %s tournament %s %s", f->admin,
                    fix_ops[f->kind], f->t.name, f->detail);
    else
        ak_log(AK_LOG_INFO, "tournament %s: %s withdrew", f->t.name, f->user_name);
    if (!k->conn)
        return;
    json_t *r = json_pack("{s:I,s:s,s:s}", "tournament", (json_int_t)f->t.id, "name",
                          f->kind == FIX_CANCEL ? f->renamed : f->t.name, "done", fix_ops[f->kind]);
    if (f->kind == FIX_CANCEL)
        json_object_set_new(r, "games_aborted", json_integer(aborted));
    if (f->user)
        json_object_set_new(r, "user", json_string(f->user_name));
    if (f->running)
        json_object_set_new(r, "games_resigned", json_integer(resigned));
    ak_conn_reply_ok(k->conn, k->id, r);
}

static const struct ak_job fix_job = {fix_write, fix_answer, fix_undo, NULL, NULL};

/* The tournament named in msg, readable and not mid-start; false after an error reply. */
static bool tournament_arg(struct ak_conn *c, const json_t *id, const json_t *msg, struct ak_store_tournament *t)
{
    const json_t *tj = json_object_get(msg, "tournament");
    if (!json_is_integer(tj) || json_integer_value(tj) <= 0) {
        ak_conn_reply_error(c, id, "bad_request", "tournament is a tournament's number");
        return false;
    }
    int rc = ak_store_tournament_get(c->srv->store, json_integer_value(tj), t);
    if (rc == AK_STORE_NOT_FOUND)
        ak_conn_reply_error(c, id, "no_such_tournament", "there is no tournament %lld", (long long)json_integer_value(tj));
    else if (rc != AK_STORE_OK)
        ak_conn_reply_error(c, id, "internal", "the database could not be read");
    else if (ak_tournament_busy(t->id))
        ak_conn_reply_error(c, id, "rate_limited", "tournament %s is being started, joined or corrected just now; "
                            "try again in a moment", t->name);
    else
        return true;
    return false;
}

static void submit(struct ak_conn *c, const json_t *id, struct fix *f, bool admin)
{
    struct fix *copy = malloc(sizeof *copy);
    if (!copy) {
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing changed");
        return;
    }
    f->when = ak_now();
    if (admin)
        snprintf(f->admin, sizeof f->admin, "%s", c->user_name);
    if (!ak_tournament_hold(f->t.id, true)) {
        free(copy);
        ak_conn_reply_error(c, id, "rate_limited", "too many tournaments are being corrected at once; try again");
        return;
    }
    *copy = *f;
    ak_batch_job(c->srv, c, id, &fix_job, NULL, copy);      /* its undo lets go of the hold, if it fails */
}

static void op_withdraw(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct fix f = {.kind = FIX_WITHDRAW, .user = c->user};
    if (!tournament_arg(c, id, msg, &f.t))
        return;
    if (strcmp(f.t.status, "open") != 0 && strcmp(f.t.status, "running") != 0) {
        ak_conn_reply_error(c, id, "tournament_closed", "tournament %s is %s", f.t.name, f.t.status);
        return;
    }
    f.running = strcmp(f.t.status, "running") == 0;
    snprintf(f.user_name, sizeof f.user_name, "%s", c->user_name);
    submit(c, id, &f, false);
}

static void op_remove(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct fix f = {.kind = FIX_REMOVE};
    if (!tournament_arg(c, id, msg, &f.t) || !(f.user = ak_admin_user_arg(c, id, msg, f.user_name)))
        return;
    f.running = strcmp(f.t.status, "running") == 0;
    snprintf(f.detail, sizeof f.detail, "player %s%s", f.user_name, f.running ? " (forfeits the rest)" : "");
    submit(c, id, &f, true);
}

/* The time control as it is with only the fields given changed (seconds,
 * per, on_expiry); false if the result is not a time control. */
static bool time_control_merge(struct ak_store_tournament *t, const json_t *tc)
{
    if (!json_is_object(tc))
        return false;
    json_t *merged = json_pack("{s:i,s:s,s:s}", "seconds", t->tc_seconds, "per", t->tc_per, "on_expiry", t->tc_expiry);
    json_object_update(merged, (json_t *)tc);
    bool ok = ak_time_control_parse(merged, &t->tc_seconds, t->tc_per, t->tc_expiry);
    json_decref(merged);
    return ok;
}

static void op_edit(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct fix f = {.kind = FIX_EDIT};
    if (!tournament_arg(c, id, msg, &f.t))
        return;
    const char *name = json_string_value(json_object_get(msg, "name"));
    const json_t *rounds = json_object_get(msg, "rounds"), *starts = json_object_get(msg, "starts");
    const json_t *tc = json_object_get(msg, "time_control");
    if ((json_object_get(msg, "name") && (!name || !*name || strlen(name) > 63)) ||
        (rounds && (!json_is_integer(rounds) || json_integer_value(rounds) < 1 || json_integer_value(rounds) > 20 ||
                    strcmp(f.t.kind, "swiss") != 0)) ||
        (starts && (!json_is_integer(starts) || json_integer_value(starts) < 0)) ||
        (tc && !time_control_merge(&f.t, tc)) ||
        (!name && !rounds && !starts && !tc)) {
        ak_conn_reply_error(c, id, "bad_request", "tournament_edit changes name (1 to 63 characters), starts "
                            "(seconds since the epoch), rounds (1 to 20, a Swiss) or time_control");
        return;
    }
    if (strcmp(f.t.status, "open") != 0) {
        ak_conn_reply_error(c, id, "tournament_closed", "tournament %s has started: it can no longer be edited", f.t.name);
        return;
    }
    char was[64];
    snprintf(was, sizeof was, "%s", f.t.name);
    if (name)
        snprintf(f.t.name, sizeof f.t.name, "%s", name);
    if (rounds)
        f.t.rounds = (int)json_integer_value(rounds);
    if (starts)
        f.t.starts = json_integer_value(starts);
    snprintf(f.detail, sizeof f.detail, "%s%s%s%s%s", name ? "name (was " : "", name ? was : "", name ? ") " : "",
             starts ? "starts " : "", rounds || tc ? (rounds && tc ? "rounds time_control" : rounds ? "rounds"
                                                                                       : "time_control") : "");
    submit(c, id, &f, true);
}

static void op_cancel(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct fix f = {.kind = FIX_CANCEL};
    if (!tournament_arg(c, id, msg, &f.t))
        return;
    const char *games = json_string_value(json_object_get(msg, "games"));
    if (json_object_get(msg, "games") && (!games || (strcmp(games, "abort") != 0 && strcmp(games, "finish") != 0))) {
        ak_conn_reply_error(c, id, "bad_request", "games is abort (its unfinished games called off) or finish");
        return;
    }
    f.abort_games = games && strcmp(games, "abort") == 0;
    /* the whole new name within 63 bytes: the old one cut (never inside a
     * UTF-8 character) to leave room for the words after it */
    char suffix[40];
    int room = 63 - snprintf(suffix, sizeof suffix, " (cancelled %lld)", (long long)f.t.id);
    int keep = (int)strlen(f.t.name) < room ? (int)strlen(f.t.name) : room;
    while (keep > 0 && ((unsigned char)f.t.name[keep] & 0xC0) == 0x80)
        keep--;
    snprintf(f.renamed, sizeof f.renamed, "%.*s%s", keep, f.t.name, suffix);
    snprintf(f.detail, sizeof f.detail, "games %s", f.abort_games ? "abort" : "finish");
    submit(c, id, &f, true);
}

void ak_cmd_tournament(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    const char *op = json_string_value(json_object_get(msg, "op"));
    if (op && strcmp(op, "withdraw") == 0)
        op_withdraw(c, id, msg);
    else if (!op || !ak_tournament_player_op(c, id, msg, op))
        ak_conn_reply_error(c, id, "bad_request", "op is list, show, join or withdraw");
}

bool ak_tournament_fix_op(struct ak_conn *c, const json_t *id, const json_t *msg, const char *op)
{
    if (strcmp(op, "tournament_remove") == 0)
        op_remove(c, id, msg);
    else if (strcmp(op, "tournament_edit") == 0)
        op_edit(c, id, msg);
    else if (strcmp(op, "tournament_cancel") == 0)
        op_cancel(c, id, msg);
    else
        return false;
    return true;
}
