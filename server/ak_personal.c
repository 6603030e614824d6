/* ak_personal: what an account owner controls of his personal data
 * (issue 33).
 *
 *   {"cmd":"account","op":"export"}
 *       his data as JSON: profile and settings, ratings, his games (the
 *       newest EXPORT_ROWS), the chat he wrote (the same), and how many
 *       of each there are in all
 *   {"cmd":"account","op":"delete","password":P}
 *       his account erased, once the password is checked (a guess like a
 *       login's): the name becomes "deleted-N", the password, e-mail,
 *       settings, sessions, reset tokens, admin role, open reports and
 *       ratings go, and the text of every message he wrote; his unfinished
 *       games end first as the operator's delete_games says (resign: he
 *       resigns each started game; adjudicate: each goes to his opponent,
 *       by adjudication), his open seeks and challenges to him are called
 *       off. Finished games stay, under the placeholder, so their records
 *       still replay and verify (a record holds the actions and the dice,
 *       not the players' data), and the opponents' ratings stand.
 *   {"cmd":"admin","op":"export_account"|"delete_account","user":U}
 *       the same for an admin, on the owner's request; audited.
 *
 * Budgets: both are small writes of the account's (the command table:
 * writes_per_minute) and costly in the rate (an export reads at most
 * 2 x EXPORT_ROWS rows, on the loop, and its reply is charged to the
 * address's output budget like any). A deletion is one commit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_engine.h"
#include "ak_server.h"

#define EXPORT_ROWS 5000

/* ---- export --------------------------------------------------------------- */

static void one_game(void *ud, int64_t game, const char *ruleset, int side, const char *opponent, int64_t created,
                     const char *status)
{
    json_array_append_new(ud, json_pack("{s:I,s:s,s:s,s:s,s:I,s:s}", "game", (json_int_t)game, "ruleset", ruleset,
                                        "side", side == AK_AXIS ? "axis" : "allied", "opponent", opponent, "created",
                                        (json_int_t)created, "status", status));
}

static void one_message(void *ud, int64_t id, int64_t game, int64_t at, const char *channel, const char *text,
                        bool removed)
{
    json_t *m = json_pack("{s:I,s:I,s:I,s:s,s:s}", "id", (json_int_t)id, "game", (json_int_t)game, "at", (json_int_t)at,
                          "channel", channel, "text", text);
    if (removed)
        json_object_set_new(m, "removed", json_true());
    json_array_append_new(ud, m);
}

static json_t *ratings_of(struct ak_store *st, int64_t user)
{
    json_t *out = json_array();
    for (int r = 0; r < ak_ruleset_count(); r++) {
        struct ak_store_glicko g;
        const char *name = ak_ruleset_get(r)->name;
        if (ak_store_glicko_get(st, user, name, &g) == AK_STORE_OK)
            json_array_append_new(out, json_pack("{s:s,s:i,s:i,s:i}", "ruleset", name, "rating", (int)(g.rating + 0.5),
                                                 "rd", (int)(g.rd + 0.5), "games", g.games));
    }
    return out;
}

/* The export of user, or NULL when the store could not be read. */
static json_t *export_of(struct ak_server *srv, int64_t user, const char *name)
{
    struct ak_store *st = srv->store;
    struct ak_store_prefs p;
    int64_t created = 0, games_total = 0, chat_total = 0;
    bool admin = false;
    json_t *games = json_array(), *chat = json_array();
    if (ak_store_prefs_get(st, user, &p) != AK_STORE_OK || ak_store_user_created(st, user, &created) != AK_STORE_OK ||
        ak_store_is_admin(st, user, &admin, NULL, 0) != AK_STORE_OK ||
        ak_store_user_games_each(st, user, EXPORT_ROWS, &games_total, one_game, games) != AK_STORE_OK ||
        ak_store_user_chat_each(st, user, EXPORT_ROWS, &chat_total, one_message, chat) != AK_STORE_OK) {
        json_decref(games);
        json_decref(chat);
        return NULL;
    }
    json_t *profile = json_pack("{s:s,s:I,s:s,s:b,s:s,s:b,s:I,s:b,s:b}", "name", name, "created", (json_int_t)created,
                                "email", p.email, "email_verified", p.email_verified != 0, "notify", p.notify_mode,
                                "chat_muted", p.chat_muted != 0, "vacation_until", (json_int_t)p.vacation_until,
                                "admin", admin, "computer", ak_is_computer(srv, user));
    return json_pack("{s:o,s:o,s:o,s:I,s:o,s:I,s:i}", "profile", profile, "ratings", ratings_of(st, user), "games", games,
                     "games_total", (json_int_t)games_total, "chat", chat, "chat_total", (json_int_t)chat_total,
                     "rows_max", EXPORT_ROWS);
}

static void reply_export(struct ak_conn *c, const json_t *id, int64_t user, const char *name)
{
    json_t *e = export_of(c->srv, user, name);
    if (!e)
        ak_conn_reply_error(c, id, "internal", "the database could not be read");
    else
        ak_conn_reply_ok(c, id, e);
}

/* ---- delete --------------------------------------------------------------- */

/* user's unfinished games, ended as delete_games says; his open seeks and
 * the challenges to him called off. How many. */
static int end_games_of(struct ak_server *srv, int64_t user, const char *by)
{
    bool adjudicate = strcmp(srv->cfg.delete_games, "adjudicate") == 0;
    int n = 0;
    for (struct ak_game *g = srv->games; g; g = g->next) {
        int side = g->player[AK_AXIS] == user ? AK_AXIS : g->player[AK_ALLIED] == user ? AK_ALLIED : -1;
        if (g->creating || strcmp(g->meta.status, "active") != 0 || ak_game_brief_of(g).phase == AK_PHASE_OVER)
            continue;
        if (side < 0) {
            if (g->meta.challenge == user && ak_game_open(g))
                n += ak_game_close(srv, NULL, NULL, g, "declined", by);
            continue;
        }
        if (ak_game_open(g) || g->player[!side] == user) {
            n += ak_game_close(srv, NULL, NULL, g, "aborted", by);
            continue;
        }
        if (ak_game_load(srv, g) != 0)
            continue;
        struct ak_action a = {.kind = (uint8_t)(adjudicate ? AK_ACT_ADJUDICATE : AK_ACT_RESIGN),
                              .side = (uint8_t)(adjudicate ? !side : side), .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
        static struct ak_state next;
        struct ak_events ev = {0};
        struct ak_reject rej;
        if (ak_game_try(g, &a, NULL, &next, &ev, &rej) &&
            ak_game_commit(srv, g, &a, NULL, &next, &ev, adjudicate ? "server" : side == AK_AXIS ? "axis" : "allied",
                           NULL, NULL))
            n++;
    }
    return n;
}

struct erasure {
    int64_t user, when;
    int games_ended;
    char name[64], placeholder[32];
    char admin[64];         /* "" when the owner asked */
    bool found, name_taken;
};

static int erase_write(struct ak_store *st, const struct ak_commit *k)
{
    struct erasure *e = k->data;
    int rc = ak_store_user_erase(st, e->user, e->placeholder, e->when);
    e->found = rc != AK_STORE_NOT_FOUND;
    e->name_taken = rc == AK_STORE_EXISTS;
    if (rc != AK_STORE_OK)
        return rc == AK_STORE_NOT_FOUND || rc == AK_STORE_EXISTS ? AK_STORE_OK : rc;
    return e->admin[0] ? ak_store_audit(st, e->when, e->admin, "delete_account", e->name, e->placeholder) : AK_STORE_OK;
}

static void erase_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct erasure *e = k->data;
    if (!e->found || e->name_taken) {
        if (k->conn && e->name_taken)
            ak_conn_reply_error(k->conn, k->id, "internal", "another account is called %s; the operator must rename "
                                "it first (its games were ended)", e->placeholder);
        else if (k->conn)
            ak_conn_reply_error(k->conn, k->id, "no_such_user", "the account is gone already");
        return;
    }
    ak_log_with(AK_LOG_INFO, &(struct ak_log_ctx){0, e->admin[0] ? e->admin : e->placeholder, 0, e->placeholder},
                "account %s deleted%s%s (its personal data erased; it is %s now; %d games ended)", e->name,
                e->admin[0] ? " by admin " : " by its owner", e->admin, e->placeholder, e->games_ended);
    for (struct ak_game *g = srv->games; g; g = g->next)
        if (g->player[AK_AXIS] == e->user || g->player[AK_ALLIED] == e->user)
            ak_game_name_players(srv, g);
    ak_computer_refresh(srv, e->user);
    if (k->conn)
        ak_conn_reply_ok(k->conn, k->id, json_pack("{s:s,s:s,s:i}", "user", e->name, "now", e->placeholder,
                                                   "games_ended", e->games_ended));
    /* after the answer: the owner's own connection is among them */
    ak_conn_end_sessions(srv, e->user, NULL, NULL, "the account was deleted");
}

static const struct ak_job erase_job = {erase_write, erase_answer, NULL, NULL, NULL};

static void erase(struct ak_conn *c, const json_t *id, int64_t user, const char *name, const char *admin)
{
    bool is_admin = false;
    if (admin && (user == c->user || (ak_store_is_admin(c->srv->store, user, &is_admin, NULL, 0) == AK_STORE_OK &&
                                      is_admin))) {
        ak_conn_reply_error(c, id, "bad_request", "%s has the admin role: it is taken back first (akd --admin-remove "
                            "%s), and no admin deletes his own account this way", name, name);
        return;
    }
    struct erasure *e = calloc(1, sizeof *e);
    if (!e) {
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing was done");
        return;
    }
    e->user = user;
    e->when = ak_now();
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->placeholder, sizeof e->placeholder, "deleted-%lld", (long long)user);
    snprintf(e->admin, sizeof e->admin, "%s", admin ? admin : "");
    char by[96];
    snprintf(by, sizeof by, "%s", admin ? admin : name);
    e->games_ended = end_games_of(c->srv, user, by);
    ak_batch_job(c->srv, c, id, &erase_job, NULL, e);
}

/* An admin's export: its audit row stored first, the data sent once it is. */
struct audited_export {
    int64_t user, when;
    char name[64], admin[64];
};

static int export_write(struct ak_store *st, const struct ak_commit *k)
{
    const struct audited_export *x = k->data;
    return ak_store_audit(st, x->when, x->admin, "export_account", x->name, "");
}

static void export_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct audited_export *x = k->data;
    ak_log_with(AK_LOG_INFO, AK_LOG_ADMIN(x->admin, x->name, 0), "admin %s: export_account %s", x->admin, x->name);
    (void)srv;
    if (k->conn)
        reply_export(k->conn, k->id, x->user, x->name);
}

static const struct ak_job export_job = {export_write, export_answer, NULL, NULL, NULL};

static void export_audited(struct ak_conn *c, const json_t *id, int64_t user, const char *name)
{
    struct audited_export *x = calloc(1, sizeof *x);
    if (!x) {
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing was done");
        return;
    }
    *x = (struct audited_export){.user = user, .when = ak_now()};
    snprintf(x->name, sizeof x->name, "%s", name);
    snprintf(x->admin, sizeof x->admin, "%s", c->user_name);
    ak_batch_job(c->srv, c, id, &export_job, NULL, x);
}

static void owner_confirmed(struct ak_conn *c, const json_t *id)
{
    erase(c, id, c->user, c->user_name, NULL);
}

void ak_cmd_account(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    const char *op = json_string_value(json_object_get(msg, "op"));
    if (op && strcmp(op, "export") == 0)
        reply_export(c, id, c->user, c->user_name);
    else if (op && strcmp(op, "delete") == 0)
        ak_account_confirm(c, id, json_string_value(json_object_get(msg, "password")), owner_confirmed);
    else
        ak_conn_reply_error(c, id, "bad_request", "op is export or delete");
}

bool ak_personal_op(struct ak_conn *c, const json_t *id, const json_t *msg, const char *op)
{
    bool export = strcmp(op, "export_account") == 0;
    if (!export && strcmp(op, "delete_account") != 0)
        return false;
    char name[64];
    int64_t user = ak_admin_user_arg(c, id, msg, name);
    if (!user)
        return true;
    if (export)
        export_audited(c, id, user, name);
    else
        erase(c, id, user, name, c->user_name);
    return true;
}
