/* engine_bench: speed of the rules library on the opening position.
 * Prints microseconds per validated move (a 10-square move of 21pz5 along
 * the Coast Road and an 8-square move off it) and per legal-destination
 * listing for every Axis and Allied unit on the board. Run by scripts/bench. */
#include <stdio.h>
#include <time.h>

#include "ak_engine.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double validate(const struct ak_state *s, const char *unit, const char *to, int rounds)
{
    struct ak_action a = {.kind = AK_ACT_MOVE, .side = AK_AXIS, .nunits = 1, .hex = ak_hex_parse(to)};
    a.units[0] = (uint8_t)ak_unit_find(ak_data(), unit);
    double t0 = now();
    int ok = 0;
    for (int i = 0; i < rounds; i++) {
        struct ak_state w = *s;
        struct ak_reject rej;
        ok += ak_apply(&w, &a, NULL, &rej);
    }
    double us = (now() - t0) * 1e6 / rounds;
    if (ok != rounds)
        fprintf(stderr, "(%s to %s is rejected)\n", unit, to);
    return us;
}

int main(void)
{
    struct ak_state s;
    ak_state_init(&s, 0, 1);
    const int rounds = 20000;
    printf("validate+apply 21pz5 W6->W14 (8 squares, 5 by road): %.2f us\n",
           validate(&s, "21pz5", "W14", rounds));
    printf("reject with explanation 21pz3 W6->W18 (beyond reach): %.2f us\n",
           validate(&s, "21pz3", "W18", rounds));
    static struct ak_dest d[AK_HEX_COUNT];
    int units = 0, dests = 0;
    double t0 = now();
    for (int r = 0; r < 200; r++)
        for (int u = 0; u < s.units; u++) {
            if (!ak_on_board(&s, u))
                continue;
            struct ak_reject rej;
            uint8_t g = (uint8_t)u;
            int n = ak_move_destinations(&s, ak_def(u)->side, &g, 1, d, AK_HEX_COUNT, &rej);
            if (r == 0) {
                units++;
                dests += n > 0 ? n : 0;
            }
        }
    double per = (now() - t0) * 1e6 / (200.0 * units);
    printf("legal destinations, opening position: %.2f us per unit (%d units, %d destinations)\n",
           per, units, dests);
    return 0;
}
