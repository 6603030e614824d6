/* ak_dispatch: the command table. Every request names a "cmd"; unknown
 * commands and missing ids get an error reply and change nothing.
 *
 * Each command has a cost in the connection's rate budget (ak_conn.c
 * charges one for any line before parsing it; the rest here), the same
 * cost in its account's and its address's (ak_budget.c), and, if it
 * writes, one of its account's small writes; its reply's bytes are
 * charged to the address's output budget. The costly queries (route
 * searches, legal-action listings, records, the game list) and the large
 * reads (a game, the map, chat, ratings) are not run as they arrive: they
 * wait in one queue and the loop runs one of them per turn, after it has
 * read and refereed what arrived (actions first). A flood of them from
 * several connections then delays a player's action by at most one query,
 * however many there are; the flooders wait for each other. */
#include <stdlib.h>
#include <string.h>

#include "ak_codec.h"
#include "ak_notation.h"
#include "ak_server.h"
#include "ak_version.h"

static json_t *phases_json(unsigned bits)
{
    json_t *list = json_array();
    for (int p = 0; p < AK_PHASES; p++)
        if (bits & (1u << p) && p != AK_PHASE_OVER)
            json_array_append_new(list, json_string(ak_phase_name(p)));
    return list;
}

/* What a client shows of a ruleset, from its table (clients ask these
 * rather than test its name). */
static json_t *ruleset_facts(const struct ak_ruleset *rs)
{
    json_t *actions = json_array();
    for (int k = 0; k < AK_ACT_KINDS; k++)
        if (rs->apply[k])
            json_array_append_new(actions, json_string(ak_action_kind_name(k)));
    return json_pack("{s:o,s:o,s:o,s:s,s:o,s:b,s:s,s:s,s:s,s:s}", "phases", phases_json(rs->phases), "move_phases",
                     phases_json(rs->move_phases), "end_phase_in", phases_json(rs->end_phase_phases), "last_phase",
                     ak_phase_name(rs->last_phase), "actions", actions, "attacks_obligatory", rs->attacks_obligatory,
                     "battle_supply", rs->supply_bombards ? "bombard" : "sustain", "strength_unit",
                     rs->half_points ? "half_point" : "factor", "battle_table", rs->needs_crt_table ? "game" : "1964",
                     "phase_word", rs->phase_word);
}

/* The rulesets of this akd and whether a game of each can be started
 * here; why not when it cannot (ak_ruleset_unavailable); what clients
 * show of each. */
static json_t *rulesets_json(const struct ak_server *srv)
{
    json_t *list = json_array();
    for (int r = 0; r < ak_ruleset_count(); r++) {
        char why[400];
        bool unavailable = ak_ruleset_unavailable(srv, r, why, sizeof why);
        json_t *x = json_pack("{s:s,s:s,s:b}", "name", ak_ruleset_get(r)->name, "title", ak_ruleset_get(r)->title,
                              "available", !unavailable);
        if (unavailable)
            json_object_set_new(x, "why", json_string(why));
        json_t *facts = ruleset_facts(ak_ruleset_get(r));     /* after: the fields before keep their order */
        json_object_update(x, facts);
        json_decref(facts);
        json_array_append_new(list, x);
    }
    return list;
}

/* The greeting is the first thing every client asks for, logged in or
 * not, so it is encoded once and kept HELLO_KEEP_MS (what rulesets are
 * available can change when the operator fixes a table and reloads). */
#define HELLO_KEEP_MS 10000

static void cmd_hello(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    static char *text;
    static uint64_t made;
    uint64_t now = uv_now(c->srv->loop);
    (void)msg;
    if (!text || now - made > HELLO_KEEP_MS) {
        json_t *r = json_pack("{s:s,s:s,s:i,s:o}", "server", "akd", "version", AK_VERSION, "protocol", 1,
                              "rulesets", rulesets_json(c->srv));
        char *fresh = r ? ak_json_text(r) : NULL;
        json_decref(r);
        if (fresh) {
            free(text);
            text = fresh;
            made = now;
        }
    }
    if (!text) {
        ak_conn_reply_error(c, id, "internal", "out of memory");
        return;
    }
    ak_conn_reply_ok_text(c, id, text, strlen(text));
}

static void cmd_rules(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    (void)msg;
    int n;
    const struct ak_rule_info *t = ak_rule_table(&n);
    json_t *list = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(list, json_pack("{s:s,s:s,s:s}", "code", t[i].code, "section",
                                              t[i].section, "summary", t[i].summary));
    ak_conn_reply_ok(c, id, json_pack("{s:o}", "rules", list));
}

/* The board for clients that draw it: the same for the life of the
 * process, so encoded once. */
static void cmd_map(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    static char *text;
    static size_t len;
    (void)msg;
    if (!text) {
        json_t *board = ak_board_to_json();
        text = board ? ak_json_text(board) : NULL;
        json_decref(board);
        len = text ? strlen(text) : 0;
    }
    if (!text) {
        ak_conn_reply_error(c, id, "internal", "out of memory");
        return;
    }
    ak_conn_reply_ok_text(c, id, text, len);
}

static void cmd_ping(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    (void)msg;
    ak_conn_reply_ok(c, id, json_pack("{s:I}", "time", (json_int_t)ak_now()));
}

typedef void command_fn(struct ak_conn *, const json_t *, const json_t *);

/* Which requests of a command are small writes, charged to the account's
 * writes_per_minute (ak_budget.c): */
static bool never(const json_t *msg)
{
    (void)msg;
    return false;
}

static bool always(const json_t *msg)
{
    (void)msg;
    return true;
}

/* ... those that change something (settings, vacation: any member but
 * cmd, id and game asks for a change; the plain form only reads), */
static bool with_change(const json_t *msg)
{
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)msg, key, v)
        if (strcmp(key, "cmd") != 0 && strcmp(key, "id") != 0 && strcmp(key, "game") != 0)
            return true;
    return false;
}

/* ... those that carry a text (chat: a message; paging back through the
 * history with before only reads), */
static bool with_text(const json_t *msg)
{
    return json_object_get(msg, "text") != NULL;
}

/* ... and the ops that are not readings (tournament list and show, admin
 * overdue and stats). */
static bool op_writes(const json_t *msg)
{
    static const char *const reads[] = {"list", "show", "overdue", "stats", "chat_reports"};
    const char *op = json_string_value(json_object_get(msg, "op"));
    for (size_t i = 0; op && i < sizeof reads / sizeof reads[0]; i++)
        if (strcmp(op, reads[i]) == 0)
            return false;
    return op != NULL;
}

/* The command table. cost: requests' worth of the connection's and the
 * account's rate (the address has paid one per line already); writes: which
 * of its requests take one of the account's small writes. Actions (act,
 * undo, join) are not small writes: they are the game, paced by the rate
 * alone, and committed in groups. PROTOCOL.md lists the same costs. */
static const struct {
    const char *name;
    command_fn *fn;
    bool needs_login;
    bool slow;          /* queued behind actions (see above) */
    int cost;           /* requests' worth of the rate budget */
    bool (*writes)(const json_t *msg);
} commands[] = {
    {"hello", cmd_hello, false, false, 1, never},
    {"ping", cmd_ping, false, false, 1, never},
    {"rules", cmd_rules, false, false, 2, never},
    {"map", cmd_map, false, true, 4, never},
    {"register", ak_cmd_register, false, false, 2, never},     /* hashes have limits of their own */
    {"login", ak_cmd_login, false, false, 2, never},
    {"resume", ak_cmd_resume, false, false, 2, never},
    {"reset_password", ak_cmd_reset_password, false, false, 2, never},
    {"logout", ak_cmd_logout, true, false, 1, never},
    {"games", ak_cmd_games, true, true, 4, never},
    {"show", ak_cmd_show, false, true, 2, never},
    {"watch", ak_cmd_watch, false, true, 2, never},
    {"dests", ak_cmd_dests, true, true, 5, never},
    {"why", ak_cmd_why, true, true, 5, never},
    {"overlay", ak_cmd_overlay, false, true, 5, never},     /* public: spectators too */
    {"odds", ak_cmd_odds, true, true, 5, never},
    {"options", ak_cmd_options, true, true, 10, never},
    {"record", ak_cmd_record, false, true, 10, never},  /* spectators without an account too */
    {"replay", ak_cmd_replay, false, true, 10, never},
    {"ladder", ak_cmd_ladder, false, true, 4, never},
    {"player", ak_cmd_player, false, true, 4, never},
    {"admin", ak_cmd_admin, true, false, 2, op_writes},
    {"tournament", ak_cmd_tournament, true, false, 4, op_writes},
    {"chat", ak_cmd_chat, true, true, 2, with_text},
    {"chat_report", ak_cmd_chat_report, true, true, 2, always},     /* and REPORTS_PER_ACCOUNT open */
    {"account", ak_cmd_account, true, true, 10, always},   /* export: up to 10,000 rows read; delete: a hash */
    {"settings", ak_cmd_settings, true, false, 2, with_change},
    {"vacation", ak_cmd_vacation, true, false, 2, with_change},
    {"give_time", ak_cmd_give_time, true, false, 2, always},
    {"passwd", ak_cmd_passwd, true, false, 2, always},
    {"new", ak_cmd_new, true, true, 2, always},     /* a game made: queued, one a loop turn */
    {"join", ak_cmd_join, true, false, 1, never},
    {"decline", ak_cmd_decline, true, false, 2, always},
    {"bid", ak_cmd_bid, true, false, 2, always},    /* at most 7 a game (ak_bid.c) */
    {"abort", ak_cmd_abort, true, false, 2, always},
    {"act", ak_cmd_act, true, false, 1, never},
    {"undo", ak_cmd_undo, true, true, 5, never},     /* may replay the log (ak_undo.c) */
};

/* Run a command and charge the bytes of its reply to the address's
 * output budget (a large reply is known only once it is made); an address
 * in debt is not read from this connection for a while. */
static void run_measured(struct ak_conn *c, const json_t *id, const json_t *msg, command_fn *fn)
{
    size_t before = c->out_len;
    c->refs++;      /* the command may close it */
    fn(c, id, msg);
    if (!c->closing && c->out_len > before &&
        !ak_budget_spend(&c->srv->cfg, AK_BUDGET_OUTPUT, c->addr_key, (double)(c->out_len - before) / 1024.0,
                         uv_now(c->srv->loop)))
        ak_conn_throttle(c);
    ak_conn_unref(c);
}

/* The queue of costly queries, run one per loop turn by an idle handle
 * (which also keeps the loop from sleeping while the queue is not empty). */
struct slow_query {
    struct ak_conn *c;
    json_t *msg;
    command_fn *fn;
    struct slow_query *next;
};

static void run_one_slow(uv_idle_t *h)
{
    struct ak_server *srv = h->data;
    struct slow_query *q = srv->slow_head;
    if (!q) {
        uv_idle_stop(h);
        return;
    }
    srv->slow_head = q->next;
    if (!srv->slow_head)
        srv->slow_tail = &srv->slow_head;
    /* The queue's hold ends here; a command that goes on to the group
     * commit (a chat message) holds the connection again until it is
     * answered, and its later requests wait for that (replies in order). */
    q->c->busy = false;
    if (!q->c->closing)
        run_measured(q->c, json_object_get(q->msg, "id"), q->msg, q->fn);
    if (!q->c->closing && !q->c->busy)
        ak_conn_resume(q->c);
    ak_conn_unref(q->c);
    json_decref(q->msg);
    free(q);
}

static void queue_slow(struct ak_conn *c, json_t *msg, command_fn *fn)
{
    struct ak_server *srv = c->srv;
    if (srv->stopping) {
        ak_conn_reply_error(c, json_object_get(msg, "id"), "internal", "the server is shutting down");
        return;
    }
    struct slow_query *q = malloc(sizeof *q);
    if (!q) {
        ak_conn_reply_error(c, json_object_get(msg, "id"), "internal", "out of memory");
        return;
    }
    if (!srv->slow_idle.data) {
        uv_idle_init(srv->loop, &srv->slow_idle);
        srv->slow_idle.data = srv;
        srv->slow_tail = &srv->slow_head;
    }
    *q = (struct slow_query){c, json_incref(msg), fn, NULL};
    *srv->slow_tail = q;
    srv->slow_tail = &q->next;
    c->refs++;
    ak_conn_hold(c);    /* its later requests wait, in order */
    uv_idle_start(&srv->slow_idle, run_one_slow);
}

void ak_dispatch_stop(struct ak_server *srv)
{
    ak_play_stop();
    ak_records_stop();
    while (srv->slow_head) {
        struct slow_query *q = srv->slow_head;
        srv->slow_head = q->next;
        ak_conn_unref(q->c);
        json_decref(q->msg);
        free(q);
    }
    if (srv->slow_idle.data && !uv_is_closing((uv_handle_t *)&srv->slow_idle))
        uv_close((uv_handle_t *)&srv->slow_idle, NULL);
}

/* The command's cost, charged before it runs: to the connection's rate,
 * then the account's, then (a small write) to the account's writes; a
 * refusal says which, takes nothing from the budgets after it, and stops
 * reading the connection for a while (a flood of refusals would cost the
 * loop nearly what the requests would). */
static bool charge(struct ak_conn *c, const json_t *id, const char *cmd, int cost, bool writes, bool large)
{
    const struct ak_config *cfg = &c->srv->cfg;
    uint64_t now = uv_now(c->srv->loop), user = c->user ? ak_budget_user_key(c->user) : 0;
    if (!ak_conn_charge(c, cost - 1)) {
        ak_conn_reply_error(c, id, "rate_limited", "'%s' costs %d requests' worth of the rate limit (%d per "
                            "second); wait and try again", cmd, cost, cfg->rate);
        return false;
    }
    if (cost > 1 && !ak_budget_charge(cfg, AK_BUDGET_ADDRESS, c->addr_key, cost - 1, now)) {
        ak_conn_throttle(c);
        ak_conn_reply_error(c, id, "rate_limited", "'%s' costs %d requests' worth of your address's rate (%d "
                            "per second, all connections together); wait and try again", cmd, cost,
                            cfg->rate_per_address);
        return false;
    }
    /* Only the large reads wait for an address's output debt: a player's
     * actions are never held up by what others at his address read. */
    if (large && ak_budget_in_debt(cfg, AK_BUDGET_OUTPUT, c->addr_key, now)) {
        ak_conn_throttle(c);
        ak_conn_reply_error(c, id, "rate_limited", "your address was sent more than %d KiB a second (all "
                            "connections together); wait and try again", cfg->output_per_address);
        return false;
    }
    if (user && !ak_budget_charge(cfg, AK_BUDGET_USER, user, cost, now)) {
        ak_conn_throttle(c);
        ak_conn_reply_error(c, id, "rate_limited", "more than %d requests per second from your account, all "
                            "connections together; wait and try again", cfg->rate_per_user);
        return false;
    }
    if (writes && user && !ak_budget_charge(cfg, AK_BUDGET_WRITES, user, 1, now)) {
        ak_conn_throttle(c);    /* its next requests wait in TCP, not in refusals */
        ak_conn_reply_error(c, id, "rate_limited", "'%s' changes something: your account may make %d such "
                            "changes a minute; the next in %.0f s", cmd, cfg->writes_per_minute,
                            ak_budget_wait(cfg, AK_BUDGET_WRITES, user, 1, now) + 0.5);
        return false;
    }
    return true;
}

void ak_dispatch(struct ak_conn *c, json_t *msg)
{
    const json_t *id = json_object_get(msg, "id");
    const char *cmd = json_string_value(json_object_get(msg, "cmd"));
    if (!id || !(json_is_integer(id) || json_is_string(id))) {
        ak_conn_reply_error(c, NULL, "bad_request", "every request needs an \"id\" (integer or string)");
        return;
    }
    if (!cmd) {
        ak_conn_reply_error(c, id, "bad_request", "every request needs a \"cmd\" string");
        return;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(cmd, commands[i].name) != 0)
            continue;
        if (commands[i].needs_login && !c->user) {
            ak_conn_reply_error(c, id, "not_logged_in", "log in first (login or resume)");
            return;
        }
        if (!charge(c, id, cmd, commands[i].cost, commands[i].writes(msg), commands[i].slow))
            return;
        if (commands[i].slow)
            queue_slow(c, msg, commands[i].fn);
        else
            run_measured(c, id, msg, commands[i].fn);
        return;
    }
    ak_conn_reply_error(c, id, "unknown_command", "unknown command '%s'", cmd);
}
