/* ak_dice: the dice schemes (ak_dice.h explains them). */
#include "ak_dice.h"

#include <sodium.h>
#include <string.h>

#include "ak_rules.h"

static const char DOMAIN[] = "akd-dice-2";

static uint64_t seed_of(const uint8_t *secret)
{
    uint64_t seed = 0;
    for (int i = 7; i >= 0; i--)
        seed = seed << 8 | secret[i];
    return seed & INT64_MAX;    /* SQLite integers are signed */
}

void ak_dice_new(struct ak_dice *d, char secret[65], char commit[65])
{
    uint8_t h[32];
    d->scheme = AK_DICE_CURRENT;
    randombytes_buf(d->key, sizeof d->key);
    crypto_generichash(h, sizeof h, d->key, sizeof d->key, NULL, 0);
    sodium_bin2hex(secret, 65, d->key, sizeof d->key);
    sodium_bin2hex(commit, 65, h, sizeof h);
    d->seed = seed_of(d->key);
}

bool ak_dice_open(const char *secret, const char *commit, int scheme, struct ak_dice *d)
{
    uint8_t h[32];
    size_t len;
    char hex[65];
    if (!secret || !commit || strlen(secret) != 64 || (scheme != AK_DICE_LEGACY && scheme != AK_DICE_KEYED) ||
        sodium_hex2bin(d->key, sizeof d->key, secret, 64, NULL, &len, NULL) != 0 || len != 32)
        return false;
    crypto_generichash(h, sizeof h, d->key, sizeof d->key, NULL, 0);
    sodium_bin2hex(hex, sizeof hex, h, sizeof h);
    if (strcmp(hex, commit) != 0)
        return false;
    d->scheme = scheme;
    d->seed = seed_of(d->key);
    return true;
}

bool ak_nonce_valid(const char *nonce)
{
    if (!nonce)
        return true;
    size_t n = strlen(nonce);
    return n <= AK_NONCE_MAX && strspn(nonce, "0123456789abcdefABCDEF") == n;
}

void ak_nonce_new(char out[AK_NONCE_MAX + 1])
{
    uint8_t b[AK_NONCE_MAX / 4];    /* 128 bits: never drawn twice */
    randombytes_buf(b, sizeof b);
    sodium_bin2hex(out, AK_NONCE_MAX + 1, b, sizeof b);
}

void ak_nonce_derive(const uint8_t key[32], const char *server, long long game, uint32_t seq,
                     char out[AK_NONCE_MAX + 1])
{
    crypto_generichash_state h;
    uint8_t b[AK_NONCE_MAX / 4], num[12];
    for (int i = 0; i < 8; i++)
        num[i] = (uint8_t)((unsigned long long)game >> (8 * i));
    for (int i = 0; i < 4; i++)
        num[8 + i] = (uint8_t)(seq >> (8 * i));
    crypto_generichash_init(&h, key, 32, sizeof b);
    crypto_generichash_update(&h, (const uint8_t *)"akc-nonce-1", 11);
    crypto_generichash_update(&h, (const uint8_t *)server, strlen(server) + 1);
    crypto_generichash_update(&h, num, sizeof num);
    crypto_generichash_final(&h, b, sizeof b);
    sodium_bin2hex(out, AK_NONCE_MAX + 1, b, sizeof b);
}

/* Scheme 2: the generator's state for action seq. The nonce is hashed as
 * the text sent (so "AB" and "ab" differ: a verifier needs no rule about
 * case). */
static void keyed_rng(const struct ak_dice *d, uint32_t seq, const char *nonce, struct ak_rng *rng)
{
    uint8_t out[32], n[4] = {(uint8_t)seq, (uint8_t)(seq >> 8), (uint8_t)(seq >> 16), (uint8_t)(seq >> 24)};
    crypto_generichash_state h;
    crypto_generichash_init(&h, d->key, sizeof d->key, sizeof out);
    crypto_generichash_update(&h, (const uint8_t *)DOMAIN, sizeof DOMAIN - 1);
    crypto_generichash_update(&h, n, sizeof n);
    if (nonce)
        crypto_generichash_update(&h, (const uint8_t *)nonce, strlen(nonce));
    crypto_generichash_final(&h, out, sizeof out);
    for (int i = 0; i < 4; i++) {
        uint64_t w = 0;
        for (int b = 7; b >= 0; b--)
            w = w << 8 | out[8 * i + b];
        rng->s[i] = w;
    }
    /* xoshiro256** never leaves the all-zero state (odds 2^-256). */
    if (!(rng->s[0] | rng->s[1] | rng->s[2] | rng->s[3]))
        rng->s[0] = 1;
}

void ak_dice_start(const struct ak_dice *d, int ruleset, struct ak_state *s)
{
    if (d->scheme == AK_DICE_LEGACY) {
        ak_state_init(s, ruleset, d->seed);
        return;
    }
    struct ak_rng rng;
    keyed_rng(d, 0, NULL, &rng);
    ak_state_init_rng(s, ruleset, &rng);
}

void ak_dice_before_action(const struct ak_dice *d, uint32_t seq, const char *nonce, struct ak_state *s)
{
    if (d->scheme == AK_DICE_KEYED)
        keyed_rng(d, seq, nonce, &s->rng);
}

void ak_dice_position(const struct ak_dice *d, struct ak_state *s)
{
    if (d->scheme == AK_DICE_LEGACY)
        ak_rng_seed(&s->rng, d->seed);
    else
        keyed_rng(d, 0, NULL, &s->rng);
}
