/* ak_rng: xoshiro256** seeded through splitmix64, and an unbiased die. */
#include "ak_rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void ak_rng_seed(struct ak_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t ak_rng_next(struct ak_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

int ak_rng_die(struct ak_rng *r)
{
    /* Reject the top sliver so every face is equally likely. */
    const uint64_t limit = UINT64_MAX - UINT64_MAX % 6;
    uint64_t x;
    do
        x = ak_rng_next(r);
    while (x >= limit);
    return (int)(x % 6) + 1;
}
