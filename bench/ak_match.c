/* ak_match: one refereed game between two computer players, and the
 * interval of a match's score (ak_match.h). */
#include "ak_match.h"
#include "ak_query.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

#include "ak_crt_table.h"
#include "ak_notation.h"
#include "ak_victory.h"

#define ACTIONS_MAX 200000

double ak_match_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void ak_match_wilson(double p, int n, double *lo, double *hi)
{
    double z = 1.96, d = 1 + z * z / n, c = p + z * z / (2.0 * n);
    double r = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n));
    *lo = (c - r) / d;
    *hi = (c + r) / d;
}

/* The combat results table AK_AI_CRT names (the Updated ruleset needs
 * one), read once. */
static const struct ak_crt_table *table(void)
{
    static struct ak_crt_table t;
    static char text[1 << 16];
    static int loaded;          /* 0 not yet, 1 loaded, -1 none */
    if (loaded)
        return loaded > 0 ? &t : NULL;
    loaded = -1;
    const char *path = getenv("AK_AI_CRT");
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f)
        return NULL;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    char err[200];
    if (!ak_crt_table_parse(&t, text, err, sizeof err))
        loaded = 1;
    return loaded > 0 ? &t : NULL;
}

struct ak_match_player ak_match_player(int level)
{
    struct ak_match_player p = {.level = level, .w = ak_ai_default_weights, .plan = -1};
    return p;
}

static void seat(struct ak_ai *ai, const struct ak_match_player *p, uint64_t seed)
{
    ak_ai_init(ai, p->level, seed);
    ai->w = p->w;
    if (p->plan >= 0)
        ai->plan_evaluations = p->plan;
}

/* AK_AI_TRACE=1: one line a player turn on stderr: the combat units and
 * factors each side has on board, who holds each key square (HOW TO WIN)
 * and the evaluation for the Axis, to see how a game was won or lost. */
static void trace_turn(const struct ak_state *s)
{
    int units[AK_SIDES] = {0}, factors[AK_SIDES] = {0}, supply[AK_SIDES] = {0};
    for (int u = 0; u < s->units; u++)
        if (ak_on_board(s, u) && ak_def(u)->type == AK_TYPE_SUPPLY)
            supply[ak_def(u)->side]++;
        else if (ak_on_board(s, u) && ak_unit_is_combat(ak_def(u))) {
            units[ak_def(u)->side]++;
            factors[ak_def(u)->side] += ak_def(u)->attack + ak_def(u)->defense;
        }
    static const char holder[] = "GA-";
    char keys[AK_KEYS + 1];
    for (int k = 0; k < AK_KEYS; k++)
        keys[k] = holder[ak_control_now(s, k) < AK_SIDES ? ak_control_now(s, k) : 2];
    keys[AK_KEYS] = 0;
    fprintf(stderr, "  turn %2d %-6s Axis %2d units %3d factors %d supply, Allied %2d units %3d factors %d supply; keys %s; "
            "value %+.1f\n", s->turn, ak_side_name(s->side), units[AK_AXIS], factors[AK_AXIS], supply[AK_AXIS],
            units[AK_ALLIED], factors[AK_ALLIED], supply[AK_ALLIED],
            keys, ak_ai_evaluate(&ak_ai_default_weights, s, AK_AXIS));
}

/* AK_AI_TRACE=4: the turn's line, then where every unit on board is. */
static void trace_units(const struct ak_state *s)
{
    for (int side = 0; side < AK_SIDES; side++) {
        fprintf(stderr, "    %s:", ak_side_name(side));
        for (int u = 0; u < s->units; u++)
            if (ak_def(u)->side == side && ak_on_board(s, u)) {
                char h[8];
                fprintf(stderr, " %s@%s", ak_def(u)->shortname, ak_hex_format(s->unit[u].hex, h));
            }
        fprintf(stderr, "\n");
    }
}

/* AK_AI_TRACE=3: every action and its events, as JSON, on stderr. */
static void trace_action(const struct ak_state *after, const struct ak_action *a, const struct ak_events *ev)
{
    json_t *j = ak_action_to_json(a), *e = ak_events_to_json(after, ev);
    char *aj = json_dumps(j, JSON_COMPACT), *ej = json_dumps(e, JSON_COMPACT);
    fprintf(stderr, "  turn %d %s: %s -> %s\n", after->turn, ak_phase_name(after->phase), aj, ej);
    free(aj);
    free(ej);
    json_decref(j);
    json_decref(e);
}

/* Why the game stopped, on stderr, when the AI failed. */
static void report_failure(const struct ak_state *s, uint64_t seed, long n, int side, bool chose,
                           const struct ak_action *a, bool applied, const char *refused, const char *broken)
{
    fprintf(stderr, "seed %llu: the AI's action %ld (%s) failed: %s\n", (unsigned long long)seed, n,
            chose ? ak_action_kind_name(a->kind) : "none", !chose ? "no action" : !applied ? refused : broken);
    struct ak_action end = {.kind = (uint8_t)ak_ending_action(s), .side = (uint8_t)side,
                            .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
    struct ak_reject rej;
    if (!chose && !ak_try(s, &end, &rej))      /* why the part could not end */
        fprintf(stderr, "  (ending refused: %s [%s])\n", rej.text, rej.code);
    /* each unit of a stack over the limit: may it move, and where */
    static uint8_t count[AK_HEX_COUNT];
    static struct ak_action moves[AK_HEX_COUNT];
    memset(count, 0, sizeof count);
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == s->side && ak_on_board(s, u) && ak_unit_is_combat(ak_def(u)))
            count[s->unit[u].hex]++;
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == s->side && ak_on_board(s, u) && ak_unit_is_combat(ak_def(u)) &&
            count[s->unit[u].hex] > ak_ruleset_get(s->ruleset)->stack_limit) {
            char h[8];
            fprintf(stderr, "  %s at %s: flags %#x, %d legal moves\n", ak_def(u)->shortname,
                    ak_hex_format(s->unit[u].hex, h), s->unit[u].flags, ak_legal_moves(s, u, moves, AK_HEX_COUNT));
        }
}

double ak_match_game(int ruleset, const struct ak_match_player *a, const struct ak_match_player *b, int a_side,
                     int stop_turn, uint64_t seed, const struct ak_match_judge *judge, struct ak_match_tally *t)
{
    static struct ak_state s;
    ak_state_init(&s, ruleset, seed);
    if (ak_ruleset_get(ruleset)->needs_crt_table && (!table() || ak_crt_attach(&s, table()) < 0)) {
        fprintf(stderr, "the %s ruleset needs AK_AI_CRT=FILE, a combat results table\n",
                ak_ruleset_get(ruleset)->name);
        exit(2);
    }
    struct ak_ai ai[AK_SIDES];
    seat(&ai[a_side], a, seed * 2 + 1);
    seat(&ai[!a_side], b, seed * 2 + 2);
    int last_side = -1;
    const char *trace = getenv("AK_AI_TRACE");
    long n = 0;
    for (; s.phase != AK_PHASE_OVER && s.turn <= stop_turn && n < ACTIONS_MAX; n++) {
        int side = ak_waiting_for(&s);
        struct ak_action act;
        double t0 = ak_match_now();
        bool chose = ak_ai_choose(&ai[side], &s, &act);
        t->seconds += ak_match_now() - t0;
        t->decisions++;
        struct ak_reject rej;
        char why[200];
        static struct ak_events ev;
        ev.n = 0;
        bool applied = chose && ak_apply(&s, &act, &ev, &rej);
        if (applied && trace && atoi(trace) == 3)
            trace_action(&s, &act, &ev);
        if (!applied || !ak_state_check(&s, why, sizeof why)) {
            report_failure(&s, seed, n, side, chose, &act, applied, rej.text, why);
            t->failures++;
            return -1;
        }
        if (s.side != last_side) {
            last_side = s.side;
            t->player_turns++;
            if (trace && (atoi(trace) == 1 || atoi(trace) == 4))
                trace_turn(&s);
            if (trace && atoi(trace) == 4)
                trace_units(&s);
        }
        if (trace && (n > ACTIONS_MAX - 40 || atoi(trace) > 1))
            fprintf(stderr, "  turn %d %s %s: %s\n", s.turn, ak_side_name(side), ak_phase_name(s.phase),
                    ak_action_kind_name(act.kind));
    }
    if (n >= ACTIONS_MAX) {     /* the AI went round in circles: a defect, never a score */
        fprintf(stderr, "seed %llu: %d actions without reaching turn %d: the AI loops\n", (unsigned long long)seed,
                ACTIONS_MAX, stop_turn + 1);
        t->failures++;
        return -1;
    }
    if (s.phase == AK_PHASE_OVER) {
        t->played_out++;
        if (trace)
            fprintf(stderr, "  seed %llu: %s by %s, turn %d\n", (unsigned long long)seed, ak_result_name(s.result),
                    ak_win_reason_name(s.result_reason), s.turn);
        return s.result == AK_RESULT_DRAW ? 0.5 : (s.result == AK_RESULT_AXIS_WINS) == (a_side == AK_AXIS);
    }
    t->adjudicated++;
    double v = ak_ai_evaluate(judge->w, &s, a_side);
    if (judge->scale > 0)
        return 1 / (1 + exp(-v / judge->scale));
    return v > AK_MATCH_ADJUDICATE ? 1 : v < -AK_MATCH_ADJUDICATE ? 0 : 0.5;
}
