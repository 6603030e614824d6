/* ak_watch: who gets a game's pushes.
 *
 * Each game keeps the list of connections watching it (its players and its
 * spectators) and each connection the games it watches, so a push goes
 * straight to its watchers however many connections the server holds, and
 * a closing connection leaves exactly the lists it was on.
 */
#include <stdlib.h>

#include "ak_codec.h"
#include "ak_server.h"

static bool watches(const struct ak_conn *c, const struct ak_game *g)
{
    for (int i = 0; i < c->nwatch; i++)
        if (c->watch[i] == g)
            return true;
    return false;
}

void ak_game_watch(struct ak_conn *c, struct ak_game *g)
{
    if (watches(c, g) || c->nwatch >= AK_WATCH_MAX)
        return;
    if (g->nwatchers == g->watchers_cap) {
        int cap = g->watchers_cap ? 2 * g->watchers_cap : 4;
        struct ak_conn **w = realloc(g->watchers, (size_t)cap * sizeof *w);
        if (!w)
            return;
        g->watchers = w;
        g->watchers_cap = cap;
    }
    g->watchers[g->nwatchers++] = c;
    c->watch[c->nwatch++] = g;
}

static void leave(struct ak_game *g, const struct ak_conn *c)
{
    for (int i = 0; i < g->nwatchers; i++)
        if (g->watchers[i] == c) {
            g->watchers[i] = g->watchers[--g->nwatchers];
            return;
        }
}

void ak_conn_unwatch_all(struct ak_conn *c)
{
    for (int i = 0; i < c->nwatch; i++)
        leave(c->watch[i], c);
    c->nwatch = 0;
}

void ak_game_unwatch_all(struct ak_game *g)
{
    for (int i = 0; i < g->nwatchers; i++) {
        struct ak_conn *c = g->watchers[i];
        for (int j = 0; j < c->nwatch; j++)
            if (c->watch[j] == g) {
                c->watch[j] = c->watch[--c->nwatch];
                break;
            }
    }
    g->nwatchers = 0;
}

/* Encoded once into a buffer kept from push to push (the loop is the only
 * thread that pushes), then copied into each watcher's output. */
void ak_game_push(const struct ak_game *g, json_t *msg)
{
    static char *line;
    static size_t cap;
    if (g->nwatchers == 0)
        return;
    size_t len = ak_msg_encode_to(msg, line, cap);
    if (len > cap) {
        char *bigger = realloc(line, len);
        if (!bigger)
            return;
        line = bigger;
        cap = len;
        len = ak_msg_encode_to(msg, line, cap);
    }
    if (len == 0 || len > cap)
        return;
    ak_game_push_line(g, line, len);
}

void ak_game_push_line(const struct ak_game *g, const char *line, size_t len)
{
    ak_stats_push(g->nwatchers);
    for (int i = 0; i < g->nwatchers; i++)
        ak_conn_send_bytes(g->watchers[i], line, len);
}
