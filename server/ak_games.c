/* ak_games: the games akd referees, in memory.
 *
 * Every game lives in memory as a struct ak_state with its lobby and clock
 * data. ak_game_commit is the one path by which a game changes: the action
 * (already accepted by the rules library on a copy) is appended to the store
 * with the new snapshot in one committed transaction, and only then is the
 * state replaced, the deadline reset, the JSON Patch of the public state
 * pushed to players and spectators, and the players notified. A rejected
 * action changes nothing anywhere.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_codec.h"
#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_patch.h"
#include "ak_server.h"
#include "ak_victory.h"

struct ak_game *ak_game_find(struct ak_server *srv, int64_t id)
{
    if (id <= 0 || (uint64_t)id >= srv->games_cap)
        return NULL;
    struct ak_game *g = srv->game_by_id[id];
    return g && ak_game_listed(g) && !g->expiring ? g : NULL;
}

/* Game numbers are the store's row ids, dense from 1: an array indexed by
 * them finds a game in one step however many there are. */
static bool index_game(struct ak_server *srv, struct ak_game *g)
{
    if (g->id <= 0)
        return false;
    if ((uint64_t)g->id >= srv->games_cap) {
        size_t cap = srv->games_cap ? srv->games_cap : 256;
        while (cap <= (uint64_t)g->id)
            cap *= 2;
        struct ak_game **by_id = realloc(srv->game_by_id, cap * sizeof *by_id);
        if (!by_id)
            return false;
        memset(by_id + srv->games_cap, 0, (cap - srv->games_cap) * sizeof *by_id);
        srv->game_by_id = by_id;
        srv->games_cap = cap;
    }
    srv->game_by_id[g->id] = g;
    return true;
}

struct ak_game *ak_game_arg(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    const json_t *gid = json_object_get(msg, "game");
    if (!json_is_integer(gid)) {
        ak_conn_reply_error(c, id, "bad_request", "\"game\" must be a game number");
        return NULL;
    }
    struct ak_game *g = ak_game_find(c->srv, json_integer_value(gid));
    if (!g) {
        ak_conn_reply_error(c, id, "no_such_game", "there is no game %lld",
                            (long long)json_integer_value(gid));
        return NULL;
    }
    if (ak_game_load(c->srv, g) != 0) {
        ak_conn_reply_error(c, id, "internal", "game %lld could not be read from the database",
                            (long long)g->id);
        return NULL;
    }
    return g;
}

struct ak_game_brief ak_game_brief_of(const struct ak_game *g)
{
    const struct ak_state *s = g->state;
    if (!s)
        return g->brief;
    return (struct ak_game_brief){s->ruleset, s->turn, s->side, s->phase, s->result, s->result_reason,
                                  s->actions};
}

int ak_game_waiting(const struct ak_game *g)
{
    return g->state ? ak_waiting_for(g->state) : AK_NOBODY;
}

void ak_game_evict(struct ak_server *srv, struct ak_game *g)
{
    if (!g->state)
        return;
    g->brief = ak_game_brief_of(g);
    ak_undo_forget(g);
    free(g->state);
    g->state = NULL;
    ak_log_with(AK_LOG_DEBUG, AK_LOG_GAME(g->id), "game %lld left memory (it is over)", (long long)g->id);
    (void)srv;
}

void ak_games_evict_idle(struct ak_server *srv)
{
    /* A commit in flight may roll a game back into its state, and a
     * written one waiting for its answer reads it: only when none is
     * pending are states let go. */
    if (srv->batch || ak_writer_busy(srv) || srv->answers)
        return;
    uint64_t now = uv_now(srv->loop), keep = (uint64_t)srv->cfg.keep_finished * 1000;
    for (struct ak_game *g = srv->games; g; g = g->next)
        if (g->state && g->nwatchers == 0 && !g->creating && now - g->touched >= keep &&
            (g->state->phase == AK_PHASE_OVER || !ak_game_listed(g)))
            ak_game_evict(srv, g);
}

int ak_game_load(struct ak_server *srv, struct ak_game *g)
{
    if (srv->loop)
        g->touched = uv_now(srv->loop);
    if (g->state)
        return 0;
    struct ak_state *s = malloc(sizeof *s);
    int ruleset = g->brief.ruleset;
    uint32_t seq = 0;
    char err[200];
    if (!s)
        return -1;
    g->state = s;
    int rc = ak_store_game_snapshot(srv->store, g->id, &seq, s, sizeof *s);
    if (rc == AK_STORE_OK && (!ak_state_check(s, err, sizeof err) || s->actions != seq ||
                              ak_game_attach_crt(g, s) != 0))
        rc = AK_STORE_ERROR;
    rc = rc == AK_STORE_OK ? ak_game_replay_from(srv, g, UINT32_MAX, s, NULL)
                           : ak_game_replay(srv, g, ruleset, UINT32_MAX, s, NULL);
    if (rc != 0 || s->actions != g->brief.actions) {
        ak_log_with(AK_LOG_ERROR, AK_LOG_GAME(g->id), "game %lld cannot be read back from the database", (long long)g->id);
        free(s);
        g->state = NULL;
        return -1;
    }
    g->stored_seq = s->actions;     /* read from the log: all of it is there */
    ak_log_with(AK_LOG_DEBUG, AK_LOG_GAME(g->id), "game %lld read back into memory", (long long)g->id);
    return 0;
}

struct ak_game *ak_game_add(struct ak_server *srv, int64_t id)
{
    struct ak_game *g = calloc(1, sizeof *g);
    if (g && !(g->state = calloc(1, sizeof *g->state))) {
        free(g);
        g = NULL;
    }
    if (!g)
        return NULL;
    g->id = id;
    if (!index_game(srv, g)) {
        free(g->state);
        free(g);
        return NULL;
    }
    g->next = srv->games;
    srv->games = g;
    if (id >= srv->next_game_id)
        srv->next_game_id = id + 1;
    return g;
}

static void unlist(struct ak_server *srv, struct ak_game *g);

void ak_game_remove(struct ak_server *srv, struct ak_game *g)
{
    unlist(srv, g);
    ak_game_unwatch_all(g);
    ak_seats_leave(g);
    for (struct ak_game **p = &srv->games; *p; p = &(*p)->next)
        if (*p == g) {
            *p = g->next;
            break;
        }
    srv->game_by_id[g->id] = NULL;
    ak_undo_forget(g);
    free(g->state);
    free(g->position);
    free(g->watchers);
    free(g);
}

/* Whether the seated and invited accounts are computers (from akd's list
 * of them, ak_computer.c: no lookup). */
void ak_game_mark_computers(struct ak_server *srv, struct ak_game *g)
{
    for (int side = 0; side < AK_SIDES; side++)
        g->computer[side] = g->player[side] && ak_is_computer(srv, g->player[side]);
    g->challenge_computer = g->meta.challenge && ak_is_computer(srv, g->meta.challenge);
}

void ak_game_name_players(struct ak_server *srv, struct ak_game *g)
{
    for (int side = 0; side < AK_SIDES; side++)
        if (!g->player[side] ||
            ak_store_user_name(srv->store, g->player[side], g->player_name[side],
                               sizeof g->player_name[side]) != AK_STORE_OK)
            g->player_name[side][0] = '\0';
    if (!g->meta.challenge ||
        ak_store_user_name(srv->store, g->meta.challenge, g->challenge_name, sizeof g->challenge_name) != AK_STORE_OK)
        g->challenge_name[0] = '\0';
    ak_game_mark_computers(srv, g);
}

bool ak_game_open(const struct ak_game *g)
{
    return !g->player[0] || !g->player[1];
}

bool ak_game_listed(const struct ak_game *g)
{
    return !g->creating && strcmp(g->meta.status, "aborted") != 0 && strcmp(g->meta.status, "declined") != 0;
}

/* The listed games apart (issue 28): games made and called off in a loop
 * stay in memory, and `games` walks only what it lists. */
static void unlist(struct ak_server *srv, struct ak_game *g)
{
    if (!g->in_listed)
        return;
    if (g->listed_prev)
        g->listed_prev->listed_next = g->listed_next;
    else
        srv->listed = g->listed_next;
    if (g->listed_next)
        g->listed_next->listed_prev = g->listed_prev;
    g->listed_prev = g->listed_next = NULL;
    g->in_listed = false;
    srv->nlisted--;
}

static void list_first(struct ak_server *srv, struct ak_game *g)
{
    g->listed_prev = NULL;
    g->listed_next = srv->listed;
    if (srv->listed)
        srv->listed->listed_prev = g;
    srv->listed = g;
    g->in_listed = true;
    srv->nlisted++;
}

void ak_games_relist_all(struct ak_server *srv)
{
    struct ak_game *last = NULL;
    srv->listed = NULL;
    srv->nlisted = 0;
    for (struct ak_game *g = srv->games; g; g = g->next) {
        g->listed_prev = g->listed_next = NULL;
        g->in_listed = ak_game_listed(g);
        if (!g->in_listed)
            continue;
        g->listed_prev = last;      /* in the order of srv->games, newest first */
        *(last ? &last->listed_next : &srv->listed) = g;
        srv->nlisted++;
        last = g;
    }
}

void ak_game_relist(struct ak_server *srv, struct ak_game *g)
{
    if (ak_game_listed(g) && !g->in_listed)
        list_first(srv, g);
    else if (!ak_game_listed(g))
        unlist(srv, g);
}

struct ak_game *ak_game_player_arg(struct ak_conn *c, const json_t *id, const json_t *msg, int *side)
{
    struct ak_game *g = ak_game_arg(c, id, msg);
    if (!g)
        return NULL;
    *side = ak_game_side_of(g, c->user);
    if (*side < 0) {
        ak_conn_reply_error(c, id, "not_your_game", "you do not play in game %lld", (long long)g->id);
        return NULL;
    }
    return g;
}

int ak_game_side_of(const struct ak_game *g, int64_t user)
{
    /* A player who holds both seats (a solitaire game) acts for the side
     * the game waits for. */
    if (!user)
        return -1;
    if (g->player[0] == user && g->player[1] == user)
        return ak_game_waiting(g) < AK_SIDES ? ak_game_waiting(g) : AK_AXIS;
    return g->player[0] == user ? AK_AXIS : g->player[1] == user ? AK_ALLIED : -1;
}

int ak_game_attach_crt(const struct ak_game *g, struct ak_state *s)
{
    if (ak_crt_attach(s, g->crt ? &g->crt->table : NULL) == 0)
        return 0;
    ak_log_with(AK_LOG_ERROR, AK_LOG_GAME(g->id), "game %lld: too many combat results tables at once (%d)", (long long)g->id,
           AK_CRT_SLOTS - 1);
    return -1;
}

int ak_game_start(const struct ak_game *g, int ruleset, struct ak_state *out)
{
    if (!g->position) {
        ak_dice_start(&g->dice, ruleset, out);
        return ak_game_attach_crt(g, out);
    }
    char err[200];
    json_error_t je;
    json_t *j = json_loads(g->position, 0, &je);
    bool ok = j && ak_state_from_position(j, g->dice.seed, out, err, sizeof err);
    if (ok)
        ak_dice_position(&g->dice, out);
    json_decref(j);
    if (!ok)
        ak_log_with(AK_LOG_ERROR, AK_LOG_GAME(g->id), "game %lld: its starting position cannot be read", (long long)g->id);
    return ok ? ak_game_attach_crt(g, out) : -1;
}

struct replay_ctx {
    const struct ak_game *g;
    struct ak_state *state;
    uint32_t upto;
    struct ak_action *after;
    bool failed;
};

static int replay_one(void *ud, uint32_t seq, int side, const char *json, const char *nonce)
{
    struct replay_ctx *r = ud;
    json_error_t je;
    json_t *j = json_loads(json, 0, &je);
    struct ak_action a;
    struct ak_reject rej;
    char err[200];
    if (seq <= r->state->actions) {     /* already in the snapshot */
        json_decref(j);
        return 0;
    }
    bool ok = j && ak_action_from_json(j, side, &a, err, sizeof err);
    json_decref(j);
    if (ok && seq > r->upto) {
        if (r->after && seq == r->upto + 1)
            *r->after = a;
        return 0;
    }
    if (ok)
        ak_dice_before_action(&r->g->dice, seq, nonce, r->state);
    if (!ok || !ak_apply(r->state, &a, NULL, &rej) || r->state->actions != seq) {
        ak_log_with(AK_LOG_ERROR, AK_LOG_GAME(r->g->id), "game %lld: action %u does not replay", (long long)r->g->id, seq);
        r->failed = true;
        return 1;
    }
    return 0;
}

int ak_game_replay(struct ak_server *srv, const struct ak_game *g, int ruleset, uint32_t upto,
                   struct ak_state *out, struct ak_action *after)
{
    if (ak_game_start(g, ruleset, out) != 0)
        return -1;
    return ak_game_replay_from(srv, g, upto, out, after);
}

int ak_game_replay_from(struct ak_server *srv, const struct ak_game *g, uint32_t upto,
                        struct ak_state *state, struct ak_action *after)
{
    struct replay_ctx r = {g, state, upto, after, false};
    /* the rows after the state and up to upto (and the one after it, when asked for) */
    uint32_t last = upto == UINT32_MAX || !after ? upto : upto + 1;
    if (state->actions < last &&
        (ak_store_actions_range(srv->store, g->id, state->actions + 1, last, replay_one, &r) != AK_STORE_OK ||
         r.failed))
        return -1;
    return 0;
}

/* The game's state from its snapshot and the actions after it, or from
 * its start; -1 (logged) if the stored game cannot be read. */
static int load_state(struct ak_server *srv, struct ak_game *g, int ruleset,
                      const struct ak_store_game *sg)
{
    char err[200];
    if (sg->snapshot && sg->snapshot_len == sizeof *g->state && sg->snapshot_seq <= sg->seq) {
        /* A snapshot is a copy of the struct: checked like any position
         * read from outside before the engine indexes with it. */
        memcpy(g->state, sg->snapshot, sizeof *g->state);
        if (!ak_state_check(g->state, err, sizeof err)) {
            ak_log_with(AK_LOG_ERROR, AK_LOG_GAME(g->id), "game %lld: its stored snapshot is damaged: %s", (long long)g->id, err);
            return -1;
        }
        if (ak_game_attach_crt(g, g->state) != 0)
            return -1;
        if (g->state->actions != sg->snapshot_seq || g->state->ruleset != ruleset ||
            (sg->snapshot_seq < sg->seq && ak_game_replay_from(srv, g, UINT32_MAX, g->state, NULL) != 0))
            return -1;
        return 0;
    }
    return ak_game_replay(srv, g, ruleset, UINT32_MAX, g->state, NULL);
}

static int load_one(void *ud, const struct ak_store_game *sg)
{
    struct ak_server *srv = ud;
    struct ak_game *g = ak_game_add(srv, sg->id);
    if (!g)
        return 1;
    int ruleset = ak_ruleset_find(sg->ruleset);
    g->meta = sg->meta;
    /* told before a restart: not told again for the same deadline */
    g->warned = g->meta.deadline && sg->near_told == g->meta.deadline;
    g->overdue = g->meta.deadline && sg->passed_told == g->meta.deadline && strcmp(g->meta.tc_expiry, "wait") == 0;
    ak_game_seat(g, AK_AXIS, sg->player[0]);
    ak_game_seat(g, AK_ALLIED, sg->player[1]);
    ak_seats_challenged(g);
    /* Games from before dice commitments have only their seed. */
    if (!sg->meta.dice_secret[0] && sg->meta.dice_scheme <= AK_DICE_LEGACY)
        g->dice = (struct ak_dice){.scheme = AK_DICE_LEGACY, .seed = sg->seed};
    else if (!ak_dice_open(sg->meta.dice_secret, sg->meta.dice_commit, sg->meta.dice_scheme, &g->dice))
        ruleset = -1;   /* left out below: its dice cannot be known */
    g->snapshot_seq = sg->snapshot_seq;
    /* An Updated game is fought on the table it began on, whatever the
     * operator's file says today (ak_crt.c). */
    if (ruleset >= 0 && ak_ruleset_get(ruleset)->needs_crt_table &&
        !(g->crt = sg->meta.crt_digest[0] ? ak_crt_by_digest(srv, sg->meta.crt_digest) : NULL))
        ruleset = -1;   /* left out below: its battles cannot be fought again */
    if (sg->position && sg->position[0] && !(g->position = strdup(sg->position)))
        return 1;
    /* One game that cannot be read is left out (its rows stay in the
     * database for the operator), not a reason to refuse every other game. */
    if (ruleset < 0 || load_state(srv, g, ruleset, sg) != 0) {
        ak_log_with(AK_LOG_ERROR, AK_LOG_GAME(sg->id), "game %lld cannot be read and is left out (ruleset %s, %u actions)",
               (long long)sg->id, sg->ruleset, sg->seq);
        ak_game_remove(srv, g);
        srv->skipped_games++;
        return 0;
    }
    g->stored_seq = g->state->actions;
    if (g->state->phase == AK_PHASE_OVER || !ak_game_listed(g))
        ak_game_evict(srv, g);  /* read back if someone asks for it */
    return 0;
}

static void tournament_of(void *ud, int64_t game, int64_t tournament, int round)
{
    struct ak_server *srv = ud;
    struct ak_game *g = game > 0 && (uint64_t)game < srv->games_cap ? srv->game_by_id[game] : NULL;
    if (g) {
        g->tournament = tournament;
        g->round = round;
        ak_seats_paired(g);
    }
}

int ak_games_load(struct ak_server *srv)
{
    if (!ak_computers_load(srv) || ak_store_games_each(srv->store, load_one, srv) != AK_STORE_OK ||
        ak_store_tournament_games_each(srv->store, tournament_of, srv) != AK_STORE_OK)
        return -1;
    int n = 0;
    for (struct ak_game *g = srv->games; g; g = g->next, n++)
        ak_game_name_players(srv, g);
    ak_games_relist_all(srv);
    if (srv->skipped_games)
        ak_log(AK_LOG_ERROR, "loaded %d games; %d could not be read and are left out", n, srv->skipped_games);
    else
        ak_log(AK_LOG_INFO, "loaded %d games", n);
    return 0;
}

void ak_games_free(struct ak_server *srv)
{
    ak_seats_free();
    ak_game_odds_free();
    while (srv->games) {
        struct ak_game *g = srv->games;
        srv->games = g->next;
        ak_undo_forget(g);
        free(g->state);
        free(g->position);
        free(g->watchers);
        free(g);
    }
    free(srv->game_by_id);
    srv->game_by_id = NULL;
    srv->listed = NULL;
    srv->nlisted = 0;
    srv->games_cap = 0;
}

static json_t *players_json(const struct ak_game *g)
{
    return json_pack("{s:s?,s:s?}", "axis", g->player[0] ? g->player_name[0] : NULL,
                     "allied", g->player[1] ? g->player_name[1] : NULL);
}

static json_t *time_control_json(const struct ak_game *g)
{
    if (!g->meta.tc_seconds)
        return json_null();
    return json_pack("{s:i,s:s,s:s}", "seconds", g->meta.tc_seconds, "per", g->meta.tc_per,
                     "on_expiry", g->meta.tc_expiry);
}

json_t *ak_game_summary(const struct ak_game *g, int64_t user)
{
    const struct ak_game_brief b = ak_game_brief_of(g), *s = &b;
    int waiting = ak_game_waiting(g);
    json_t *j = json_pack("{s:I,s:s,s:o,s:i,s:s,s:s,s:s,s:s,s:I}",
                          "game", (json_int_t)g->id, "ruleset", ak_ruleset_get(s->ruleset)->name,
                          "players", players_json(g), "turn", s->turn,
                          "date", ak_data()->scenario.date[s->turn],
                          "phase", ak_phase_name(s->phase),
                          "result", ak_result_name(s->result),
                          "reason", ak_win_reason_name(s->reason),
                          "seq", (json_int_t)s->actions);
    bool open = ak_game_open(g);
    json_object_set_new(j, "waiting_for", waiting == AK_NOBODY || open ? json_null()
                                          : json_string(waiting == AK_AXIS ? "axis" : "allied"));
    json_object_set_new(j, "open", json_boolean(open));
    /* A challenge names its invited player while the seat waits for him. */
    json_object_set_new(j, "challenge", open && g->challenge_name[0] ? json_string(g->challenge_name) : json_null());
    /* during a side auction: the bidder's turn (ak_bid.c), no one's to act */
    bool bidding = ak_bid_open(g);
    if (bidding)
        json_object_set_new(j, "waiting_for", json_null());
    json_object_set_new(j, "your_turn", json_boolean(user && (bidding ? ak_bid_to_move(g) == user
                                                                      : waiting != AK_NOBODY &&
                                                                        g->player[waiting] == user && !open)));
    json_object_set_new(j, "bid", ak_bid_json(g));
    int mine = ak_game_side_of(g, user);
    json_object_set_new(j, "you", mine < 0 ? json_null()
                                           : json_string(mine == AK_AXIS ? "axis" : "allied"));
    json_object_set_new(j, "rated", json_boolean(g->meta.rated));
    /* Which seats a program plays (the invited one's too, while open), and
     * the level a player asked the computer for. */
    json_object_set_new(j, "computer", json_pack("{s:b,s:b}", "axis", g->computer[AK_AXIS],
                                                 "allied", g->computer[AK_ALLIED]));
    if (open && g->challenge_name[0])
        json_object_set_new(j, "challenge_computer", json_boolean(g->challenge_computer));
    json_object_set_new(j, "computer_level", g->meta.computer_level ? json_integer(g->meta.computer_level)
                                                                     : json_null());
    json_object_set_new(j, "rating_range", g->meta.min_rating || g->meta.max_rating
                        ? json_pack("[i,i]", g->meta.min_rating, g->meta.max_rating ? g->meta.max_rating : 4000)
                        : json_null());
    json_object_set_new(j, "time_control", time_control_json(g));
    json_object_set_new(j, "deadline", g->meta.deadline ? json_integer(g->meta.deadline) : json_null());
    json_object_set_new(j, "time_left", g->meta.deadline
                                            ? json_integer(g->meta.deadline > ak_now() ? g->meta.deadline - ak_now() : 0)
                                            : json_null());
    json_object_set_new(j, "overdue", json_boolean(g->overdue));
    json_object_set_new(j, "dice_commit", json_string(g->meta.dice_commit));
    if (g->crt)     /* the table it is fought on, named from the start as the dice are */
        json_object_set_new(j, "crt_digest", json_string(g->crt->digest));
    if (s->phase == AK_PHASE_OVER && g->meta.dice_secret[0])
        json_object_set_new(j, "dice_secret", json_string(g->meta.dice_secret));
    return j;
}

json_t *ak_game_full(const struct ak_game *g, int64_t user)
{
    json_t *j = ak_game_summary(g, user);
    json_object_set_new(j, "state", ak_state_to_json(g->state));
    /* The Updated ruleset's table the game is fought on, as the operator
     * wrote it: a client reads the odds of the attacks it plans on it. */
    if (g->crt)
        json_object_set_new(j, "crt_table", json_string(g->crt->text));
    /* Public: they are read from the public state, for anyone watching. */
    json_object_set_new(j, "hazards", ak_hazards_to_json(g->state));
    json_t *odds = ak_game_odds(g->state);
    if (odds)
        json_object_set_new(j, "odds", odds);
    return j;
}

/* The odds of the states asked for lately, by the state's hash: a push
 * and every `show` of the same position (spectators) cost one working
 * out, not one each. A slot holds the answer or that there is none. */
#define ODDS_CACHE 64
static struct {
    uint64_t hash;
    bool used;
    json_t *odds;       /* NULL: no battles to work out */
} odds_cache[ODDS_CACHE];

json_t *ak_game_odds(const struct ak_state *s)
{
    if (s->nbattles == 0)
        return NULL;        /* no battle declared: nothing to hash or work out */
    uint64_t h = ak_state_hash(s);
    int slot = (int)(h % ODDS_CACHE);
    if (!odds_cache[slot].used || odds_cache[slot].hash != h) {
        json_decref(odds_cache[slot].odds);
        odds_cache[slot].odds = ak_odds_to_json(s, AK_ODDS_FACES_MAX);
        odds_cache[slot].hash = h;
        odds_cache[slot].used = true;
    }
    return odds_cache[slot].odds ? json_incref(odds_cache[slot].odds) : NULL;
}

void ak_game_odds_free(void)
{
    for (int i = 0; i < ODDS_CACHE; i++) {
        json_decref(odds_cache[i].odds);
        memset(&odds_cache[i], 0, sizeof odds_cache[i]);
    }
}

/* printf into a new string; its length in len. */
static char *text_printf(size_t *len, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *text_printf(size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!s)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    *len = (size_t)n;
    return s;
}

/* The sender's result ({"seq","events"}) and the watchers' push line
 * (PROTOCOL.md, "push":"game"), written around the events and the patch
 * encoded once each: the same events are in both. The push also carries
 * the action as stored (the move list of a page), and what a watcher
 * cannot work out from the state alone, the new deadline
 * and the dangers ahead (hazards), computed once for every watcher:
 * without them each would ask for the whole game after every push. */
static bool encode_answers(struct ak_commit *k, const struct ak_game *g, const char *by,
                           const struct ak_events *ev)
{
    json_t *events = ak_events_to_json(g->state, ev), *patch = ak_state_patch(&k->prev, g->state);
    json_t *hazards = ak_hazards_to_json(g->state), *odds = ak_game_odds(g->state);
    char *events_text = ak_json_text(events), *patch_text = ak_json_text(patch);
    char *hazards_text = ak_json_text(hazards), *odds_text = odds ? ak_json_text(odds) : NULL;
    json_decref(events);
    json_decref(patch);
    json_decref(hazards);
    json_decref(odds);
    bool over = g->state->phase == AK_PHASE_OVER && g->meta.dice_secret[0];
    k->result_text = k->push_line = NULL;
    if (events_text && patch_text && hazards_text && (!odds || odds_text)) {
        k->result_text = text_printf(&k->result_len, "{\"seq\":%u,\"events\":%s}", k->seq, events_text);
        char deadline[24] = "null";
        if (g->meta.deadline)
            snprintf(deadline, sizeof deadline, "%lld", (long long)g->meta.deadline);
        /* by is "axis", "allied" or "server", the secret hex: no escapes. */
        k->push_line = text_printf(&k->push_len,
                                   "{\"push\":\"game\",\"game\":%lld,\"seq\":%u,\"by\":\"%s\",\"action\":%s,"
                                   "\"patch\":%s,\"events\":%s,\"deadline\":%s,\"hazards\":%s%s%s%s%s%s}\n",
                                   (long long)g->id, k->seq, by, k->action_text ? k->action_text : "null",
                                   patch_text, events_text, deadline, hazards_text,
                                   odds_text ? ",\"odds\":" : "", odds_text ? odds_text : "",
                                   over ? ",\"dice_secret\":\"" : "", over ? g->meta.dice_secret : "",
                                   over ? "\"" : "");
    }
    free(events_text);
    free(patch_text);
    free(hazards_text);
    free(odds_text);
    if (k->result_text && k->push_line)
        return true;
    free(k->result_text);
    free(k->push_line);
    return false;
}

bool ak_clock_next(struct ak_game *g, bool new_turn)
{
    int64_t before = g->meta.deadline;
    if (!g->meta.tc_seconds || ak_game_brief_of(g).phase == AK_PHASE_OVER || ak_game_open(g) || ak_bid_open(g)) {
        g->meta.deadline = 0;
        g->overdue = false;     /* an ended game waits for nobody */
    } else if (strcmp(g->meta.tc_per, "turn") != 0 || new_turn || !g->meta.deadline) {
        g->meta.deadline = ak_vacation_shift(g, ak_now() + g->meta.tc_seconds);
        g->warned = false;
        g->overdue = false;
    }
    return g->meta.deadline != before;
}

void ak_batch_move_clock(struct ak_commit *k, struct ak_game *g, bool new_turn)
{
    k->deadline_before = g->meta.deadline;
    k->warned_before = g->warned;
    k->overdue_before = g->overdue;
    k->has_meta = ak_clock_next(g, new_turn);
    if (k->has_meta)
        k->meta = g->meta;
}

void ak_batch_restore_clock(struct ak_commit *k)
{
    k->g->meta.deadline = k->deadline_before;
    k->g->warned = k->warned_before;
    k->g->overdue = k->overdue_before;
}

bool ak_game_try(const struct ak_game *g, const struct ak_action *a, const char *nonce,
                 struct ak_state *next, struct ak_events *ev, struct ak_reject *rej)
{
    *next = *g->state;
    ak_dice_before_action(&g->dice, g->state->actions + 1, nonce, next);
    return ak_apply(next, a, ev, rej);
}

bool ak_game_commit(struct ak_server *srv, struct ak_game *g, const struct ak_action *a,
                    const char *nonce, const struct ak_state *next, const struct ak_events *ev,
                    const char *by, struct ak_conn *c, const json_t *id)
{
    struct ak_commit *k = ak_batch_commit_new(srv);
    if (!k)
        return false;
    snprintf(k->nonce, sizeof k->nonce, "%s", nonce ? nonce : "");
    json_t *action = ak_action_to_json_in(a, g->state);
    k->action_text = ak_json_text(action);
    json_decref(action);
    if (!k->action_text) {
        free(k);
        return false;
    }
    k->g = g;
    k->seq = next->actions;
    k->side = a->side;
    k->when = ak_now();
    k->prev = *g->state;
    k->waiting_before = ak_waiting_for(g->state);
    k->new_turn = next->side != g->state->side || next->turn != g->state->turn;
    if (srv->hooks.game_committing)
        srv->hooks.game_committing(srv, g, g->state, next, k);
    *g->state = *next;
    ak_batch_move_clock(k, g, k->new_turn || ak_waiting_for(g->state) != k->waiting_before);
    if (!encode_answers(k, g, by, ev)) {
        ak_batch_restore_clock(k);
        free(k->action_text);
        *g->state = k->prev;
        free(k);
        return false;
    }
    k->conn = c;
    k->id = id ? json_deep_copy(id) : NULL;
    ak_batch_add(srv, k);
    ak_undo_note(g, a, &k->prev);
    return true;
}
