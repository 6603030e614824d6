/* ak_dispatch: the command table. Every request names a "cmd"; unknown
 * commands and missing ids get an error reply and change nothing. */
#include <string.h>

#include "ak_server.h"
#include "ak_version.h"

static void cmd_hello(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    (void)msg;
    ak_conn_reply_ok(c, id, json_pack("{s:s,s:s,s:i}", "server", "akd", "version", AK_VERSION,
                                      "protocol", 1));
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

static const struct {
    const char *name;
    void (*fn)(struct ak_conn *, const json_t *, const json_t *);
    bool needs_login;
} commands[] = {
    {"hello", cmd_hello, false},
    {"rules", cmd_rules, false},
    {"register", ak_cmd_register, false},
    {"login", ak_cmd_login, false},
    {"resume", ak_cmd_resume, false},
    {"logout", ak_cmd_logout, true},
    {"games", ak_cmd_games, false},
    {"show", ak_cmd_show, false},
    {"watch", ak_cmd_watch, false},
    {"dests", ak_cmd_dests, false},
    {"why", ak_cmd_why, false},
    {"options", ak_cmd_options, false},
    {"record", ak_cmd_record, false},
    {"ladder", ak_cmd_ladder, false},
    {"passwd", ak_cmd_passwd, true},
    {"new", ak_cmd_new, true},
    {"join", ak_cmd_join, true},
    {"decline", ak_cmd_decline, true},
    {"abort", ak_cmd_abort, true},
    {"act", ak_cmd_act, true},
    {"undo", ak_cmd_undo, true},
};

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
        commands[i].fn(c, id, msg);
        return;
    }
    ak_conn_reply_error(c, id, "unknown_command", "unknown command '%s'", cmd);
}
