/* ak_lobby: creating, joining and listing games, and their records.
 *
 * A game is created as an open seek (anyone may join) or as a challenge to
 * a named player (only they may join, or decline), with a side or a random
 * side, a ruleset, a time control and a rated flag. Either player may abort
 * it before the first action. At creation akd draws the dice secret and
 * tells everyone only its commitment (ak_record.h). A new game (made by
 * ak_game_new.c) and a seat are stored like actions, in the writer's next
 * batch (create_job, seat_job): set up in memory at once, answered once
 * committed.
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_codec.h"
#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_record.h"
#include "ak_server.h"
#include "ak_victory.h"

/* The user's games alone (ak_seats.c), not every game the server holds. */
static int unfinished_games(struct ak_server *srv, int64_t user)
{
    struct ak_game *const *games;
    int n = 0, of = ak_seats_of(user, &games);
    (void)srv;
    for (int i = 0; i < of; i++)
        n += (ak_game_listed(games[i]) || games[i]->creating) && ak_game_side_of(games[i], user) >= 0 &&
             ak_game_brief_of(games[i]).phase != AK_PHASE_OVER;
    return n;
}

static bool time_control_arg(struct ak_conn *c, const json_t *id, const json_t *tc,
                             struct ak_store_game_meta *m)
{
    if (ak_time_control_parse(tc, &m->tc_seconds, m->tc_per, m->tc_expiry))
        return true;
    ak_conn_reply_error(c, id, "bad_request",
                        "\"time_control\" is {\"seconds\": 1 to 7776000, \"per\": \"action\" or \"turn\", "
                        "\"on_expiry\": \"lose\" or \"wait\"}");
    return false;
}

/* "position": a public state to start from, where the server allows it;
 * its text in out (NULL without one) and the state in start. */
static bool position_arg(struct ak_conn *c, const json_t *id, const json_t *pos,
                         const struct ak_dice *dice, char **out, struct ak_state *start)
{
    char err[200];
    *out = NULL;
    if (!pos)
        return true;
    if (!c->srv->cfg.allow_positions) {
        ak_conn_reply_error(c, id, "bad_request", "this server starts every game from the campaign's opening");
        return false;
    }
    if (!ak_state_from_position(pos, dice->seed, start, err, sizeof err)) {
        ak_conn_reply_error(c, id, "bad_request", "the position cannot be used: %s", err);
        return false;
    }
    ak_dice_position(dice, start);
    *out = ak_json_text(pos);
    if (!*out)
        ak_conn_reply_error(c, id, "internal", "out of memory");
    return *out != NULL;
}

/* "min_rating", "max_rating": who may take an open seek's seat, by his
 * rating in the game's ruleset (1500 before his first rated game). Not
 * for a challenge, which names its player already. */
static bool rating_range_arg(struct ak_conn *c, const json_t *id, const json_t *msg, struct ak_store_game_meta *m)
{
    const json_t *lo = json_object_get(msg, "min_rating"), *hi = json_object_get(msg, "max_rating");
    if ((lo && (!json_is_integer(lo) || json_integer_value(lo) < 1 || json_integer_value(lo) > 4000)) ||
        (hi && (!json_is_integer(hi) || json_integer_value(hi) < 1 || json_integer_value(hi) > 4000)) ||
        (lo && hi && json_integer_value(lo) > json_integer_value(hi))) {
        ak_conn_reply_error(c, id, "bad_request", "min_rating and max_rating are ratings from 1 to 4000, the first "
                            "not above the second");
        return false;
    }
    if ((lo || hi) && m->challenge) {
        ak_conn_reply_error(c, id, "bad_request", "a rating range is for an open seek, not a challenge");
        return false;
    }
    m->min_rating = lo ? (int)json_integer_value(lo) : 0;
    m->max_rating = hi ? (int)json_integer_value(hi) : 0;
    return true;
}

static int side_arg(const char *name)
{
    if (name && strcmp(name, "random") == 0)
        return (int)randombytes_uniform(2);
    return name ? ak_side_parse(name) : -1;
}

/* `join`: the seat, and the deadline the game now has. */
static int seat_write(struct ak_store *st, const struct ak_commit *k)
{
    int rc = ak_store_game_seat(st, k->game_id, k->side, k->user);
    if (rc == AK_STORE_OK && k->has_meta)
        rc = ak_store_game_set_meta(st, k->game_id, &k->meta);
    return rc;
}

static void seat_answer(struct ak_server *srv, struct ak_commit *k)
{
    struct ak_game *g = k->g;
    json_t *push = json_pack("{s:s,s:I,s:s,s:s}", "push", "joined", "game", (json_int_t)g->id,
                             "side", k->side == AK_AXIS ? "axis" : "allied", "user", g->player_name[k->side]);
    ak_game_push(g, push);
    json_decref(push);
    int waiting = ak_waiting_for(g->state);
    int64_t bidder = ak_bid_to_move(g);
    if (bidder)     /* a side auction first: the joiner bids or accepts */
        ak_notify(srv, "your_turn", g, bidder, g->player[AK_AXIS] == bidder ? AK_AXIS : AK_ALLIED);
    else if (waiting < AK_SIDES && g->player[waiting] != k->user)
        ak_notify(srv, "your_turn", g, g->player[waiting], waiting);
    if (k->conn)
        ak_conn_reply_ok(k->conn, k->id, ak_game_full(g, k->user));
}

static void seat_undo(struct ak_server *srv, struct ak_commit *k)
{
    struct ak_game *g = k->g;
    ak_game_seat(g, k->side, 0);
    ak_batch_restore_clock(k);
    ak_game_name_players(srv, g);
}

static const struct ak_job seat_job = {seat_write, seat_answer, seat_undo, NULL, NULL};

void ak_cmd_new(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_server *srv = c->srv;
    const char *ruleset = json_string_value(json_object_get(msg, "ruleset"));
    const char *opponent = json_string_value(json_object_get(msg, "opponent"));
    int side = side_arg(json_string_value(json_object_get(msg, "side")));
    int r = ak_ruleset_find(ruleset ? ruleset : "classic");
    struct ak_store_game_meta m = {0};
    if (side < 0 || side >= AK_SIDES) {
        ak_conn_reply_error(c, id, "bad_request", "\"side\" must be \"axis\", \"allied\" or \"random\"");
        return;
    }
    if (r < 0) {
        ak_conn_reply_error(c, id, "bad_request", "unknown ruleset '%s'", ruleset);
        return;
    }
    char why[400];
    if (ak_ruleset_unavailable(srv, r, why, sizeof why)) {
        ak_conn_reply_error(c, id, "ruleset_unavailable", "%s", why);
        return;
    }
    if (!time_control_arg(c, id, json_object_get(msg, "time_control"), &m))
        return;
    if (srv->cfg.games_per_user && unfinished_games(srv, c->user) >= srv->cfg.games_per_user) {
        ak_conn_reply_error(c, id, "too_many_games", "you already have %d unfinished games (the limit)",
                            srv->cfg.games_per_user);
        return;
    }
    if (opponent) {
        char hash[8];
        bool banned = false;
        if (ak_store_user_find(srv->store, opponent, &m.challenge, hash, sizeof hash) == AK_STORE_ERROR ||
            !m.challenge || m.challenge == c->user) {
            ak_conn_reply_error(c, id, "no_such_user", "there is no other player named '%s'", opponent);
            return;
        }
        if (ak_store_user_banned(srv->store, m.challenge, &banned) != AK_STORE_OK || banned) {
            ak_conn_reply_error(c, id, "banned", "%s is banned by the server's operators and cannot be challenged",
                                opponent);
            return;
        }
    }
    if (!ak_computer_arg(c, id, msg, &m))
        return;
    m.rated = json_is_true(json_object_get(msg, "rated"));
    if (!rating_range_arg(c, id, msg, &m) || !ak_bid_new_arg(c, id, msg, r, side, &m))
        return;
    struct ak_dice dice;
    ak_dice_new(&dice, m.dice_secret, m.dice_commit);
    m.dice_scheme = dice.scheme;
    char *position = NULL;
    static struct ak_state start;
    if (!position_arg(c, id, json_object_get(msg, "position"), &dice, &position, &start))
        return;
    if (position && start.ruleset != r) {
        free(position);
        ak_conn_reply_error(c, id, "bad_request", "the position is of the %s ruleset, not %s",
                            ak_ruleset_get(start.ruleset)->name, ak_ruleset_get(r)->name);
        return;
    }
    ak_computers_load(srv);         /* an account marked by akd --computer-add meanwhile is shown so */
    struct ak_game_setup setup = {.ruleset = r, .side = side, .creator = c->user, .meta = &m, .dice = &dice,
                                  .position = position, .start = position ? &start : NULL};
    if (!ak_game_create(srv, &setup, c, id))
        ak_conn_reply_error(c, id, "internal", "out of memory");
}

void ak_cmd_join(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = ak_game_arg(c, id, msg);
    if (!g)
        return;
    int side = !g->player[0] ? AK_AXIS : !g->player[1] ? AK_ALLIED : -1;
    if (g->player[0] == c->user || g->player[1] == c->user) {
        ak_conn_reply_error(c, id, "already_seated", "you already play in game %lld", (long long)g->id);
        return;
    }
    if (g->meta.challenge && g->meta.challenge != c->user) {
        ak_conn_reply_error(c, id, "not_invited", "game %lld is a challenge to another player",
                            (long long)g->id);
        return;
    }
    if (g->meta.min_rating || g->meta.max_rating) {
        struct ak_store_glicko r;
        const char *ruleset = ak_ruleset_get(ak_game_brief_of(g).ruleset)->name;
        int rc = ak_store_glicko_get(c->srv->store, c->user, ruleset, &r);
        double rating = rc == AK_STORE_OK ? r.rating : 1500;
        if (rc == AK_STORE_ERROR ||
            (g->meta.min_rating && rating < g->meta.min_rating) || (g->meta.max_rating && rating > g->meta.max_rating)) {
            ak_conn_reply_error(c, id, "not_eligible", "game %lld is for players rated %d to %d in %s; you are %.0f",
                                (long long)g->id, g->meta.min_rating, g->meta.max_rating ? g->meta.max_rating : 4000,
                                ruleset, rating);
            return;
        }
    }
    if (c->srv->cfg.games_per_user &&
        unfinished_games(c->srv, c->user) >= c->srv->cfg.games_per_user) {
        ak_conn_reply_error(c, id, "too_many_games", "you already have %d unfinished games (the limit)",
                            c->srv->cfg.games_per_user);
        return;
    }
    if (side < 0) {
        ak_conn_reply_error(c, id, "seat_taken", "game %lld has no open seat", (long long)g->id);
        return;
    }
    struct ak_commit *k = ak_batch_commit_new(c->srv);
    if (!k) {
        ak_conn_reply_error(c, id, "internal", "out of memory");
        return;
    }
    /* Seated now (no one else can take the seat meanwhile), stored with
     * the next batch (seat_job), answered once committed. */
    ak_game_seat(g, side, c->user);
    ak_computers_load(c->srv);      /* an account marked by akd --computer-add meanwhile is shown so */
    ak_game_name_players(c->srv, g);
    ak_game_watch(c, g);
    k->job = &seat_job;
    k->g = g;
    k->side = side;
    k->user = c->user;
    ak_batch_move_clock(k, g, true);
    k->conn = c;
    k->id = id ? json_deep_copy(id) : NULL;
    ak_batch_add(c->srv, k);
}

/* Take a game out of the lists: declined challenge or aborted game. */
/* A game closed: its watchers told, the log, its tournament. */
static void announce_close(struct ak_server *srv, struct ak_game *g, const char *status, const char *by)
{
    json_t *push = json_pack("{s:s,s:I,s:s}", "push", status, "game", (json_int_t)g->id, "by", by);
    ak_game_push(g, push);
    json_decref(push);
    ak_log_with(AK_LOG_INFO, &(struct ak_log_ctx){.game = g->id}, "game %lld %s by %s", (long long)g->id, status, by);
    ak_tournament_game_over(srv, g);
}

static void close_in_memory(struct ak_game *g, const char *status)
{
    snprintf(g->meta.status, sizeof g->meta.status, "%s", status);
    g->meta.deadline = 0;
    g->overdue = false;
}

/* A decline or an abort (a player's or an admin's): closed in memory at
 * once (nobody can join it or close it again meanwhile), stored in the
 * next group commit (no sync of its own on the loop), told once stored; a
 * failed commit puts it back. */
struct closing {
    struct ak_store_game_meta meta, before;
    bool overdue_before;
    char by[64];
};

static int closing_write(struct ak_store *st, const struct ak_commit *k)
{
    const struct closing *x = k->data;
    return ak_store_game_set_status(st, k->game_id, x->meta.status);
}

static void closing_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct closing *x = k->data;
    announce_close(srv, k->g, x->meta.status, x->by);
    /* Nobody can ask for it any more (ak_game_find): its watchers were
     * told, and its state leaves memory now rather than after
     * keep_finished (games made and called off in a loop, issue 28). */
    ak_game_unwatch_all(k->g);
    ak_game_evict(srv, k->g);
    if (k->conn)
        ak_conn_reply_ok(k->conn, k->id, json_pack("{s:I,s:s}", "game", (json_int_t)k->game_id, "status",
                                                   x->meta.status));
}

static void closing_undo(struct ak_server *srv, struct ak_commit *k)
{
    const struct closing *x = k->data;
    memcpy(k->g->meta.status, x->before.status, sizeof k->g->meta.status);
    ak_game_relist(srv, k->g);
    k->g->meta.deadline = x->before.deadline;
    k->g->overdue = x->overdue_before;
}

static const struct ak_job closing_job = {closing_write, closing_answer, closing_undo, NULL, NULL};

bool ak_game_close(struct ak_server *srv, struct ak_conn *c, const json_t *id, struct ak_game *g,
                   const char *status, const char *by)
{
    struct closing *x = malloc(sizeof *x);
    if (!x) {
        if (c)
            ak_conn_reply_error(c, id, "internal", "out of memory; nothing changed");
        return false;
    }
    x->before = g->meta;
    x->overdue_before = g->overdue;
    snprintf(x->by, sizeof x->by, "%s", by);
    close_in_memory(g, status);
    ak_game_relist(srv, g);
    x->meta = g->meta;
    return ak_batch_job(srv, c, id, &closing_job, g, x);
}

void ak_cmd_decline(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = ak_game_arg(c, id, msg);
    if (!g)
        return;
    if (!g->meta.challenge || g->meta.challenge != c->user || !ak_game_open(g)) {
        ak_conn_reply_error(c, id, "not_invited", "game %lld is not a challenge waiting for you",
                            (long long)g->id);
        return;
    }
    ak_game_close(c->srv, c, id, g, "declined", c->user_name);
}

void ak_cmd_abort(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    int side;
    struct ak_game *g = ak_game_player_arg(c, id, msg, &side);
    if (!g)
        return;
    if (g->tournament) {
        ak_conn_reply_error(c, id, "tournament_game", "game %lld is a tournament pairing: play it or resign "
                            "(an admin can adjudicate or abort it)", (long long)g->id);
        return;
    }
    if (g->state->actions > 0) {
        ak_conn_reply_error(c, id, "already_started",
                            "game %lld has begun; abort only before the first action (resign instead)",
                            (long long)g->id);
        return;
    }
    ak_game_close(c->srv, c, id, g, "aborted", c->user_name);
}

void ak_cmd_watch(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = ak_game_arg(c, id, msg);
    char why[200];
    if (!g)
        return;
    if (ak_game_watch_refused(c, g, why, sizeof why)) {
        ak_conn_reply_error(c, id, "too_many_watchers", "%s", why);
        return;
    }
    if (!ak_game_watch(c, g)) {
        ak_conn_reply_error(c, id, "internal", "out of room to watch game %lld", (long long)g->id);
        return;
    }
    /* A spectator without an account (a link to a game in a browser) is
     * not a connection waiting to log in: from now on the silence limit
     * of logged-in connections applies to it (it pings to stay). */
    if (!c->user)
        ak_conn_authenticated(c);
    ak_conn_reply_ok(c, id, ak_game_full(g, c->user));
}

void ak_cmd_show(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = ak_game_arg(c, id, msg);
    if (g)
        ak_conn_reply_ok(c, id, ak_game_full(g, c->user));
}

/* 0: waiting for user, 1: user's other games and challenges, 2: others. */
static int64_t caller;      /* by_group_then_newest's: qsort has no context */

static int games_group(const struct ak_game *g, int64_t user)
{
    bool me = ak_game_side_of(g, user) >= 0 || (user && g->meta.challenge == user);
    if (!me)
        return 2;
    int waiting = ak_game_waiting(g);
    bool my_turn = waiting < AK_SIDES && g->player[waiting] == user && !ak_game_open(g);
    return my_turn ? 0 : 1;
}

static int by_group_then_newest(const void *x, const void *y)
{
    const struct ak_game *a = *(struct ak_game *const *)x, *b = *(struct ak_game *const *)y;
    int ga = games_group(a, caller), gb = games_group(b, caller);
    return ga != gb ? ga - gb : a->id > b->id ? -1 : a->id < b->id;
}

/* Games per page of `games`: a list of every game ever played, built and
 * encoded in one loop turn, would stall everyone on a large server. */
#define GAMES_PAGE 100
#define GAMES_PAGE_MAX 500

void ak_cmd_games(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    const json_t *jo = json_object_get(msg, "offset"), *jl = json_object_get(msg, "limit");
    json_int_t offset = jo ? json_integer_value(jo) : 0, limit = jl ? json_integer_value(jl) : GAMES_PAGE;
    if ((jo && !json_is_integer(jo)) || (jl && !json_is_integer(jl)) || offset < 0 || offset > INT32_MAX ||
        limit < 1 || limit > GAMES_PAGE_MAX) {
        ak_conn_reply_error(c, id, "bad_request", "\"offset\" is 0 or more, \"limit\" 1 to %d", GAMES_PAGE_MAX);
        return;
    }
    /* Waiting for the caller first, then the caller's other games and
     * challenges (from his own index, ak_seats.c), then the rest (the
     * listed games, newest first, skipping his); a summary is made only
     * for the page, and the walk stops with it: nothing here walks every
     * game the server holds (issue 28). */
    struct ak_game *const *seated;
    int nseated = ak_seats_of(c->user, &seated), nmine = 0;
    struct ak_game **mine = malloc(sizeof *mine * (size_t)(nseated + 1));
    if (!mine) {
        ak_conn_reply_error(c, id, "internal", "out of memory");
        return;
    }
    for (int i = 0; i < nseated; i++)
        if (ak_game_listed(seated[i]) && games_group(seated[i], c->user) < 2)
            mine[nmine++] = seated[i];
    caller = c->user;
    qsort(mine, (size_t)nmine, sizeof *mine, by_group_then_newest);
    json_t *page = json_array();
    json_int_t total = c->srv->nlisted, at = 0;
    for (int i = 0; i < nmine; i++, at++)
        if (at >= offset && at < offset + limit)
            json_array_append_new(page, ak_game_summary(mine[i], c->user));
    for (const struct ak_game *g = c->srv->listed; g && at < offset + limit; g = g->listed_next) {
        if (games_group(g, c->user) < 2)
            continue;
        if (at >= offset)
            json_array_append_new(page, ak_game_summary(g, c->user));
        at++;
    }
    free(mine);
    ak_conn_reply_ok(c, id, json_pack("{s:o,s:I,s:I,s:b}", "games", page, "total", total, "offset", offset,
                                      "more", offset + limit < total));
}

/* {"cmd":"give_time","game","seconds"}: a player adds time to his
 * opponent's clock (a courtesy of correspondence play: a journey, an
 * illness). Only while the opponent is the one awaited and his clock runs;
 * 60 seconds to 30 days at a time. An overdue game runs again. */
/* give_time's answer, once the deadline is stored (ak_clock_give). */
static void time_given_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct ak_deadline_change *d = k->data;
    struct ak_game *g = k->g;
    (void)srv;
    json_t *push = json_pack("{s:s,s:I,s:s,s:I,s:I}", "push", "time_given", "game", (json_int_t)g->id, "by",
                             d->side == AK_AXIS ? "axis" : "allied", "seconds", (json_int_t)d->seconds,
                             "deadline", (json_int_t)d->after);
    ak_game_push(g, push);
    json_decref(push);
    ak_log_with(AK_LOG_INFO, AK_LOG_GAME(g->id), "game %lld: %s gave %lld s more to the %s player", (long long)g->id,
           g->player_name[d->side], (long long)d->seconds, ak_side_name(!d->side));
    if (k->conn)
        ak_conn_reply_ok(k->conn, k->id, ak_game_summary(g, k->user));
}

static const struct ak_job time_given_job = {ak_clock_deadline_write, time_given_answer, ak_clock_deadline_undo,
                                             NULL, NULL};

void ak_cmd_give_time(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    int side;
    struct ak_game *g = ak_game_player_arg(c, id, msg, &side);
    const json_t *sec = json_object_get(msg, "seconds");
    if (!g)
        return;
    if (!json_is_integer(sec) || json_integer_value(sec) < 60 || json_integer_value(sec) > 30 * 86400) {
        ak_conn_reply_error(c, id, "bad_request", "seconds is from 60 to 2592000 (30 days)");
        return;
    }
    int waiting = ak_game_waiting(g);
    if (!g->meta.deadline || waiting != !side) {
        ak_conn_reply_error(c, id, "bad_request", "game %lld: your opponent's clock is not running",
                            (long long)g->id);
        return;
    }
    struct ak_deadline_change *d = calloc(1, sizeof *d);
    if (!d) {
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing changed");
        return;
    }
    d->side = side;
    ak_clock_give(c->srv, c, id, g, json_integer_value(sec), &time_given_job, d);
}
