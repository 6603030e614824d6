/* ak_rng: the game's dice. A per-game seeded generator (xoshiro256**) whose
 * whole state lives inside the game state, so replaying a command log from
 * the seed reproduces every roll. The seed itself comes from the server
 * (libsodium); the library never reads a clock or a random device. */
#ifndef AK_RNG_H
#define AK_RNG_H

#include <stdint.h>

struct ak_rng {
    uint64_t s[4];
};

void ak_rng_seed(struct ak_rng *r, uint64_t seed);
uint64_t ak_rng_next(struct ak_rng *r);
/* A fair roll of one six-sided die, 1..6. */
int ak_rng_die(struct ak_rng *r);

#endif
