/* ai-bench: the computer player's strength, measured (issue 31).
 *
 * Plays GAMES games between two levels of ak_ai (ai/ak_ai.h), the first
 * level taking the Axis in even games and the Allies in odd ones, from
 * the 1941 campaign's start, each action applied by the rules engine
 * exactly as akd would (and refused actions counted as failures: the AI
 * must never propose one). A game stops at its end or after turn
 * STOP_TURN; a stopped game is adjudicated by the evaluation at default
 * weights (bench/ak_match.h), and reported apart from games played out.
 *
 * Prints the first level's score (wins and half the draws) with a 95%
 * Wilson interval, by side, how games ended, time per decision and per
 * player turn, and peak memory. Nothing is asserted of the figures; it
 * fails only when an action the AI proposed was refused or a state broke
 * the engine's own checks. scripts/ai-bench runs the matches whose
 * figures docs/ai.md keeps; CI runs a tiny one.
 *
 * usage: ai-bench GAMES LEVEL-A LEVEL-B [RULESET [STOP-TURN [FIRST-SEED]]]
 *   AK_AI_PLAN=N sets the first level's plan budget (the whole-movement
 *   plan: 60 at the standard level, 240 at the strong; 0: none; a
 *   budget makes any level plan)
 *   AK_AI_WEIGHTS=name=value,... (and AK_AI_WEIGHTS_B for the second
 *   level) changes weights of ai/ak_ai_eval.c's defaults, by name
 *   AK_AI_TRACE=1 a line a player turn (units, full factors and supply
 *   units each side has on board, who holds each key square, the
 *   evaluation), 2 every action's kind, 3 that and every action with its
 *   events as JSON, 4 the turn's line and where every unit stands (with
 *   the kinds); all on stderr
 *   RULESET classic (default) or updated (needs AK_AI_CRT=FILE, a table
 *   in docs/crt-format.md's format)
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "ak_match.h"

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: ai-bench GAMES LEVEL-A LEVEL-B [RULESET [STOP-TURN [FIRST-SEED]]]\n");
        return 2;
    }
    int games = atoi(argv[1]), la = atoi(argv[2]), lb = atoi(argv[3]);
    int ruleset = ak_ruleset_find(argc > 4 ? argv[4] : "classic");
    int stop = argc > 5 ? atoi(argv[5]) : 99;
    uint64_t first = argc > 6 ? strtoull(argv[6], NULL, 10) : 1;
    if (games < 1 || ruleset < 0 || la < 0 || lb < 0 || la >= AK_AI_LEVELS || lb >= AK_AI_LEVELS) {
        fprintf(stderr, "ai-bench: GAMES >= 1, levels 0 to %d, ruleset classic or updated\n", AK_AI_LEVELS - 1);
        return 2;
    }
    struct ak_match_tally t = {0};
    double start = ak_match_now();
    const struct ak_match_judge judge = {&ak_ai_default_weights, 0};
    struct ak_match_player a = ak_match_player(la), b = ak_match_player(lb);
    /* AK_AI_PLAN=N: the first level's plan budget (0: the greedy search
     * alone), to measure what the plan adds */
    if (getenv("AK_AI_PLAN"))
        a.plan = atoi(getenv("AK_AI_PLAN"));
    /* AK_AI_WEIGHTS=name=value,... and AK_AI_WEIGHTS_B: the first and the
     * second level's weights changed from the defaults, to measure one */
    char err[128];
    if ((getenv("AK_AI_WEIGHTS") && !ak_ai_weights_parse(&a.w, getenv("AK_AI_WEIGHTS"), err, sizeof err)) ||
        (getenv("AK_AI_WEIGHTS_B") && !ak_ai_weights_parse(&b.w, getenv("AK_AI_WEIGHTS_B"), err, sizeof err))) {
        fprintf(stderr, "ai-bench: %s\n", err);
        return 2;
    }
    for (int g = 0; g < games; g++) {
        int side = g % 2 ? AK_ALLIED : AK_AXIS;
        double r = ak_match_game(ruleset, &a, &b, side, stop, first + (uint64_t)g, &judge, &t);
        if (r < 0)
            continue;
        t.score[side] += r;
        t.games[side]++;
    }
    int n = t.games[0] + t.games[1];
    double score = n ? (t.score[0] + t.score[1]) / n : 0, lo = 0, hi = 0;
    if (n)
        ak_match_wilson(score, n, &lo, &hi);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("level %d against level %d, %s, %d games (stopped after turn %d: %d adjudicated, %d played out)\n", la,
           lb, ak_ruleset_get(ruleset)->name, n, stop, t.adjudicated, t.played_out);
    printf("  score %.3f, 95%% interval %.3f to %.3f; as Axis %.1f of %d, as Allied %.1f of %d\n", score, lo, hi,
           t.score[AK_AXIS], t.games[AK_AXIS], t.score[AK_ALLIED], t.games[AK_ALLIED]);
    printf("  %.2f ms a decision, %.0f ms a player turn (both players), %.1f s in all; peak memory %ld MiB\n",
           t.decisions ? 1000 * t.seconds / t.decisions : 0,
           t.player_turns ? 1000 * t.seconds / t.player_turns : 0, ak_match_now() - start, ru.ru_maxrss / 1024);
    if (t.failures)
        printf("  FAILED: %d games ended by an action the AI proposed and the engine refused\n", t.failures);
    return t.failures ? 1 : 0;
}
