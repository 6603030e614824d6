/* ak_ladder: Glicko-2 ratings for rated games, and the ladder.
 *
 * Each player has a rating per ruleset (a new one starts at 1500 with the
 * deviation rating_max_rd and volatility rating_volatility). When a rated
 * game ends, each player's deviation first grows for the rating periods
 * (rating_period_days) he has not played, then both are updated by
 * Glicko-2 (ak_glicko.c) with that one game as the period: the winner
 * scores 1, the loser 0; a resignation or a loss on time counts like any
 * other result. A rating whose deviation is above rating_provisional_rd is
 * shown as provisional. The ratings are computed and written by the writer
 * thread in the very transaction that stores the action ending the game
 * (with the mark that the game was counted): the end of a game is never
 * stored without its rating change, nor counted twice. Every change is
 * kept (rating_changes): the history `player` shows.
 */
#include <string.h>

#include "ak_glicko.h"
#include "ak_server.h"

#define LADDER_PAGE_MAX 500
#define PLAYER_CHANGES 20

void ak_ladder_prepare(const struct ak_config *cfg, const struct ak_game *g, const struct ak_state *prev,
                       const struct ak_state *next,
                       struct ak_commit *k)
{
    k->rate_winner = k->rate_loser = 0;
    if (prev->phase == AK_PHASE_OVER || next->phase != AK_PHASE_OVER || !g->meta.rated ||
        g->player[0] == g->player[1] ||
        next->result == AK_RESULT_NONE)
        return;
    /* A draw (only an adjudication makes one) scores a half each: the
     * "winner" is then the Axis player. */
    int win_side = next->result == AK_RESULT_ALLIED_WINS ? AK_ALLIED : AK_AXIS;
    k->rate_winner = g->player[win_side];
    k->rate_loser = g->player[!win_side];
    k->rate_score = next->result == AK_RESULT_DRAW ? 0.5 : 1.0;
    k->rating.tau = cfg->rating_tau;
    k->rating.volatility = cfg->rating_volatility;
    k->rating.max_rd = cfg->rating_max_rd;
    k->rating.period_days = cfg->rating_period_days;
    snprintf(k->rating.ruleset, sizeof k->rating.ruleset, "%s", ak_ruleset_get(next->ruleset)->name);
}

/* The player's rating as it stands when the game ends: a new player's,
 * or his own with the deviation grown for the periods he was idle. */
static int rating_now(struct ak_store *st, const struct ak_commit *k, int64_t user, struct ak_store_glicko *r)
{
    const struct ak_glicko_params p = {.tau = k->rating.tau, .max_rd = k->rating.max_rd};
    int rc = ak_store_glicko_get(st, user, k->rating.ruleset, r);
    if (rc == AK_STORE_NOT_FOUND) {
        *r = (struct ak_store_glicko){.rating = 1500, .rd = k->rating.max_rd, .volatility = k->rating.volatility};
        return AK_STORE_OK;
    }
    if (rc != AK_STORE_OK)
        return rc;
    if (r->last_played > 0 && k->when > r->last_played) {
        double periods = (double)(k->when - r->last_played) / (86400.0 * k->rating.period_days);
        r->rd = ak_glicko_idle_rd((struct ak_glicko){r->rating, r->rd, r->volatility}, periods, &p);
    }
    return AK_STORE_OK;
}

int ak_ladder_write(struct ak_store *st, struct ak_commit *k)
{
    if (!k->rate_winner)
        return AK_STORE_OK;
    int rc = ak_store_rated_mark(st, k->game_id);
    if (rc == AK_STORE_EXISTS)
        return AK_STORE_OK;     /* counted before: nothing to do */
    struct ak_store_glicko w, l;
    if (rc != AK_STORE_OK || rating_now(st, k, k->rate_winner, &w) != AK_STORE_OK ||
        rating_now(st, k, k->rate_loser, &l) != AK_STORE_OK)
        return AK_STORE_ERROR;
    const struct ak_glicko_params p = {.tau = k->rating.tau, .max_rd = k->rating.max_rd};
    struct ak_glicko gw = {w.rating, w.rd, w.volatility}, gl = {l.rating, l.rd, l.volatility};
    double one = k->rate_score, zero = 1 - k->rate_score;
    struct ak_glicko nw = ak_glicko_update(gw, &gl, &one, 1, &p);
    struct ak_glicko nl = ak_glicko_update(gl, &gw, &zero, 1, &p);
    struct ak_store_glicko sw = {nw.rating, nw.rd, nw.volatility, w.games + 1, k->when};
    struct ak_store_glicko sl = {nl.rating, nl.rd, nl.volatility, l.games + 1, k->when};
    int win_side = k->g->player[AK_AXIS] == k->rate_winner ? AK_AXIS : AK_ALLIED;
    const char *sides[2] = {"axis", "allied"};
    rc = ak_store_glicko_put(st, k->rate_winner, k->rating.ruleset, &sw, k->game_id, sides[win_side], one,
                             w.rating, k->when);
    if (rc == AK_STORE_OK)
        rc = ak_store_glicko_put(st, k->rate_loser, k->rating.ruleset, &sl, k->game_id, sides[!win_side], zero,
                                 l.rating, k->when);
    k->rated[0] = w.rating;
    k->rated[1] = nw.rating;
    k->rated[2] = l.rating;
    k->rated[3] = nl.rating;
    return rc;
}

void ak_ladder_log(const struct ak_commit *k)
{
    if (!k->rate_winner)
        return;
    const struct ak_game *g = k->g;
    int win_side = g->player[AK_AXIS] == k->rate_winner ? AK_AXIS : AK_ALLIED;
    ak_log_with(AK_LOG_INFO, AK_LOG_GAME(g->id), "game %lld rated (%s): %s %.0f -> %.0f, %s %.0f -> %.0f", (long long)g->id,
           k->rating.ruleset, g->player_name[win_side], k->rated[0], k->rated[1], g->player_name[!win_side],
           k->rated[2], k->rated[3]);
}

static json_t *rating_json(const struct ak_server *srv, double rating, double rd, int games)
{
    return json_pack("{s:i,s:i,s:b,s:i}", "rating", (int)(rating + 0.5), "rd", (int)(rd + 0.5), "provisional",
                     rd > srv->cfg.rating_provisional_rd, "games", games);
}

/* The ruleset named in msg (default classic), or NULL with the error sent. */
static const char *ruleset_arg(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    const json_t *r = json_object_get(msg, "ruleset");
    if (!r)
        return ak_ruleset_get(0)->name;
    if (!json_is_string(r) || ak_ruleset_find(json_string_value(r)) < 0) {
        ak_conn_reply_error(c, id, "bad_request", "ruleset is the name of a ruleset (classic)");
        return NULL;
    }
    return ak_ruleset_get(ak_ruleset_find(json_string_value(r)))->name;
}

void ak_cmd_ladder(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    static struct ak_store_ladder_row rows[LADDER_PAGE_MAX];
    const char *ruleset = ruleset_arg(c, id, msg);
    if (!ruleset)
        return;
    const json_t *o = json_object_get(msg, "offset"), *l = json_object_get(msg, "limit");
    if ((o && (!json_is_integer(o) || json_integer_value(o) < 0 || json_integer_value(o) > 1000000000)) ||
        (l && (!json_is_integer(l) || json_integer_value(l) < 1 || json_integer_value(l) > LADDER_PAGE_MAX))) {
        ak_conn_reply_error(c, id, "bad_request", "offset is 0 or more, limit 1 to %d", LADDER_PAGE_MAX);
        return;
    }
    int offset = o ? (int)json_integer_value(o) : 0, limit = l ? (int)json_integer_value(l) : 100, total = 0;
    int n = ak_store_ladder_page(c->srv->store, ruleset, offset, limit, rows, &total);
    if (n < 0) {
        ak_conn_reply_error(c, id, "internal", "could not read the ladder");
        return;
    }
    json_t *players = json_array();
    for (int i = 0; i < n; i++) {
        json_t *p = rating_json(c->srv, rows[i].rating, rows[i].rd, rows[i].games);
        json_object_set_new(p, "rank", json_integer(offset + i + 1));
        json_object_set_new(p, "user", json_string(rows[i].name));
        json_object_set_new(p, "computer", json_boolean(rows[i].computer));     /* rated, flagged */
        json_array_append_new(players, p);
    }
    ak_conn_reply_ok(c, id, json_pack("{s:o,s:s,s:i,s:i,s:b}", "ladder", players, "ruleset", ruleset, "total",
                                      total, "offset", offset, "more", offset + n < total));
}

void ak_cmd_player(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    static struct ak_store_player_rating ratings[8];
    static struct ak_store_rating_change changes[PLAYER_CHANGES];
    const char *name = json_string_value(json_object_get(msg, "user"));
    int64_t user;
    char hash[256];
    if (!name || strlen(name) > 63) {
        ak_conn_reply_error(c, id, "bad_request", "user is a player's name");
        return;
    }
    int rc = ak_store_user_find(c->srv->store, name, &user, hash, sizeof hash);
    if (rc == AK_STORE_NOT_FOUND) {
        ak_conn_reply_error(c, id, "no_such_user", "no player is called %s", name);
        return;
    }
    bool computer = false;
    if (rc == AK_STORE_OK)
        rc = ak_store_user_computer(c->srv->store, user, &computer);
    int nr = rc == AK_STORE_OK ? ak_store_player_ratings(c->srv->store, user, ratings, 8) : -1;
    int nc = nr >= 0 ? ak_store_rating_changes(c->srv->store, user, changes, PLAYER_CHANGES) : -1;
    if (nr < 0 || nc < 0) {
        ak_conn_reply_error(c, id, "internal", "could not read the player");
        return;
    }
    json_t *rl = json_array(), *recent = json_array();
    for (int i = 0; i < nr; i++) {
        json_t *r = rating_json(c->srv, ratings[i].rating, ratings[i].rd, ratings[i].games);
        json_object_set_new(r, "ruleset", json_string(ratings[i].ruleset));
        json_array_append_new(rl, r);
    }
    /* Results by side, over the changes read (the recent ones). */
    int won[2] = {0, 0}, lost[2] = {0, 0}, drawn[2] = {0, 0};
    for (int i = 0; i < nc; i++) {
        int side = strcmp(changes[i].side, "axis") == 0 ? 0 : 1;
        if (changes[i].score > 0.75)
            won[side]++;
        else if (changes[i].score < 0.25)
            lost[side]++;
        else
            drawn[side]++;
        json_array_append_new(recent, json_pack("{s:I,s:s,s:s,s:s,s:s,s:i,s:i,s:I}", "game",
                                                (json_int_t)changes[i].game, "ruleset", changes[i].ruleset,
                                                "side", changes[i].side, "opponent", changes[i].opponent,
                                                "result", changes[i].score > 0.75 ? "won" : changes[i].score < 0.25 ? "lost" : "drawn", "before",
                                                (int)(changes[i].before + 0.5), "after",
                                                (int)(changes[i].after + 0.5), "at", (json_int_t)changes[i].at));
        if (changes[i].bid)     /* the side auction the game began with (issue 32) */
            json_object_set_new(json_array_get(recent, json_array_size(recent) - 1), "bid",
                                json_pack("{s:i,s:s}", "supply", changes[i].bid_supply, "side",
                                          changes[i].bid_side == AK_AXIS ? "axis" : "allied"));
    }
    ak_conn_reply_ok(c, id, json_pack("{s:s,s:b,s:o,s:{s:{s:i,s:i,s:i},s:{s:i,s:i,s:i}},s:o}", "user", name,
                                      "computer", computer, "ratings",
                                      rl, "results", "axis", "won", won[0], "lost", lost[0], "drawn", drawn[0],
                                      "allied", "won", won[1], "lost", lost[1], "drawn", drawn[1], "recent", recent));
}
