/* ak_budget: what one address and one account may make akd spend, across
 * all their connections (issue 28). Each connection has its own request
 * rate (ak_conn_charge); on top of it:
 *
 *   rate_per_address   requests per second from one address (an IPv6 /64
 *                      counted as one), every connection of every listener
 *                      together: charged when a line is read, before it
 *                      is parsed (ak_conn.c);
 *   rate_per_user      requests per second of one account, all its
 *                      connections together, charged by the command's cost
 *                      once the command is known (ak_dispatch.c);
 *   output_per_address KiB per second of replies to one address (the
 *                      map, a game, a page of chat): charged once the
 *                      reply is made, which is when its size is known; an
 *                      address past it is not read for a while;
 *   notify_per_hour    notifications one account makes akd send to others
 *                      (a challenge: ak_notify_from), a burst of an hour's;
 *   writes_per_minute  the small writes of one account (settings,
 *                      vacation, give_time, chat, games made and called
 *                      off, tournament and admin changes): each is a row
 *                      to store and often a notification to someone else,
 *                      so an account gets a minute's worth at once and the
 *                      rest at that pace;
 *   replays_per_second actions the rules engine replays for `record` and
 *                      `replay` (a record replays its whole game to give
 *                      each action's dice), everyone's together: one
 *                      bucket (AK_BUDGET_REPLAY_KEY), since spectators
 *                      need no account and come from anywhere. A flood of
 *                      records can keep other spectators waiting a few
 *                      seconds; it cannot take the loop from the players.
 *
 * Each is a token bucket (a burst of two seconds' worth of requests, one
 * minute's of writes), kept in a fixed open-addressed table: a slot
 * belongs to its key while its bucket is not full again, then anyone may
 * take it (a full bucket is what a newcomer starts with). When every slot
 * along a key's probe is busy (tens of thousands of addresses flooding at
 * once), the newcomer is let through on its connection's own rate: the
 * trade-off chosen is that a legitimate player is never refused for lack
 * of room, and such floods are still held by the per-connection rate and
 * the connection limits. Such passes are counted (ak_budget_unbudgeted).
 *
 * Keys are siphash values of the address text or of the account number
 * (a keyed hash: nobody can aim collisions). */
#include <sodium.h>
#include <string.h>

#include "ak_server.h"

#define BUDGET_SLOTS (1 << 14)
#define BUDGET_PROBE 32

struct bucket {
    uint64_t key;       /* 0: free */
    double tokens;
    uint64_t at_ms;     /* when tokens was last brought up to date */
};

static struct bucket tables[AK_BUDGET_KINDS][BUDGET_SLOTS];
static uint64_t unbudgeted;

static uint64_t keyed_hash(const void *data, size_t len)
{
    static unsigned char secret[crypto_shorthash_KEYBYTES];
    static bool keyed;
    if (!keyed) {
        randombytes_buf(secret, sizeof secret);
        keyed = true;
    }
    unsigned char out[crypto_shorthash_BYTES];
    crypto_shorthash(out, data, len, secret);
    uint64_t h;
    memcpy(&h, out, sizeof h);
    return h ? h : 1;
}

uint64_t ak_budget_address_key(const char *peer)
{
    char addr[96];
    ak_throttle_address(peer, addr, sizeof addr);
    return keyed_hash(addr, strlen(addr));
}

uint64_t ak_budget_user_key(int64_t user)
{
    return keyed_hash(&user, sizeof user);
}

/* The kind's rate (tokens per ms) and burst, from the config; rate 0:
 * no budget of this kind. */
static void limits(const struct ak_config *cfg, enum ak_budget_kind kind, double *per_ms, double *burst)
{
    switch (kind) {
    case AK_BUDGET_ADDRESS:
        *per_ms = cfg->rate_per_address / 1000.0;
        *burst = 2.0 * cfg->rate_per_address;
        break;
    case AK_BUDGET_USER:
        *per_ms = cfg->rate_per_user / 1000.0;
        *burst = 2.0 * cfg->rate_per_user;
        break;
    case AK_BUDGET_NOTIFY:
        *per_ms = cfg->notify_per_hour / 3600000.0;
        *burst = cfg->notify_per_hour;
        break;
    case AK_BUDGET_REPLAY:
        *per_ms = cfg->replays_per_second / 1000.0;
        *burst = cfg->replays_per_second;
        break;
    case AK_BUDGET_OUTPUT:
        *per_ms = cfg->output_per_address / 1000.0;
        *burst = 2.0 * cfg->output_per_address;
        break;
    default:
        *per_ms = cfg->writes_per_minute / 60000.0;
        *burst = cfg->writes_per_minute;
        break;
    }
}

static double refilled(const struct bucket *b, uint64_t now_ms, double per_ms, double burst)
{
    double tokens = b->tokens + (double)(now_ms - b->at_ms) * per_ms;
    return tokens > burst ? burst : tokens;
}

/* key's bucket, or a free one for it; NULL when its probe is all busy. */
static struct bucket *find(struct bucket *table, uint64_t key, uint64_t now_ms, double per_ms, double burst)
{
    struct bucket *spare = NULL;
    for (int i = 0; i < BUDGET_PROBE; i++) {
        struct bucket *b = &table[(key + (uint64_t)i) & (BUDGET_SLOTS - 1)];
        if (b->key == key)
            return b;
        if (!spare && (!b->key || refilled(b, now_ms, per_ms, burst) >= burst))
            spare = b;
    }
    if (spare)
        *spare = (struct bucket){key, burst, now_ms};
    return spare;
}

/* cost from key's bucket: only if it has it (false: nothing taken), or,
 * with debt, whatever it has (false: in debt after it). */
static bool take(const struct ak_config *cfg, enum ak_budget_kind kind, uint64_t key, double cost,
                 uint64_t now_ms, bool debt)
{
    double per_ms, burst;
    limits(cfg, kind, &per_ms, &burst);
    if (per_ms <= 0 || cost <= 0 || !key)
        return true;
    struct bucket *b = find(tables[kind], key, now_ms, per_ms, burst);
    if (!b) {
        unbudgeted++;
        return true;
    }
    b->tokens = refilled(b, now_ms, per_ms, burst);
    b->at_ms = now_ms;
    if (b->tokens < cost && !debt)
        return false;
    b->tokens -= cost;
    if (b->tokens < -burst)
        b->tokens = -burst;     /* a debt is repaid within two bursts' time, whatever was spent */
    return b->tokens >= 0;
}

bool ak_budget_charge(const struct ak_config *cfg, enum ak_budget_kind kind, uint64_t key, double cost,
                      uint64_t now_ms)
{
    return take(cfg, kind, key, cost, now_ms, false);
}

bool ak_budget_spend(const struct ak_config *cfg, enum ak_budget_kind kind, uint64_t key, double cost,
                     uint64_t now_ms)
{
    return take(cfg, kind, key, cost, now_ms, true);     /* the work is done already */
}

bool ak_budget_in_debt(const struct ak_config *cfg, enum ak_budget_kind kind, uint64_t key, uint64_t now_ms)
{
    return ak_budget_wait(cfg, kind, key, 0, now_ms) > 0;
}

double ak_budget_wait(const struct ak_config *cfg, enum ak_budget_kind kind, uint64_t key, double cost,
                      uint64_t now_ms)
{
    double per_ms, burst;
    limits(cfg, kind, &per_ms, &burst);
    if (per_ms <= 0)
        return 0;
    for (int i = 0; i < BUDGET_PROBE; i++) {
        const struct bucket *b = &tables[kind][(key + (uint64_t)i) & (BUDGET_SLOTS - 1)];
        if (b->key == key) {
            double short_by = cost - refilled(b, now_ms, per_ms, burst);
            return short_by > 0 ? short_by / per_ms / 1000.0 : 0;
        }
    }
    return 0;
}

uint64_t ak_budget_unbudgeted(void)
{
    return unbudgeted;
}

void ak_budget_reset(void)
{
    memset(tables, 0, sizeof tables);
    unbudgeted = 0;
}
