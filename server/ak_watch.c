/* ak_watch: who gets a game's pushes.
 *
 * Each game keeps the list of connections watching it (its players and its
 * spectators) and each connection the games it watches, so a push goes
 * straight to its watchers however many connections the server holds, and
 * a closing connection leaves exactly the lists it was on.
 *
 * Spectators are bounded (issue 28): a game takes at most
 * max_watchers_per_game of them (its players always get in), and
 * connections without an account may watch at most
 * max_anonymous_watchers in all and max_anonymous_per_address from one
 * address, so that a few addresses cannot hold every connection slot by
 * watching (an anonymous watcher is also closed when silent for
 * session_idle_timeout, like a logged-in connection). The counts per
 * address live in a small open-addressed table keyed by the address's
 * budget key (ak_budget.c), so a watch request walks no list but its
 * game's.
 */
#include <stdio.h>
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

#define ANON_SLOTS 4096
#define ANON_PROBE 64

/* Anonymous watching connections per address (count 0: a free slot). */
static struct {
    uint64_t key;
    int count;
} anon[ANON_SLOTS];
static int anon_total;

static int *anon_count(uint64_t key, bool create)
{
    int free_slot = -1;
    for (int i = 0; i < ANON_PROBE; i++) {
        int s = (int)((key + (uint64_t)i) & (ANON_SLOTS - 1));
        if (anon[s].key == key && anon[s].count > 0)
            return &anon[s].count;
        if (free_slot < 0 && anon[s].count == 0)
            free_slot = s;
    }
    if (!create || free_slot < 0)
        return NULL;
    anon[free_slot].key = key;
    return &anon[free_slot].count;
}

static bool is_player(const struct ak_game *g, const struct ak_conn *c)
{
    return c->user && (g->player[AK_AXIS] == c->user || g->player[AK_ALLIED] == c->user);
}

static int spectators(const struct ak_game *g)
{
    int n = 0;
    for (int i = 0; i < g->nwatchers; i++)
        n += !is_player(g, g->watchers[i]);
    return n;
}

bool ak_game_watch_refused(struct ak_conn *c, const struct ak_game *g, char *why, size_t cap)
{
    const struct ak_config *cfg = &c->srv->cfg;
    if (watches(c, g) || is_player(g, c))
        return false;
    if (c->nwatch >= AK_WATCH_MAX)
        return snprintf(why, cap, "a connection watches at most %d games", AK_WATCH_MAX), true;
    if (cfg->max_watchers_per_game && spectators(g) >= cfg->max_watchers_per_game)
        return snprintf(why, cap, "game %lld has %d spectators, the most it takes", (long long)g->id,
                        cfg->max_watchers_per_game), true;
    if (c->user || c->anon_watching)
        return false;
    if (cfg->max_anonymous_watchers && anon_total >= cfg->max_anonymous_watchers)
        return snprintf(why, cap, "%d spectators without an account watch already, the most this server takes; "
                        "log in to watch", cfg->max_anonymous_watchers), true;
    if (!c->addr_key)
        c->addr_key = ak_budget_address_key(c->peer);
    int *n = anon_count(c->addr_key, false);
    if (cfg->max_anonymous_per_address && n && *n >= cfg->max_anonymous_per_address)
        return snprintf(why, cap, "%d connections from your address watch without an account; log in to watch "
                        "more", cfg->max_anonymous_per_address), true;
    return false;
}

bool ak_game_watch(struct ak_conn *c, struct ak_game *g)
{
    if (watches(c, g))
        return true;
    if (c->nwatch >= AK_WATCH_MAX)
        return false;
    if (g->nwatchers == g->watchers_cap) {
        int cap = g->watchers_cap ? 2 * g->watchers_cap : 4;
        struct ak_conn **w = realloc(g->watchers, (size_t)cap * sizeof *w);
        if (!w)
            return false;
        g->watchers = w;
        g->watchers_cap = cap;
    }
    if (!c->user && !c->anon_watching) {
        if (!c->addr_key)
            c->addr_key = ak_budget_address_key(c->peer);
        int *n = anon_count(c->addr_key, true);
        if (!n)
            return false;   /* the table is full along its probe: refused, like a full game */
        ++*n;
        anon_total++;
        c->anon_watching = true;
    }
    g->watchers[g->nwatchers++] = c;
    c->watch[c->nwatch++] = g;
    return true;
}

void ak_conn_watch_counted_in(struct ak_conn *c)
{
    if (c->anon_watching || !c->nwatch)
        return;
    if (!c->addr_key)
        c->addr_key = ak_budget_address_key(c->peer);
    int *n = anon_count(c->addr_key, true);
    if (n)
        ++*n;
    anon_total++;
    c->anon_watching = true;
}

void ak_conn_watch_counted_out(struct ak_conn *c)
{
    if (!c->anon_watching)
        return;
    c->anon_watching = false;
    anon_total--;
    int *n = anon_count(c->addr_key, false);
    if (n && *n > 0)
        --*n;
}

void ak_conn_watch_anonymous(struct ak_conn *c, bool anonymous)
{
    if (anonymous)
        ak_conn_watch_counted_in(c);
    else
        ak_conn_watch_counted_out(c);
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
    ak_conn_watch_counted_out(c);
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
    /* Last first: a watcher closed by its send (past its output bound)
     * leaves the list, and the last one takes its place, already served. */
    for (int i = g->nwatchers - 1; i >= 0; i--)
        if (i < g->nwatchers)
            ak_conn_send_bytes(g->watchers[i], line, len);
}
