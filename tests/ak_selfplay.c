/* ak-selfplay: random players play whole campaigns through the engine.
 *
 * The proof that a game can be played to its end by the rules alone: each
 * player picks only among the actions the engine's own queries offer
 * (ak_legal_actions, ak_legal_moves), checks invariants after every action,
 * and replays every game from its seed and action log to the same state
 * hash after every action. Prints one line per game and a summary of how
 * games ended; exits non-zero on any violation or a game that cannot go on.
 *
 * With the fourth argument "forward" it also checks after every action
 * that the waiting player still has a way to finish the part of the turn
 * he is in (no dead ends, ak_way_forward), with players whose supply units
 * go next to the enemy like any unit; scripts/deadends is the long run.
 *
 * usage: ak-selfplay [GAMES [FIRST-SEED [RULESET [forward]]]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ak_notation.h"
#include "ak_player.h"
#include "ak_victory.h"

static bool replays(const struct ak_player_game *g, uint64_t seed)
{
    static struct ak_state r;
    ak_player_init_state(&r, g->ruleset, seed);
    for (int i = 0; i < g->n; i++) {
        struct ak_reject rej;
        if (!ak_apply(&r, &g->log[i], NULL, &rej) || ak_state_hash(&r) != g->hash[i]) {
            fprintf(stderr, "seed %llu: replay differs at action %d\n", (unsigned long long)seed, i);
            return false;
        }
    }
    return true;
}

int main(int argc, char **argv)
{
    int games = argc > 1 ? atoi(argv[1]) : 20;
    uint64_t first = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    static struct ak_player_game g;
    g.check = true;
    g.ruleset = argc > 3 ? ak_ruleset_find(argv[3]) : 0;
    g.toward_enemy = g.ruleset > 0;     /* the classic figures stay those of the docs */
    g.forward = g.reckless = argc > 4 && strcmp(argv[4], "forward") == 0;
    if (g.forward)
        g.toward_enemy = true;
    if (g.ruleset < 0) {
        fprintf(stderr, "ak-selfplay: unknown ruleset '%s'\n", argv[3]);
        return 2;
    }
    int wins[3][AK_WIN_TIME + 1] = {{0}}, bad = 0, turns = 0;
    long actions = 0, battles = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < games; i++) {
        uint64_t seed = first + (uint64_t)i;
        ak_player_start(&g, seed);
        bool ok = ak_player_play(&g, 1000) && replays(&g, seed);
        bad += !ok;
        actions += g.n;
        turns += g.s.turn;
        for (int k = 0; k < g.n; k++)
            battles += g.log[k].kind == AK_ACT_RESOLVE;
        if (ok)
            wins[g.s.result == AK_RESULT_AXIS_WINS ? 0 : 1][g.s.result_reason]++;
        printf("seed %llu: %s after %d actions, turn %d: %s by %s\n", (unsigned long long)seed,
               ok ? "ended" : "FAILED", g.n, g.s.turn, ak_result_name(g.s.result),
               ak_win_reason_name(g.s.result_reason));
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%d games, %d failed; %ld actions, %ld battles fought; average end turn %.1f; %.2f games/s\n", games,
           bad, actions, battles, games ? (double)turns / games : 0.0, secs > 0 ? games / secs : 0.0);
    for (int w = 0; w < 2; w++)
        for (int r = 1; r <= AK_WIN_TIME; r++)
            if (wins[w][r])
                printf("  %s wins by %s: %d\n", w == 0 ? "Axis" : "Allied", ak_win_reason_name(r),
                       wins[w][r]);
    if (g.forward)
        printf("no dead ends: %ld states checked, %ld undecided within the search's budget\n",
               g.forward_checks, g.forward_unknown);
    ak_player_free(&g);
    return bad ? 1 : 0;
}
