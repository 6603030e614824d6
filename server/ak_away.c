/* ak_away: who is away on vacation, and what that does to a game's
 * deadline. A small table in memory (read from the store at start, kept
 * up to date by the vacation command, ak_vacation.c), because the clock
 * asks on every new deadline (ak_clock_next). Below the games: it reads
 * a game and the store, and names nothing above. */
#include <stdlib.h>

#include "ak_engine.h"
#include "ak_server.h"

static struct away {
    int64_t user, until;
} *away;
static int naway, away_cap;
static struct ak_server *server;

void ak_vacation_set_until(int64_t user, int64_t until)
{
    for (int i = 0; i < naway; i++)
        if (away[i].user == user) {
            away[i].until = until;
            return;
        }
    if (naway == away_cap) {
        int cap = away_cap ? away_cap * 2 : 16;
        struct away *more = realloc(away, sizeof *more * (size_t)cap);
        if (!more)
            return;
        away = more;
        away_cap = cap;
    }
    away[naway++] = (struct away){user, until};
}

static void loaded(void *ud, int64_t user, int64_t until)
{
    (void)ud;
    ak_vacation_set_until(user, until);
}

int ak_vacation_load(struct ak_server *srv)
{
    server = srv;
    naway = 0;
    return ak_store_vacations_each(srv->store, ak_now(), loaded, NULL) == AK_STORE_OK ? 0 : -1;
}

void ak_vacation_free(void)
{
    free(away);
    away = NULL;
    naway = away_cap = 0;
}

int64_t ak_vacation_until(int64_t user)
{
    int64_t now = ak_now();
    for (int i = 0; i < naway; i++)
        if (away[i].user == user)
            return away[i].until > now ? away[i].until : 0;
    return 0;
}

bool ak_tournament_allows_vacation(struct ak_server *srv, const struct ak_game *g)
{
    struct ak_store_tournament t;
    if (!g->tournament)
        return true;
    return ak_store_tournament_get(srv->store, g->tournament, &t) == AK_STORE_OK && t.vacation;
}

bool ak_vacation_clock_stops(const struct ak_game *g)
{
    return server && ak_tournament_allows_vacation(server, g);
}

bool ak_vacation_pauses(const struct ak_game *g)
{
    int w = g->state ? ak_waiting_for(g->state) : AK_NOBODY;
    return w < AK_SIDES && ak_vacation_until(g->player[w]) && ak_vacation_clock_stops(g);
}

int64_t ak_vacation_shift(const struct ak_game *g, int64_t deadline)
{
    int w = g->state ? ak_waiting_for(g->state) : AK_NOBODY;
    int64_t until = w < AK_SIDES ? ak_vacation_until(g->player[w]) : 0, now = ak_now();
    return until > now && deadline && ak_vacation_clock_stops(g) ? deadline + (until - now) : deadline;
}
