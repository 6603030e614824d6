/* ak_games: the games akd referees.
 *
 * Every game lives in memory as a struct ak_state. An action from a player
 * goes through ak_apply (the rules library decides), then is appended to
 * the store with the new snapshot in one committed transaction, and only
 * then acknowledged and pushed to players and spectators as a JSON Patch of
 * the public state. A rejected action changes nothing anywhere.
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_codec.h"
#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_patch.h"
#include "ak_query.h"
#include "ak_server.h"

static struct ak_game *find_game(struct ak_server *srv, int64_t id)
{
    for (struct ak_game *g = srv->games; g; g = g->next)
        if (g->id == id)
            return g;
    return NULL;
}

static struct ak_game *game_arg(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    const json_t *gid = json_object_get(msg, "game");
    if (!json_is_integer(gid)) {
        ak_conn_reply_error(c, id, "bad_request", "\"game\" must be a game number");
        return NULL;
    }
    struct ak_game *g = find_game(c->srv, json_integer_value(gid));
    if (!g)
        ak_conn_reply_error(c, id, "no_such_game", "there is no game %lld",
                            (long long)json_integer_value(gid));
    return g;
}

static struct ak_game *game_add(struct ak_server *srv, int64_t id)
{
    struct ak_game *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->id = id;
    g->next = srv->games;
    srv->games = g;
    return g;
}

static void name_players(struct ak_server *srv, struct ak_game *g)
{
    for (int side = 0; side < AK_SIDES; side++)
        if (!g->player[side] ||
            ak_store_user_name(srv->store, g->player[side], g->player_name[side],
                               sizeof g->player_name[side]) != AK_STORE_OK)
            g->player_name[side][0] = '\0';
}

struct replay_ctx {
    struct ak_game *g;
    bool failed;
};

static int replay_one(void *ud, uint32_t seq, int side, const char *json)
{
    struct replay_ctx *r = ud;
    json_error_t je;
    json_t *j = json_loads(json, 0, &je);
    struct ak_action a;
    struct ak_reject rej;
    char err[200];
    bool ok = j && ak_action_from_json(j, side, &a, err, sizeof err) &&
              ak_apply(&r->g->state, &a, NULL, &rej);
    json_decref(j);
    if (!ok || r->g->state.actions != seq) {
        ak_log(AK_LOG_ERROR, "game %lld: action %u does not replay", (long long)r->g->id, seq);
        r->failed = true;
        return 1;
    }
    return 0;
}

static int load_one(void *ud, const struct ak_store_game *sg)
{
    struct ak_server *srv = ud;
    struct ak_game *g = game_add(srv, sg->id);
    int ruleset = ak_ruleset_find(sg->ruleset);
    if (!g || ruleset < 0)
        return 1;
    g->player[0] = sg->player[0];
    g->player[1] = sg->player[1];
    if (sg->snapshot && sg->snapshot_len == sizeof g->state && sg->snapshot_seq == sg->seq) {
        memcpy(&g->state, sg->snapshot, sizeof g->state);
    } else {
        struct replay_ctx r = {g, false};
        ak_state_init(&g->state, ruleset, sg->seed);
        if (ak_store_actions_each(srv->store, g->id, replay_one, &r) != AK_STORE_OK || r.failed)
            return 1;
    }
    return 0;
}

int ak_games_load(struct ak_server *srv)
{
    if (ak_store_games_each(srv->store, load_one, srv) != AK_STORE_OK)
        return -1;
    int n = 0;
    for (struct ak_game *g = srv->games; g; g = g->next, n++) {
        name_players(srv, g);
        g->public_state = ak_state_to_json(&g->state);
    }
    ak_log(AK_LOG_INFO, "loaded %d games", n);
    return 0;
}

void ak_games_free(struct ak_server *srv)
{
    while (srv->games) {
        struct ak_game *g = srv->games;
        srv->games = g->next;
        json_decref(g->public_state);
        free(g);
    }
}

static void watch(struct ak_conn *c, int64_t game)
{
    for (int i = 0; i < c->nwatch; i++)
        if (c->watch[i] == game)
            return;
    if (c->nwatch < AK_WATCH_MAX)
        c->watch[c->nwatch++] = game;
}

static bool watching(const struct ak_conn *c, int64_t game)
{
    for (int i = 0; i < c->nwatch; i++)
        if (c->watch[i] == game)
            return true;
    return false;
}

static json_t *players_json(const struct ak_game *g)
{
    return json_pack("{s:s?,s:s?}", "axis", g->player[0] ? g->player_name[0] : NULL,
                     "allied", g->player[1] ? g->player_name[1] : NULL);
}

static json_t *game_summary(const struct ak_game *g, int64_t user)
{
    const struct ak_state *s = &g->state;
    int waiting = ak_waiting_for(s);
    json_t *j = json_pack("{s:I,s:s,s:o,s:i,s:s,s:s,s:s,s:I}",
                          "game", (json_int_t)g->id, "ruleset", ak_ruleset_get(s->ruleset)->name,
                          "players", players_json(g), "turn", s->turn,
                          "date", ak_data()->scenario.date[s->turn],
                          "phase", ak_phase_name(s->phase),
                          "result", ak_result_name(s->result), "seq", (json_int_t)s->actions);
    json_object_set_new(j, "waiting_for", waiting == AK_NOBODY ? json_null()
                                          : json_string(waiting == AK_AXIS ? "axis" : "allied"));
    bool open = !g->player[0] || !g->player[1];
    json_object_set_new(j, "open", json_boolean(open));
    json_object_set_new(j, "your_turn", json_boolean(user && waiting != AK_NOBODY &&
                                                     g->player[waiting] == user && !open));
    json_t *mine = json_null();
    for (int side = 0; side < AK_SIDES; side++)
        if (user && g->player[side] == user)
            mine = json_string(side == AK_AXIS ? "axis" : "allied");
    json_object_set_new(j, "you", mine);
    return j;
}

static json_t *game_full(const struct ak_game *g, int64_t user)
{
    json_t *j = game_summary(g, user);
    json_object_set(j, "state", g->public_state);
    return j;
}

void ak_cmd_new(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    const char *side_name = json_string_value(json_object_get(msg, "side"));
    const char *ruleset = json_string_value(json_object_get(msg, "ruleset"));
    int side = side_name ? ak_side_parse(side_name) : -1;
    int r = ak_ruleset_find(ruleset ? ruleset : "classic");
    if (side < 0) {
        ak_conn_reply_error(c, id, "bad_request", "\"side\" must be \"axis\" or \"allied\"");
        return;
    }
    if (r < 0) {
        ak_conn_reply_error(c, id, "bad_request", "unknown ruleset '%s'", ruleset);
        return;
    }
    uint64_t seed;
    randombytes_buf(&seed, sizeof seed);
    seed &= INT64_MAX;      /* SQLite integers are signed */
    int64_t gid;
    if (ak_store_game_create(c->srv->store, ak_ruleset_get(r)->name, seed, side, c->user, ak_now(),
                             &gid) != AK_STORE_OK) {
        ak_conn_reply_error(c, id, "internal", "could not store the game");
        return;
    }
    struct ak_game *g = game_add(c->srv, gid);
    if (!g) {
        ak_conn_reply_error(c, id, "internal", "out of memory");
        return;
    }
    ak_state_init(&g->state, r, seed);
    g->player[side] = c->user;
    name_players(c->srv, g);
    g->public_state = ak_state_to_json(&g->state);
    watch(c, gid);
    ak_log(AK_LOG_INFO, "%s created game %lld as %s", c->user_name, (long long)gid, ak_side_name(side));
    ak_conn_reply_ok(c, id, game_full(g, c->user));
}

static void push_all(struct ak_server *srv, const struct ak_game *g, json_t *msg)
{
    for (struct ak_conn *k = srv->conns; k; k = k->next)
        if (watching(k, g->id))
            ak_conn_send(k, msg);
}

void ak_cmd_join(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = game_arg(c, id, msg);
    if (!g)
        return;
    int side = !g->player[0] ? AK_AXIS : !g->player[1] ? AK_ALLIED : -1;
    if (g->player[0] == c->user || g->player[1] == c->user) {
        ak_conn_reply_error(c, id, "already_seated", "you already play in game %lld", (long long)g->id);
        return;
    }
    if (side < 0 || ak_store_game_seat(c->srv->store, g->id, side, c->user) != AK_STORE_OK) {
        ak_conn_reply_error(c, id, "seat_taken", "game %lld has no open seat", (long long)g->id);
        return;
    }
    g->player[side] = c->user;
    name_players(c->srv, g);
    watch(c, g->id);
    json_t *push = json_pack("{s:s,s:I,s:s,s:s}", "push", "joined", "game", (json_int_t)g->id,
                             "side", side == AK_AXIS ? "axis" : "allied", "user", c->user_name);
    push_all(c->srv, g, push);
    json_decref(push);
    ak_conn_reply_ok(c, id, game_full(g, c->user));
}

void ak_cmd_watch(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = game_arg(c, id, msg);
    if (!g)
        return;
    watch(c, g->id);
    ak_conn_reply_ok(c, id, game_full(g, c->user));
}

void ak_cmd_show(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = game_arg(c, id, msg);
    if (g)
        ak_conn_reply_ok(c, id, game_full(g, c->user));
}

void ak_cmd_games(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    (void)msg;
    json_t *mine = json_array(), *others = json_array();
    for (struct ak_game *g = c->srv->games; g; g = g->next) {
        bool me = c->user && (g->player[0] == c->user || g->player[1] == c->user);
        json_array_append_new(me ? mine : others, game_summary(g, c->user));
    }
    json_array_extend(mine, others);
    json_decref(others);
    ak_conn_reply_ok(c, id, json_pack("{s:o}", "games", mine));
}

static json_t *events_json(const struct ak_events *ev)
{
    json_t *list = json_array();
    for (int i = 0; i < ev->n; i++)
        json_array_append_new(list, ak_event_to_json(&ev->ev[i]));
    return list;
}

static json_t *reject_json(const struct ak_reject *rej)
{
    return json_pack("{s:s,s:s,s:s}", "rule", rej->code, "section", rej->section, "message", rej->text);
}

static void reply_illegal(struct ak_conn *c, const json_t *id, const struct ak_reject *rej)
{
    json_t *m = ak_msg_error(id, "illegal", rej->text);
    json_t *e = json_object_get(m, "error");
    json_object_set_new(e, "rule", json_string(rej->code));
    json_object_set_new(e, "section", json_string(rej->section));
    ak_conn_send(c, m);
    json_decref(m);
}

static int seat_of(const struct ak_game *g, int64_t user)
{
    /* A player who holds both seats (a solitaire game) acts for the side
     * the game waits for. */
    if (g->player[0] == user && g->player[1] == user)
        return g->state.side;
    return g->player[0] == user ? AK_AXIS : g->player[1] == user ? AK_ALLIED : -1;
}

void ak_cmd_act(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = game_arg(c, id, msg);
    if (!g)
        return;
    int side = seat_of(g, c->user);
    if (side < 0) {
        ak_conn_reply_error(c, id, "not_your_game", "you do not play in game %lld", (long long)g->id);
        return;
    }
    if (!g->player[0] || !g->player[1]) {
        ak_conn_reply_error(c, id, "not_started", "game %lld waits for an opponent", (long long)g->id);
        return;
    }
    struct ak_action a;
    char err[200];
    if (!ak_action_from_json(json_object_get(msg, "action"), side, &a, err, sizeof err)) {
        ak_conn_reply_error(c, id, "bad_action", "%s", err);
        return;
    }
    struct ak_state next = g->state;
    struct ak_events ev = {0};
    struct ak_reject rej;
    if (!ak_apply(&next, &a, &ev, &rej)) {
        reply_illegal(c, id, &rej);
        return;
    }
    json_t *action = ak_action_to_json_in(&a, &g->state);
    char *action_text = json_dumps(action, JSON_COMPACT);
    json_decref(action);
    int rc = action_text ? ak_store_game_append(c->srv->store, g->id, next.actions, side, action_text,
                                                ak_now(), &next, sizeof next)
                         : AK_STORE_ERROR;
    free(action_text);
    if (rc != AK_STORE_OK) {
        ak_log(AK_LOG_ERROR, "game %lld: store failed: %s", (long long)g->id, ak_store_error(c->srv->store));
        ak_conn_reply_error(c, id, "internal", "the action could not be stored; nothing changed");
        return;
    }
    g->state = next;
    json_t *public_state = ak_state_to_json(&g->state);
    json_t *patch = ak_patch_diff(g->public_state, public_state);
    json_decref(g->public_state);
    g->public_state = public_state;
    json_t *events = events_json(&ev);
    ak_conn_reply_ok(c, id, json_pack("{s:I,s:O}", "seq", (json_int_t)g->state.actions, "events", events));
    json_t *push = json_pack("{s:s,s:I,s:I,s:s,s:o,s:o}", "push", "game", "game", (json_int_t)g->id,
                             "seq", (json_int_t)g->state.actions, "by", side == AK_AXIS ? "axis" : "allied",
                             "patch", patch, "events", events);
    push_all(c->srv, g, push);
    json_decref(push);
}

static bool units_arg(struct ak_conn *c, const json_t *id, const json_t *msg, struct ak_action *a)
{
    char err[200];
    json_t *fake = json_pack("{s:s,s:O?,s:O?}", "action", "embark", "units", json_object_get(msg, "units"),
                             "unit", json_object_get(msg, "unit"));
    bool ok = ak_action_from_json(fake, 0, a, err, sizeof err);
    json_decref(fake);
    if (!ok)
        ak_conn_reply_error(c, id, "bad_request", "%s", err);
    return ok;
}

static json_t *dest_json(const struct ak_dest *d)
{
    char b[8];
    json_t *path = json_array();
    for (int i = 0; i < d->npath; i++)
        json_array_append_new(path, json_string(ak_hex_format(d->path[i], b)));
    return json_pack("{s:s,s:i,s:i,s:b,s:o}", "hex", ak_hex_format(d->hex, b),
                     "squares", d->road + d->clear, "road", d->road, "halts", d->halts, "path", path);
}

void ak_cmd_dests(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = game_arg(c, id, msg);
    struct ak_action a;
    if (!g || !units_arg(c, id, msg, &a))
        return;
    static struct ak_dest dests[AK_HEX_COUNT];
    struct ak_reject rej;
    int side = ak_def(a.units[0])->side;
    int n = ak_move_destinations(&g->state, side, a.units, a.nunits, dests, AK_HEX_COUNT, &rej);
    if (n < 0) {
        reply_illegal(c, id, &rej);
        return;
    }
    json_t *list = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(list, dest_json(&dests[i]));
    ak_conn_reply_ok(c, id, json_pack("{s:o}", "dests", list));
}

void ak_cmd_why(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = game_arg(c, id, msg);
    struct ak_action a;
    if (!g || !units_arg(c, id, msg, &a))
        return;
    ak_hex to = ak_hex_parse(json_string_value(json_object_get(msg, "to")));
    if (to == AK_HEX_NONE) {
        ak_conn_reply_error(c, id, "bad_request", "\"to\" must be a square such as \"W16\"");
        return;
    }
    struct ak_dest d;
    struct ak_reject rej;
    int side = ak_def(a.units[0])->side;
    if (ak_move_route(&g->state, side, a.units, a.nunits, to, &d, &rej))
        ak_conn_reply_ok(c, id, json_pack("{s:b,s:o}", "reachable", 1, "route", dest_json(&d)));
    else
        ak_conn_reply_ok(c, id, json_pack("{s:b,s:o}", "reachable", 0, "reason", reject_json(&rej)));
}

void ak_cmd_options(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    static struct ak_action list[1024];
    struct ak_game *g = game_arg(c, id, msg);
    if (!g)
        return;
    int n = ak_legal_actions(&g->state, 0, list, 1024);
    json_t *kinds = json_array(), *actions = json_array();
    unsigned mask = ak_possible_actions(&g->state);
    for (int k = 0; k < AK_ACT_KINDS; k++)
        if (mask & (1u << k))
            json_array_append_new(kinds, json_string(ak_action_kind_name(k)));
    for (int i = 0; i < n; i++)
        json_array_append_new(actions, ak_action_to_json_in(&list[i], &g->state));
    int w = ak_waiting_for(&g->state);
    ak_conn_reply_ok(c, id, json_pack("{s:s?,s:o,s:o}", "waiting_for",
                                      w < AK_SIDES ? ak_side_name(w) : NULL, "kinds", kinds,
                                      "actions", actions));
}
