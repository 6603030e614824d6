/* ak_bot_games: what akbot does with each game (ak_bot.h).
 *
 * The lobby (`games`, the bot's own first) says which challenges wait for
 * it and which of its games wait for it; pushes of the games it watches
 * say when to look again. A challenge is accepted within max_games and
 * games_per_player, declined otherwise (a player is never left waiting on
 * a computer that will not come). A game waiting for the bot is read
 * (`show`), the AI chooses one action on it (ai/ak_ai.h, at the game's
 * level: every action it returns passed the rules engine), and the action
 * is sent (`act`), again and again while the game waits for it. The state
 * is read again before each action: the server is the referee, the bot
 * never plays on a state it only assumed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "ak_bot.h"
#include "ak_dice.h"
#include "ak_notation.h"

#define ACTIONS_PER_LOOK 3000   /* more than any player turn: a bound if the server and the AI disagree */

void ak_bot_log(const struct ak_bot *b, const char *fmt, ...)
{
    char when[32];
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(stderr, "%s akbot %s: ", when, b->cfg.user);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static struct ak_bot *push_target;      /* ak_net_call's push callback has no context */

static void on_push(json_t *push)
{
    if (push_target)
        ak_bot_push(push_target, push);
}

json_t *ak_bot_call(struct ak_bot *b, json_t *req, char code[32])
{
    char cmd[24];
    snprintf(cmd, sizeof cmd, "%s", json_string_value(json_object_get(req, "cmd")));
    code[0] = '\0';
    push_target = b;
    json_t *reply = ak_net_call(&b->net, req, on_push);
    if (!reply) {
        b->broken = true;
        snprintf(code, 32, "connection");
        return NULL;
    }
    if (!json_is_true(json_object_get(reply, "ok"))) {
        const json_t *e = json_object_get(reply, "error");
        snprintf(code, 32, "%s", json_string_value(json_object_get(e, "code")));
        ak_bot_log(b, "%s refused: %s: %s", cmd, code, json_string_value(json_object_get(e, "message")));
        json_decref(reply);
        return NULL;
    }
    json_t *result = json_incref(json_object_get(reply, "result"));
    json_decref(reply);
    return result;
}

static struct ak_bot_game *find(struct ak_bot *b, long long id)
{
    for (int i = 0; i < b->ngames; i++)
        if (b->games[i].id == id)
            return &b->games[i];
    return NULL;
}

/* The game tracked from now on; NULL when the table is full of unfinished
 * games (finished ones make room). */
static struct ak_bot_game *track(struct ak_bot *b, long long id, int level, const char *opponent)
{
    struct ak_bot_game *g = find(b, id);
    if (g)
        return g;
    for (int i = 0; i < b->ngames && !g; i++)
        if (b->games[i].over)
            g = &b->games[i];
    if (!g && b->ngames < AK_BOT_GAMES_MAX)
        g = &b->games[b->ngames++];
    if (!g)
        return NULL;
    *g = (struct ak_bot_game){.id = id, .level = level >= 1 && level < AK_AI_LEVELS ? level : b->cfg.level};
    snprintf(g->opponent, sizeof g->opponent, "%s", opponent ? opponent : "");
    ak_ai_init(&g->ai, g->level, (uint64_t)id * 0x9e3779b97f4a7c15ull ^ (uint64_t)time(NULL));
    return g;
}

/* A game seen over (by the lobby or by its state): said once, forgotten. */
static void finished(struct ak_bot *b, struct ak_bot_game *g)
{
    if (!g->over)
        ak_bot_log(b, "game %lld is over", g->id);
    g->over = true;
}

static int running(const struct ak_bot *b, const char *opponent)
{
    int n = 0;
    for (int i = 0; i < b->ngames; i++)
        n += !b->games[i].over && (!opponent || strcasecmp(b->games[i].opponent, opponent) == 0);
    return n;
}

/* The other player of a summary, seated or the seek's creator. */
static const char *opponent_of(const json_t *g, const char *me)
{
    const json_t *p = json_object_get(g, "players");
    const char *ax = json_string_value(json_object_get(p, "axis"));
    const char *al = json_string_value(json_object_get(p, "allied"));
    return ax && strcasecmp(ax, me) != 0 ? ax : al && strcasecmp(al, me) != 0 ? al : "";
}

/* join or decline; true when done, else the refusal's code in code */
static bool answer(struct ak_bot *b, long long id, const char *cmd, char code[32])
{
    json_t *r = ak_bot_call(b, json_pack("{s:s,s:I}", "cmd", cmd, "game", (json_int_t)id), code);
    bool done = r != NULL;
    json_decref(r);
    return done;
}

/* Accepted within max_games and games_per_player; declined otherwise, and
 * declined too when akd will not seat the bot (its games_per_user): a
 * player is never left waiting on a computer that will not come. Any
 * other refusal (a budget, the server's trouble) is tried again at a
 * later scan. */
static void answer_challenge(struct ak_bot *b, const json_t *g, long long id)
{
    char code[32];
    const char *from = opponent_of(g, b->cfg.user);
    bool room = running(b, NULL) < b->cfg.max_games && running(b, from) < b->cfg.games_per_player;
    if (room && answer(b, id, "join", code)) {
        struct ak_bot_game *t = track(b, id, (int)json_integer_value(json_object_get(g, "computer_level")), from);
        b->watches++;       /* join watches it */
        if (t) {
            t->watched = t->dirty = true;
            ak_bot_log(b, "game %lld: accepted %s's challenge, level %d", id, from, t->level);
        }
        return;
    }
    bool seat_refused = room && strcmp(code, "too_many_games") == 0;
    if (b->broken || (room && !seat_refused) || !answer(b, id, "decline", code))
        return;
    ak_bot_log(b, "game %lld: declined %s's challenge (%d games running, at most %d, %d with one player%s)", id,
               from, running(b, NULL), b->cfg.max_games, b->cfg.games_per_player,
               seat_refused ? "; the server refused the seat" : "");
}

static bool is_over(const json_t *g)
{
    const char *phase = json_string_value(json_object_get(g, "phase"));
    return phase && strcmp(phase, "over") == 0;
}

static bool challenges_me(const struct ak_bot *b, const json_t *g)
{
    const char *challenge = json_string_value(json_object_get(g, "challenge"));
    return json_is_true(json_object_get(g, "open")) && challenge && strcasecmp(challenge, b->cfg.user) == 0 &&
           !json_is_string(json_object_get(g, "you"));
}

/* One of the bot's own games in the lobby (not a challenge to it). */
static void look_at(struct ak_bot *b, const json_t *g, int *my_seeks)
{
    long long id = json_integer_value(json_object_get(g, "game"));
    if (!json_is_string(json_object_get(g, "you")))
        return;
    if (json_is_true(json_object_get(g, "open"))) {     /* its own seek, nobody in it yet */
        *my_seeks += !json_is_string(json_object_get(g, "challenge"));
        return;
    }
    struct ak_bot_game *t = find(b, id);
    if (is_over(g)) {
        if (t)
            finished(b, t);
        return;
    }
    if (!t)
        t = track(b, id, (int)json_integer_value(json_object_get(g, "computer_level")), opponent_of(g, b->cfg.user));
    if (t && (json_is_true(json_object_get(g, "your_turn")) || !t->watched))
        t->dirty = true;
}

/* Its own open seeks, up to cfg.seeks; refused (akd's games_per_user),
 * not asked again for a minute. */
static void keep_seeks(struct ak_bot *b, int open)
{
    if ((long long)time(NULL) < b->seek_retry_at)
        return;
    for (int i = open; i < b->cfg.seeks && running(b, NULL) + i < b->cfg.max_games; i++) {
        char code[32];
        /* an open seek: "computer" would make it a challenge to a computer */
        json_t *r = ak_bot_call(b, json_pack("{s:s,s:s,s:s}", "cmd", "new", "side", "random", "ruleset",
                                             b->cfg.seek_ruleset), code);
        if (!r) {
            b->seek_retry_at = (long long)time(NULL) + 60;
            return;
        }
        ak_bot_log(b, "game %lld: an open seek of its own (%s)", (long long)json_integer_value(json_object_get(r, "game")),
                   b->cfg.seek_ruleset);
        b->watches++;       /* akd watches a new game for its creator */
        json_decref(r);
    }
}

void ak_bot_scan(struct ak_bot *b)
{
    char code[32];
    /* a page of the bot's own games first, then the rest: enough for its
     * unfinished games and the challenges waiting */
    json_t *r = ak_bot_call(b, json_pack("{s:s,s:i}", "cmd", "games", "limit", 2 * b->cfg.max_games + 20), code);
    if (!r)
        return;
    int my_seeks = 0;
    size_t i;
    json_t *g;
    /* its games first, so that the limits count them all, then the challenges */
    json_array_foreach(json_object_get(r, "games"), i, g)
        look_at(b, g, &my_seeks);
    json_array_foreach(json_object_get(r, "games"), i, g)
        if (!b->broken && !*b->stopping && challenges_me(b, g))
            answer_challenge(b, g, json_integer_value(json_object_get(g, "game")));
    json_decref(r);
    if (!b->broken && !*b->stopping)
        keep_seeks(b, my_seeks);
    /* (only when a fresh connection would watch fewer: its unfinished
     * games and seeks are watched again) */
    if (b->watches >= AK_BOT_WATCHES_MAX && running(b, NULL) + b->cfg.seeks < AK_BOT_WATCHES_MAX / 2 && !b->broken) {
        ak_bot_log(b, "%d games watched on this connection: connecting again to start afresh", b->watches);
        b->broken = true;
    }
}

void ak_bot_push(struct ak_bot *b, const json_t *push)
{
    struct ak_bot_game *g = find(b, json_integer_value(json_object_get(push, "game")));
    if (g)
        g->dirty = true;
}

void ak_bot_reconnected(struct ak_bot *b)
{
    b->watches = 0;
    for (int i = 0; i < b->ngames; i++) {
        b->games[i].watched = false;
        b->games[i].dirty = !b->games[i].over;
    }
}

/* The AI's next action for a game read with `show`: 1 with *action; 0
 * when the game does not wait for the bot (or is over); -1 when it waits
 * and the bot cannot play it (a state it cannot read, no action). */
static int choose(struct ak_bot *b, struct ak_bot_game *g, const json_t *r, json_t **action)
{
    struct ak_state s;
    char err[200];
    if (!ak_state_from_json(json_object_get(r, "state"), &s, err, sizeof err)) {
        ak_bot_log(b, "game %lld: the server sent a state this program cannot read: %s", g->id, err);
        return -1;
    }
    ak_summary_attach_crt(r, &s);
    if (s.phase == AK_PHASE_OVER) {
        finished(b, g);
        return 0;
    }
    if (!json_is_true(json_object_get(r, "your_turn")))
        return 0;
    struct ak_action a;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool chosen = ak_ai_choose(&g->ai, &s, &a);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!chosen) {
        ak_bot_log(b, "game %lld: the AI found nothing to do", g->id);
        return -1;
    }
    *action = ak_action_to_json(&a);
    if (b->cfg.verbose) {
        char *text = json_dumps(*action, JSON_COMPACT);
        ak_bot_log(b, "game %lld: %s (%.0f ms)", g->id, text,
                   (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
        free(text);
    }
    return 1;
}

/* Something went wrong with a game (refused, unreadable, nothing to do
 * while it waits for the bot): left alone for 2, 4 ... up to 600 s, so
 * that a game the bot cannot play costs the server a request now and
 * then, not one every scan. */
static void setback(struct ak_bot_game *g)
{
    int pause = g->failures < 9 ? 2 << g->failures : 600;
    g->failures++;
    g->retry_at = (long long)time(NULL) + (pause > 600 ? 600 : pause);
}

/* A side auction (issue 32) waiting for the bot: it takes the side it
 * was seated at for nothing, accepting the player's bid or opening with
 * 0 (a computer does not bargain). 1: a step made; 0: no auction waits
 * for it; -1: refused. */
static int bid_step(struct ak_bot *b, struct ak_bot_game *g, const json_t *r)
{
    const json_t *bid = json_object_get(r, "bid");
    const char *status = json_string_value(json_object_get(bid, "status"));
    if (!status || strcmp(status, "open") != 0 || !json_is_true(json_object_get(r, "your_turn")))
        return 0;
    char code[32];
    json_t *req = json_pack("{s:s,s:I}", "cmd", "bid", "game", (json_int_t)g->id);
    if (json_is_string(json_object_get(bid, "side")))
        json_object_set_new(req, "accept", json_true());
    else
        json_object_set_new(req, "supply", json_integer(0));
    json_t *answer = ak_bot_call(b, req, code);
    ak_bot_log(b, "game %lld: side auction: %s%s", g->id, json_is_string(json_object_get(bid, "side"))
               ? "accepted the bid" : "opened with 0", answer ? "" : " (refused)");
    json_decref(answer);
    return answer ? 1 : -1;
}

/* Play one game as long as it waits for the bot. */
static void play(struct ak_bot *b, struct ak_bot_game *g)
{
    char code[32];
    for (int n = 0; n < ACTIONS_PER_LOOK && !b->broken && !*b->stopping; n++) {
        json_t *r = ak_bot_call(b, json_pack("{s:s,s:I}", "cmd", g->watched ? "show" : "watch", "game",
                                             (json_int_t)g->id), code);
        if (!r) {
            g->over = strcmp(code, "no_such_game") == 0;
            if (!b->broken)
                setback(g);
            return;
        }
        b->watches += !g->watched;
        g->watched = true;
        int bid = bid_step(b, g, r);
        if (bid != 0) {
            json_decref(r);
            if (bid < 0 && !b->broken)
                setback(g);
            if (bid < 0)
                return;
            continue;
        }
        json_t *action = NULL;
        int mine = choose(b, g, r, &action);
        json_decref(r);
        if (mine <= 0) {
            if (mine < 0)
                setback(g);
            return;
        }
        char nonce[AK_NONCE_MAX + 1];
        ak_nonce_new(nonce);
        r = ak_bot_call(b, ak_act_request(g->id, action, nonce), code);
        if (!r) {       /* refused: looked at again after a pause */
            if (!b->broken)
                setback(g);
            return;
        }
        g->failures = 0;
        json_decref(r);
    }
}

void ak_bot_play_dirty(struct ak_bot *b)
{
    long long now = (long long)time(NULL);
    for (int i = 0; i < b->ngames && !b->broken && !*b->stopping; i++)
        if (b->games[i].dirty && !b->games[i].over && b->games[i].retry_at <= now) {
            b->games[i].dirty = false;
            play(b, &b->games[i]);
        }
}
