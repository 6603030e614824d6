/* ak_seats: each account's games (issue 28): those he is seated in, and
 * the challenges to him.
 *
 * A request about one player (how many unfinished games he has before a
 * `new`, the deadlines a vacation moves) looks at his games alone instead
 * of walking every game the server holds, which on a server that has
 * seen tens of thousands of games would cost milliseconds of the loop per
 * request. Seats change in one place, ak_game_seat, which keeps this index
 * true; a game leaving memory for good (ak_game_remove) leaves it too.
 *
 * The index is an open-addressed table of accounts (linear probing, grown
 * at half full, never shrunk: accounts come and stay), each with a growing
 * array of its games. A player has tens of games, so the arrays are
 * searched linearly.
 */
#include <stdlib.h>

#include "ak_server.h"

struct seats {
    int64_t user;       /* 0: free */
    struct ak_game **games;
    int n, cap;
};

static struct seats *table;
static size_t slots, used;

static size_t slot_of(int64_t user, size_t n)
{
    return (size_t)(((uint64_t)user * 0x9e3779b97f4a7c15ull) >> 20) & (n - 1);
}

static struct seats *find(int64_t user)
{
    for (size_t i = slots ? slot_of(user, slots) : 0, k = 0; k < slots; k++, i = (i + 1) & (slots - 1)) {
        if (table[i].user == user)
            return &table[i];
        if (!table[i].user)
            return NULL;
    }
    return NULL;
}

static bool grow(void)
{
    size_t n = slots ? slots * 2 : 256;
    struct seats *t = calloc(n, sizeof *t);
    if (!t)
        return false;
    for (size_t i = 0; i < slots; i++) {
        if (!table[i].user)
            continue;
        size_t j = slot_of(table[i].user, n);
        while (t[j].user)
            j = (j + 1) & (n - 1);
        t[j] = table[i];
    }
    free(table);
    table = t;
    slots = n;
    return true;
}

static struct seats *find_or_add(int64_t user)
{
    struct seats *s = find(user);
    if (s)
        return s;
    if ((used + 1) * 2 > slots && !grow())
        return NULL;
    size_t i = slot_of(user, slots);
    while (table[i].user)
        i = (i + 1) & (slots - 1);
    table[i].user = user;
    used++;
    return &table[i];
}

static void add(int64_t user, struct ak_game *g)
{
    struct seats *s = find_or_add(user);
    if (!s)
        return;
    for (int i = 0; i < s->n; i++)
        if (s->games[i] == g)
            return;
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 8;
        struct ak_game **more = realloc(s->games, sizeof *more * (size_t)cap);
        if (!more)
            return;
        s->games = more;
        s->cap = cap;
    }
    s->games[s->n++] = g;
}

static void drop(int64_t user, const struct ak_game *g)
{
    struct seats *s = find(user);
    for (int i = 0; s && i < s->n; i++)
        if (s->games[i] == g) {
            s->games[i] = s->games[--s->n];
            return;
        }
}

void ak_game_seat(struct ak_game *g, int side, int64_t user)
{
    int64_t old = g->player[side];
    g->player[side] = user;
    if (old && old != user && old != g->player[!side] && old != g->meta.challenge)
        drop(old, g);
    if (user)
        add(user, g);
}

void ak_seats_leave(const struct ak_game *g)
{
    for (int side = 0; side < AK_SIDES; side++)
        if (g->player[side])
            drop(g->player[side], g);
    if (g->meta.challenge)
        drop(g->meta.challenge, g);
}

void ak_seats_challenged(struct ak_game *g)
{
    if (g->meta.challenge)
        add(g->meta.challenge, g);
}

int ak_seats_of(int64_t user, struct ak_game *const **games)
{
    const struct seats *s = user ? find(user) : NULL;
    *games = s ? s->games : NULL;
    return s ? s->n : 0;
}

void ak_seats_free(void)
{
    for (size_t i = 0; i < slots; i++)
        free(table[i].games);
    free(table);
    table = NULL;
    slots = used = 0;
}
