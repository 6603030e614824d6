/* ak_throttle: the counts behind akd's login and registration limits,
 * made so that nobody can flush them nor turn them against a player
 * (issue 27).
 *
 * What is counted, each within its window: failed guesses per (name,
 * address) and per address, guesses per name from anywhere, accounts
 * made per address. An address is the client's, with an IPv6 /64 counted
 * as one (a home or a server gets a whole /64: one attacker, one count).
 *
 * The table is sized by what it protects (THROTTLE_SLOTS counts, a few
 * megabytes), and nothing still within its window is ever evicted to
 * make room: an entry is reused only once its window has passed. A full
 * table refuses the newcomer (ak_throttle_charge answers false), so that
 * filling it (made-up names, many addresses) cannot erase the counts that
 * lock a guesser out. Entries live in an open-addressed hash table keyed
 * by BLAKE2b of the text key (the key is not kept: names and addresses
 * are no business of a memory dump), probed at most THROTTLE_PROBE slots.
 *
 * The callers (ak_accounts.c) charge before the costly work (the hash, the
 * account row) and take a good password's guess back afterwards.
 */
#include <arpa/inet.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "ak_server.h"

#define THROTTLE_SLOTS (1 << 16)
#define THROTTLE_PROBE 64

struct throttle_entry {
    uint64_t key;               /* 0: free (or of another generation) */
    uint32_t generation;        /* ak_throttle_reset empties by a new one */
    int64_t since;              /* the window's start */
    int window;                 /* seconds */
    int count;
    int64_t next_ms;            /* ak_throttle_slot: the next free turn */
};

static struct throttle_entry table[THROTTLE_SLOTS];
static uint32_t generation = 1;

static uint64_t hash_key(const char *text)
{
    static unsigned char secret[crypto_shorthash_KEYBYTES];
    static bool keyed;
    if (!keyed) {
        randombytes_buf(secret, sizeof secret);     /* so that nobody can aim collisions */
        keyed = true;
    }
    unsigned char out[crypto_shorthash_BYTES];
    crypto_shorthash(out, (const unsigned char *)text, strlen(text), secret);
    uint64_t h;
    memcpy(&h, out, sizeof h);
    return h ? h : 1;
}

static bool expired(const struct throttle_entry *e, int64_t now)
{
    return e->key && now - e->since >= e->window;
}

static bool free_slot(const struct throttle_entry *e)
{
    return !e->key || e->generation != generation;
}

/* The entry of key, or (create) a free or expired slot for it; NULL when
 * it has none and none is free along its probe. */
static struct throttle_entry *lookup(const char *text, int window, bool create, int64_t now)
{
    uint64_t key = hash_key(text);
    struct throttle_entry *spare = NULL;
    for (int i = 0; i < THROTTLE_PROBE; i++) {
        struct throttle_entry *e = &table[(key + (uint64_t)i) & (THROTTLE_SLOTS - 1)];
        if (e->key == key && e->generation == generation) {
            if (expired(e, now)) {
                e->since = now;
                e->count = 0;
                e->next_ms = 0;
            }
            return e;
        }
        if (!spare && (free_slot(e) || expired(e, now)))
            spare = e;
    }
    if (!create || !spare)
        return NULL;
    *spare = (struct throttle_entry){key, generation, now, window, 0, 0};
    return spare;
}

int ak_throttle_count(const char *key, int64_t now)
{
    struct throttle_entry *e = lookup(key, 1, false, now);
    return e ? e->count : 0;
}

bool ak_throttle_charge(const char *key, int window, int64_t now)
{
    struct throttle_entry *e = lookup(key, window, true, now);
    if (!e)
        return false;
    e->count++;
    return true;
}

void ak_throttle_refund(const char *key, int64_t now)
{
    struct throttle_entry *e = lookup(key, 1, false, now);
    if (e && e->count > 0)
        e->count--;
}

void ak_throttle_forget(const char *key, int64_t now)
{
    struct throttle_entry *e = lookup(key, 1, false, now);
    if (e)
        e->count = 0;
}

int64_t ak_throttle_ends(const char *key, int64_t now)
{
    struct throttle_entry *e = lookup(key, 1, false, now);
    return e ? e->since + e->window : now;
}

int64_t ak_throttle_slot(const char *key, int window, int64_t now, int64_t now_ms, int step_ms, int64_t max_wait_ms)
{
    struct throttle_entry *e = lookup(key, window, true, now);
    if (!e)
        return -1;
    /* a turn left over from a window that has passed counts for nothing */
    int64_t at = e->next_ms > now_ms && e->next_ms - now_ms <= (int64_t)window * 1000 ? e->next_ms : now_ms;
    if (at - now_ms > max_wait_ms)
        return -1;      /* refused: the turn is not taken, so refusals push nothing back */
    e->next_ms = at + step_ms;
    return at - now_ms;
}

void ak_throttle_address(const char *peer, char *out, size_t cap)
{
    struct in6_addr a6;
    if (strncmp(peer, "::ffff:", 7) == 0 && strchr(peer + 7, '.'))
        peer += 7;      /* an IPv4 client on an IPv6 socket */
    if (inet_pton(AF_INET6, peer, &a6) == 1) {
        memset(a6.s6_addr + 8, 0, 8);       /* its /64 */
        char text[INET6_ADDRSTRLEN];
        inet_ntop(AF_INET6, &a6, text, sizeof text);
        snprintf(out, cap, "%s/64", text);
        return;
    }
    snprintf(out, cap, "%s", peer);
}

void ak_throttle_reset(void)
{
    generation++;       /* every entry of the old one is free */
}
