/* ak_seats: each account's games (issue 28): those he is seated in, and
 * the challenges to him; and each tournament's games.
 *
 * A request about one player (how many unfinished games he has before a
 * `new`, the deadlines a vacation moves) looks at his games alone instead
 * of walking every game the server holds, which on a server that has
 * seen tens of thousands of games would cost milliseconds of the loop per
 * request. Seats change in one place, ak_game_seat, which keeps this index
 * true; a game leaving memory for good (ak_game_remove) leaves it too.
 *
 * A tournament's table (its standings, its next round) reads its games
 * from the second index the same way. Each index is an open-addressed
 * table of accounts or tournaments (linear probing, grown
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

/* One index: accounts to their games, or tournaments to theirs. */
struct index {
    struct seats *table;
    size_t slots, used;
};
static struct index accounts, tournaments;
static struct index *ix = &accounts;    /* the one find/add/drop work on */

static size_t slot_of(int64_t user, size_t n)
{
    return (size_t)(((uint64_t)user * 0x9e3779b97f4a7c15ull) >> 20) & (n - 1);
}

static struct seats *find(int64_t user)
{
    size_t slots = ix->slots;
    for (size_t i = slots ? slot_of(user, slots) : 0, k = 0; k < slots; k++, i = (i + 1) & (slots - 1)) {
        if (ix->table[i].user == user)
            return &ix->table[i];
        if (!ix->table[i].user)
            return NULL;
    }
    return NULL;
}

static bool grow(void)
{
    size_t n = ix->slots ? ix->slots * 2 : 256;
    struct seats *t = calloc(n, sizeof *t);
    if (!t)
        return false;
    for (size_t i = 0; i < ix->slots; i++) {
        if (!ix->table[i].user)
            continue;
        size_t j = slot_of(ix->table[i].user, n);
        while (t[j].user)
            j = (j + 1) & (n - 1);
        t[j] = ix->table[i];
    }
    free(ix->table);
    ix->table = t;
    ix->slots = n;
    return true;
}

static struct seats *find_or_add(int64_t user)
{
    struct seats *s = find(user);
    if (s)
        return s;
    if ((ix->used + 1) * 2 > ix->slots && !grow())
        return NULL;
    size_t i = slot_of(user, ix->slots);
    while (ix->table[i].user)
        i = (i + 1) & (ix->slots - 1);
    ix->table[i].user = user;
    ix->used++;
    return &ix->table[i];
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
    if (g->tournament) {
        ix = &tournaments;
        drop(g->tournament, g);
        ix = &accounts;
    }
}

void ak_seats_paired(struct ak_game *g)
{
    if (!g->tournament)
        return;
    ix = &tournaments;
    add(g->tournament, g);
    ix = &accounts;
}

int ak_seats_of_tournament(int64_t tournament, struct ak_game *const **games)
{
    ix = &tournaments;
    const struct seats *s = tournament ? find(tournament) : NULL;
    ix = &accounts;
    *games = s ? s->games : NULL;
    return s ? s->n : 0;
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

static void index_free(struct index *x)
{
    for (size_t i = 0; i < x->slots; i++)
        free(x->table[i].games);
    free(x->table);
    *x = (struct index){0};
}

void ak_seats_free(void)
{
    index_free(&accounts);
    index_free(&tournaments);
}
