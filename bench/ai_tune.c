/* ai-tune: the evaluation's weights tuned by self-play (issue 31).
 *
 * SPSA (simultaneous perturbation stochastic approximation, Spall 1992),
 * the method chess engines tune their evaluations with: each iteration
 * perturbs every tuned weight at once, up for some and down for others
 * at random, plays a short match of the two perturbed players against
 * each other (each seed twice, sides swapped), and moves the weights
 * toward the side that scored better, by steps that shrink as it goes.
 * Two players per iteration, whatever the number of weights, is why:
 * one match of a few games is all a 2-core machine can afford for each
 * step. The weights move in log space (a weight is scaled, never turned
 * negative), within a factor of e^2 of where they began. `material`
 * stays at 1, the unit the others are counted in (the battle threshold
 * of each level and the adjudication are in factors); `threat` stays off
 * (its cost: docs/ai.md).
 *
 * Games stop after STOP-TURN and are adjudicated by the evaluation at the
 * starting weights (bench/ak_match.h), a fixed judge: a tuned player is
 * never judged by its own weights. In the iterations the judge gives a
 * soft score (a lead of JUDGE_SCALE factors scores 0.73), so that two
 * close positions still say which way to move; the verification match
 * scores as ai-bench does (a win needs a lead of 20 factors). At the end a verification match plays
 * the tuned weights against the starting ones on seeds no iteration used,
 * and prints the score with its 95% interval and the weights as a C
 * initializer for ai/ak_ai_eval.c. Deterministic for its arguments.
 *
 * usage: ai-tune ITERATIONS GAMES LEVEL [STOP-TURN [VERIFY-GAMES [SEED]]]
 *   GAMES per iteration (even: each seed played from both sides)
 *   scripts/ai-tune runs the documented tuning (long) and a tiny one (CI).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_match.h"

#define SPREAD 2.0          /* a weight stays within e^2 of its start */
#define STEP_A 1.0          /* SPSA gain a_k = A / (k + 1 + STABILITY)^0.602 */
#define STABILITY 10.0
#define JUDGE_SCALE 10.0
#define STEP_C 0.3          /* perturbation c_k = C / (k + 1)^0.101, in log space */

/* The weights tuned: every one but the unit (material) and those off. */
static bool tuned(const struct ak_ai_weights *start, int j)
{
    return strcmp(ak_ai_weight_name(j), "material") != 0 && ak_ai_weight_value(start, j) > 0;
}

/* A match of GAMES games between a and b (each seed from both sides):
 * a's score. */
static double match(int ruleset, const struct ak_match_player *a, const struct ak_match_player *b, int games,
                    int stop, uint64_t first_seed, const struct ak_match_judge *judge, struct ak_match_tally *t)
{
    double score = 0;
    int played = 0;
    for (int g = 0; g < games; g++) {
        double r = ak_match_game(ruleset, a, b, g % 2 ? AK_ALLIED : AK_AXIS, stop, first_seed + (uint64_t)(g / 2),
                                 judge, t);
        if (r >= 0) {
            score += r;
            played++;
        }
    }
    return played ? score / played : 0.5;
}

static void print_weights(const char *label, const struct ak_ai_weights *w)
{
    printf("%s", label);
    for (int j = 0; j < AK_AI_WEIGHTS; j++)
        printf(" %s=%.4g", ak_ai_weight_name(j), ak_ai_weight_value(w, j));
    printf("\n");
}

/* One SPSA step from theta (log weights): the two perturbed players, their
 * match, the move. */
static void spsa_step(int ruleset, int level, int games, int stop, int k, uint64_t seed, struct ak_rng *rng,
                      const struct ak_ai_weights *start, double *theta, struct ak_match_tally *t)
{
    double ck = STEP_C / pow(k + 1, 0.101), ak = STEP_A / pow(k + 1 + STABILITY, 0.602);
    double delta[AK_AI_WEIGHTS] = {0};
    struct ak_match_player plus = ak_match_player(level), minus = ak_match_player(level);
    for (int j = 0; j < AK_AI_WEIGHTS; j++) {
        if (!tuned(start, j))
            continue;
        delta[j] = (ak_rng_next(rng) & 1) ? 1 : -1;
        *ak_ai_weight(&plus.w, j) = exp(theta[j] + ck * delta[j]);
        *ak_ai_weight(&minus.w, j) = exp(theta[j] - ck * delta[j]);
    }
    const struct ak_match_judge soft = {&ak_ai_default_weights, JUDGE_SCALE};
    double s = match(ruleset, &plus, &minus, games, stop, seed, &soft, t);
    for (int j = 0; j < AK_AI_WEIGHTS; j++) {
        if (!tuned(start, j))
            continue;
        double base = log(ak_ai_weight_value(start, j));
        theta[j] += ak * (2 * s - 1) / (2 * ck * delta[j]);
        theta[j] = fmin(base + SPREAD, fmax(base - SPREAD, theta[j]));
    }
    printf("iteration %d: the perturbed players scored %.3f to %.3f\n", k + 1, s, 1 - s);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: ai-tune ITERATIONS GAMES LEVEL [STOP-TURN [VERIFY-GAMES [SEED]]]\n");
        return 2;
    }
    int iterations = atoi(argv[1]), games = atoi(argv[2]), level = atoi(argv[3]);
    int stop = argc > 4 ? atoi(argv[4]) : 8, verify = argc > 5 ? atoi(argv[5]) : 40;
    uint64_t seed = argc > 6 ? strtoull(argv[6], NULL, 10) : 1;
    int ruleset = ak_ruleset_find("classic");
    if (iterations < 0 || games < 2 || games % 2 || level < 1 || level >= AK_AI_LEVELS || verify < 0 ||
        verify % 2) {
        fprintf(stderr, "ai-tune: ITERATIONS >= 0, GAMES and VERIFY-GAMES even (GAMES >= 2), LEVEL 1 to %d\n",
                AK_AI_LEVELS - 1);
        return 2;
    }
    const struct ak_ai_weights *start = &ak_ai_default_weights;
    double theta[AK_AI_WEIGHTS];
    for (int j = 0; j < AK_AI_WEIGHTS; j++)
        theta[j] = tuned(start, j) ? log(ak_ai_weight_value(start, j)) : 0;
    struct ak_rng rng;
    ak_rng_seed(&rng, seed);
    struct ak_match_tally t = {0};
    double t0 = ak_match_now();
    print_weights("start:", start);
    for (int k = 0; k < iterations; k++)
        spsa_step(ruleset, level, games, stop, k, seed * 1000003 + (uint64_t)k * (uint64_t)games, &rng, start, theta,
                  &t);
    struct ak_match_player tuned_player = ak_match_player(level), start_player = ak_match_player(level);
    for (int j = 0; j < AK_AI_WEIGHTS; j++)
        if (tuned(start, j))
            *ak_ai_weight(&tuned_player.w, j) = exp(theta[j]);
    print_weights("tuned:", &tuned_player.w);
    /* seeds no iteration used: below the iterations' (seed * 1000003 on) */
    const struct ak_match_judge hard = {&ak_ai_default_weights, 0};
    double s = verify ? match(ruleset, &tuned_player, &start_player, verify, stop, seed * 1000003 - (uint64_t)verify,
                              &hard, &t)
                      : 0.5;
    double lo = 0, hi = 1;
    if (verify)
        ak_match_wilson(s, verify, &lo, &hi);
    printf("verification: the tuned weights scored %.3f against the starting ones over %d games (95%% interval %.3f to %.3f)\n",
           s, verify, lo, hi);
    printf("%d iterations of %d games at level %d, stopped after turn %d: %.0f s, %d games adjudicated, %d played out, %d failed\n",
           iterations, games, level, stop, ak_match_now() - t0, t.adjudicated, t.played_out, t.failures);
    printf("const struct ak_ai_weights ak_ai_default_weights = {\n");
    for (int j = 0; j < AK_AI_WEIGHTS; j++)
        printf("    .%s = %.4g,\n", ak_ai_weight_name(j), *ak_ai_weight(&tuned_player.w, j));
    printf("};\n");
    return t.failures ? 1 : 0;
}
