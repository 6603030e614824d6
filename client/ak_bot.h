/* ak_bot: the pieces of akbot, the computer player on akd (issue 31).
 *
 * akbot is a client like akc, over the same protocol and the same
 * connection code (ak_net.c): it logs in as an account the operator marked
 * as a computer (akd --computer-add), accepts the challenges addressed to
 * it (a player's `new` with "computer": LEVEL becomes one), keeps its own
 * open seeks if asked, and plays every game it is seated in with the AI
 * library (ai/ak_ai.h) at the level the game asks for. akbot.c reads the
 * settings and keeps the connection (reconnecting after a restart of
 * akd); ak_bot_games.c decides, game by game, what to send.
 */
#ifndef AK_BOT_H
#define AK_BOT_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>

#include "ak_ai.h"
#include "ak_client.h"

struct ak_bot_config {
    char server[256], user[64], password[256], ca[256];
    char password_file[256];    /* read once the settings are all known */
    int tls;                    /* AK_TLS_* */
    bool accept_new;            /* pin the server's certificate when first seen */
    int max_games;              /* unfinished games at once; more challenges are declined */
    int games_per_player;       /* unfinished games with one opponent */
    int level;                  /* for a challenge or seek that asks for none (1-3) */
    int seeks;                  /* open seeks of its own kept in the lobby */
    char seek_ruleset[16];      /* ... of this ruleset */
    int poll_seconds;           /* how often it looks for new challenges */
    int verbose;
};

/* Read "key = value" lines (the format at the top of akbot.c); 0, or -1
 * with err naming the file and line. */
int ak_bot_config_load(const char *path, struct ak_bot_config *c, char *err, size_t cap);

#define AK_BOT_GAMES_MAX 512
/* akd keeps at most 64 games watched per connection and forgets none: a
 * connection that has watched this many is made anew (ak_bot_scan). */
#define AK_BOT_WATCHES_MAX 56
#define AK_BOT_MAX_GAMES_LIMIT 50  /* max_games at most: below the watches, and akd's games_per_user */

/* One game akbot plays: its AI (what it did this portion) and level. */
struct ak_bot_game {
    long long id;
    int level;
    bool watched;               /* on this connection */
    bool dirty;                 /* something happened: look at it again */
    bool over;
    int failures;               /* refused or unplayable in a row: looked at again after a growing pause */
    long long retry_at;         /* time() before which it is left alone */
    char opponent[64];
    struct ak_ai ai;
};

struct ak_bot {
    struct ak_bot_config cfg;
    struct ak_net net;
    struct ak_bot_game games[AK_BOT_GAMES_MAX];
    int ngames;
    int watches;                /* games watched on this connection */
    long long seek_retry_at;    /* a seek refused (the server's limits): not asked again before */
    bool broken;                /* the connection failed, or is to be made anew: reconnect */
    volatile sig_atomic_t *stopping;    /* a signal asked it to stop: between two requests */
};

/* Look at the lobby: accept or decline challenges, keep the seeks, find
 * the games waiting for the bot (ak_bot_games.c). */
void ak_bot_scan(struct ak_bot *b);
/* Play every game marked dirty as long as it waits for the bot. */
void ak_bot_play_dirty(struct ak_bot *b);
/* A push read while waiting: marks its game dirty. */
void ak_bot_push(struct ak_bot *b, const json_t *push);
/* Forget what was watched (a new connection watches again). */
void ak_bot_reconnected(struct ak_bot *b);
/* Send a request and return its result, or NULL (an error is logged; a
 * broken connection sets b->broken). */
json_t *ak_bot_call(struct ak_bot *b, json_t *req, char code[32]);
void ak_bot_log(const struct ak_bot *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
