/* ai-bench: the computer player's strength, measured (issue 31).
 *
 * Plays GAMES games between two levels of ak_ai (ai/ak_ai.h), the first
 * level taking the Axis in even games and the Allies in odd ones, from
 * the 1941 campaign's start, each action applied by the rules engine
 * exactly as akd would (and refused actions counted as failures: the AI
 * must never propose one). A game stops at its end or after turn
 * STOP_TURN; a stopped game is adjudicated by the evaluation at default
 * weights (a side ahead by more than ADJUDICATE factors wins, else a
 * draw), and reported apart from games played out.
 *
 * Prints the first level's score (wins and half the draws) with a 95%
 * Wilson interval, by side, how games ended, time per decision and per
 * player turn, and peak memory. Nothing is asserted of the figures; it
 * fails only when an action the AI proposed was refused or a state broke
 * the engine's own checks. scripts/ai-bench runs the matches whose
 * figures docs/ai.md keeps; CI runs a tiny one.
 *
 * usage: ai-bench GAMES LEVEL-A LEVEL-B [RULESET [STOP-TURN [FIRST-SEED]]]
 *   AK_AI_PLAN=N sets the first level's plan budget (the strong level's
 *   whole-movement plan; 0: none)
 *   RULESET classic (default) or updated (needs AK_AI_CRT=FILE, a table
 *   in docs/crt-format.md's format)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "ak_ai.h"
#include "ak_crt_table.h"
#include "ak_notation.h"
#include "ak_victory.h"

#define ADJUDICATE 20.0
#define ACTIONS_MAX 200000

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The Wilson interval of a score p over n games, 95%. */
static void wilson(double p, int n, double *lo, double *hi)
{
    double z = 1.96, d = 1 + z * z / n, c = p + z * z / (2.0 * n);
    double r = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n));
    *lo = (c - r) / d;
    *hi = (c + r) / d;
}

static const struct ak_crt_table *table(void)
{
    static struct ak_crt_table t;
    static char text[1 << 16];
    const char *path = getenv("AK_AI_CRT");
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f)
        return NULL;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    char err[200];
    return ak_crt_table_parse(&t, text, err, sizeof err) ? NULL : &t;
}

struct tally {
    double score[AK_SIDES];     /* the first level's, by its side */
    int games[AK_SIDES], played_out, adjudicated, failures;
    long decisions, player_turns;
    double seconds;
};

/* One game; the first level's score (1, 0.5, 0), or -1 on a failure. */
static double play(int ruleset, int level_a, int level_b, int a_side, int stop_turn, uint64_t seed, struct tally *t)
{
    static struct ak_state s;
    ak_state_init(&s, ruleset, seed);
    if (ak_ruleset_get(ruleset)->needs_crt_table && (!table() || ak_crt_attach(&s, table()) < 0)) {
        fprintf(stderr, "ai-bench: the %s ruleset needs AK_AI_CRT=FILE, a combat results table\n",
                ak_ruleset_get(ruleset)->name);
        exit(2);
    }
    struct ak_ai ai[AK_SIDES];
    ak_ai_init(&ai[a_side], level_a, seed * 2 + 1);
    ak_ai_init(&ai[!a_side], level_b, seed * 2 + 2);
    /* AK_AI_PLAN=N: the first level's plan budget (0: the greedy search
     * alone), to measure what the plan adds */
    if (getenv("AK_AI_PLAN"))
        ai[a_side].plan_evaluations = atoi(getenv("AK_AI_PLAN"));
    int last_side = -1;
    for (long n = 0; s.phase != AK_PHASE_OVER && s.turn <= stop_turn && n < ACTIONS_MAX; n++) {
        int side = ak_waiting_for(&s);
        struct ak_action a;
        double t0 = now();
        bool chose = ak_ai_choose(&ai[side], &s, &a);
        t->seconds += now() - t0;
        t->decisions++;
        struct ak_reject rej;
        char why[200];
        bool applied = chose && ak_apply(&s, &a, NULL, &rej);
        if (!applied || !ak_state_check(&s, why, sizeof why)) {
            fprintf(stderr, "seed %llu: the AI's action %ld (%s) failed: %s\n", (unsigned long long)seed, n,
                    chose ? ak_action_kind_name(a.kind) : "none", !chose ? "no action" : !applied ? rej.text : why);
            struct ak_action end = {.kind = (uint8_t)ak_ending_action(&s), .side = (uint8_t)side,
                                    .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
            if (!chose && !ak_try(&s, &end, &rej))      /* why the part could not end */
                fprintf(stderr, "  (ending refused: %s [%s])\n", rej.text, rej.code);
            t->failures++;
            return -1;
        }
        if (s.side != last_side) {
            last_side = s.side;
            t->player_turns++;
        }
        if (getenv("AK_AI_TRACE") && (n > ACTIONS_MAX - 40 || atoi(getenv("AK_AI_TRACE")) > 1))
            fprintf(stderr, "  turn %d %s %s: %s\n", s.turn, ak_side_name(side), ak_phase_name(s.phase),
                    ak_action_kind_name(a.kind));
    }
    if (s.phase == AK_PHASE_OVER) {
        t->played_out++;
        if (getenv("AK_AI_TRACE"))
            fprintf(stderr, "  seed %llu: %s by %s, turn %d\n", (unsigned long long)seed, ak_result_name(s.result),
                    ak_win_reason_name(s.result_reason), s.turn);
        return s.result == AK_RESULT_DRAW ? 0.5 : (s.result == AK_RESULT_AXIS_WINS) == (a_side == AK_AXIS);
    }
    t->adjudicated++;
    double v = ak_ai_evaluate(&ak_ai_default_weights, &s, a_side);
    return v > ADJUDICATE ? 1 : v < -ADJUDICATE ? 0 : 0.5;
}

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
    struct tally t = {0};
    double start = now();
    for (int g = 0; g < games; g++) {
        int side = g % 2 ? AK_ALLIED : AK_AXIS;
        double r = play(ruleset, la, lb, side, stop, first + (uint64_t)g, &t);
        if (r < 0)
            continue;
        t.score[side] += r;
        t.games[side]++;
    }
    int n = t.games[0] + t.games[1];
    double score = n ? (t.score[0] + t.score[1]) / n : 0, lo = 0, hi = 0;
    if (n)
        wilson(score, n, &lo, &hi);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("level %d against level %d, %s, %d games (stopped after turn %d: %d adjudicated, %d played out)\n", la,
           lb, ak_ruleset_get(ruleset)->name, n, stop, t.adjudicated, t.played_out);
    printf("  score %.3f, 95%% interval %.3f to %.3f; as Axis %.1f of %d, as Allied %.1f of %d\n", score, lo, hi,
           t.score[AK_AXIS], t.games[AK_AXIS], t.score[AK_ALLIED], t.games[AK_ALLIED]);
    printf("  %.2f ms a decision, %.0f ms a player turn (both players), %.1f s in all; peak memory %ld MiB\n",
           t.decisions ? 1000 * t.seconds / t.decisions : 0,
           t.player_turns ? 1000 * t.seconds / t.player_turns : 0, now() - start, ru.ru_maxrss / 1024);
    if (t.failures)
        printf("  FAILED: %d games ended by an action the AI proposed and the engine refused\n", t.failures);
    return t.failures ? 1 : 0;
}
