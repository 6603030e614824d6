/* akc_analyse: `akc analyse GAME [--playouts N] [--level N] [--horizon N]`,
 * each side's chance of winning after each player turn of a running or
 * finished game, worked out in akc (no server CPU but the replays).
 *
 * The record says where each player turn began (after each end_turn);
 * akd's `replay` gives the state there (only what every spectator has
 * seen). From each, N playouts: the computer at the level given plays
 * both sides for `horizon` player turns with dice of its own, then the
 * position is scored: a finished game 1, 0 or a half; else the
 * evaluation for the Axis turned into a chance, 1 / (1 + e^(-v/15)) (15
 * factors ahead is about 3 in 4). The mean over the playouts is the
 * estimate, with a 95% interval from their spread. Then the turns where
 * the estimate swung most, and what an adjudication by the evaluation
 * would give now (a side more than 20 factors ahead wins, as ai-bench
 * adjudicates; docs/ai.md). The playouts' dice come from fixed seeds:
 * the same game gives the same analysis.
 *
 * `--adjudicate axis|allied|draw|analysed` (an admin): then ends a running
 * game by the `admin` command's adjudicate, the analysis attached as its
 * reason (recorded in the audit table and the log), with the result given
 * or, for `analysed`, the one the analysis says an adjudication gives.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ak_ai.h"
#include "ak_notation.h"
#include "akc_cmd.h"

#define TURNS_MAX 200           /* player turns analysed at most (a campaign has 76) */
#define PLAYOUT_ACTIONS 20000   /* a bound on one playout, whatever the AI does */
#define SCALE 15.0
#define ADJUDICATE 20.0

struct point {
    int at, turn, side;
    double p, lo, hi, eval;
};

/* The chance the Axis wins from a playout's end. */
static double score(const struct ak_state *s)
{
    if (s->phase == AK_PHASE_OVER)
        return s->result == AK_RESULT_AXIS_WINS ? 1.0 : s->result == AK_RESULT_ALLIED_WINS ? 0.0 : 0.5;
    return 1.0 / (1.0 + exp(-ak_ai_evaluate(&ak_ai_default_weights, s, AK_AXIS) / SCALE));
}

/* One playout from s: horizon player turns by the AI on both sides. */
static double playout(const struct ak_state *from, int level, int horizon, uint64_t seed)
{
    static struct ak_state s;
    s = *from;
    ak_rng_seed(&s.rng, seed);
    struct ak_ai ai[AK_SIDES];
    for (int side = 0; side < AK_SIDES; side++)
        ak_ai_init(&ai[side], level, seed * 2 + (uint64_t)side + 1);
    int turns = 0, turn = s.turn, mover = s.side;
    for (int n = 0; n < PLAYOUT_ACTIONS && ak_waiting_for(&s) != AK_NOBODY; n++) {
        if (s.turn != turn || s.side != mover) {
            turn = s.turn, mover = s.side;
            if (++turns >= horizon)
                break;
        }
        struct ak_action a;
        if (!ak_ai_choose(&ai[ak_waiting_for(&s)], &s, &a) || !ak_apply(&s, &a, NULL, NULL))
            break;
    }
    return score(&s);
}

static void estimate(struct point *pt, const struct ak_state *s, int playouts, int level, int horizon)
{
    double sum = 0, sq = 0;
    for (int k = 0; k < playouts; k++) {
        double v = playout(s, level, horizon, (uint64_t)pt->at * 7919u + (uint64_t)k + 1);
        sum += v;
        sq += v * v;
    }
    pt->p = sum / playouts;
    double var = playouts > 1 ? (sq - sum * sum / playouts) / (playouts - 1) : 0.25;
    double half = 1.96 * sqrt(var > 0 ? var : 0) / sqrt((double)playouts);
    pt->lo = pt->p - half < 0 ? 0 : pt->p - half;
    pt->hi = pt->p + half > 1 ? 1 : pt->p + half;
    pt->eval = ak_ai_evaluate(&ak_ai_default_weights, s, AK_AXIS);
}

/* The state after the first `at` actions, from akd's replay (waiting
 * when its replay budget says so). */
static bool replayed(struct ak_net *n, long game, int at, const json_t *crt_source, struct ak_state *s)
{
    for (int tries = 0; tries < 30; tries++) {
        json_t *r = ak_net_call(n, json_pack("{s:s,s:I,s:i}", "cmd", "replay", "game", (json_int_t)game, "at", at),
                                NULL);
        if (!r)
            return false;
        const char *code = json_string_value(json_object_get(json_object_get(r, "error"), "code"));
        if (code && strcmp(code, "rate_limited") == 0) {
            json_decref(r);
            sleep(1);
            continue;
        }
        char err[200] = "";
        bool ok = json_is_true(json_object_get(r, "ok")) &&
                  ak_state_from_json(json_object_get(json_object_get(r, "result"), "state"), s, err, sizeof err);
        if (!ok)
            fprintf(stderr, "akc analyse: the state after action %d: %s\n", at,
                    err[0] ? err : json_string_value(json_object_get(json_object_get(r, "error"), "message")));
        json_decref(r);
        if (ok)
            ak_summary_attach_crt(crt_source, s);
        return ok;
    }
    fprintf(stderr, "akc analyse: the server kept refusing the replays (its replay budget); try later\n");
    return false;
}

/* Where each player turn began: 0, and after each end_turn. */
static int turn_starts(const json_t *record, int *at)
{
    int n = 0;
    size_t i;
    json_t *x;
    at[n++] = 0;
    json_array_foreach(json_object_get(record, "actions"), i, x) {
        const char *kind = json_string_value(json_object_get(json_object_get(x, "action"), "action"));
        if (kind && strcmp(kind, "end_turn") == 0 && n < TURNS_MAX)
            at[n++] = (int)i + 1;
    }
    return n;
}

static void print_swings(const struct point *pt, int n)
{
    int best[3] = {-1, -1, -1};
    for (int i = 1; i < n; i++)
        for (int k = 0; k < 3; k++)
            if (best[k] < 0 || fabs(pt[i].p - pt[i - 1].p) > fabs(pt[best[k]].p - pt[best[k] - 1].p)) {
                for (int m = 2; m > k; m--)
                    best[m] = best[m - 1];
                best[k] = i;
                break;
            }
    printf("Largest swings:");
    for (int k = 0; k < 3 && best[k] > 0; k++)
        printf("%s the %s player turn of turn %d (%+.2f)", k ? ";" : "", ak_side_name(pt[best[k] - 1].side),
               pt[best[k] - 1].turn, pt[best[k]].p - pt[best[k] - 1].p);
    printf("%s\n", best[0] > 0 ? "" : " none (one player turn only)");
}

/* The result an adjudication by the evaluation gives now: "axis",
 * "allied" or "draw". */
static const char *verdict(double v)
{
    return v > ADJUDICATE ? "axis" : v < -ADJUDICATE ? "allied" : "draw";
}

/* --adjudicate: the analysis as the reason (at most 200 characters, as
 * akd takes), the result given or the analysis's own. */
static int adjudicate(struct ak_net *n, long game, const char *result, const struct point *last, int playouts,
                      int level, int horizon, const struct ak_state *now)
{
    double v = ak_ai_evaluate(&ak_ai_default_weights, now, AK_AXIS);
    char reason[201];
    int status;
    if (strcmp(result, "analysed") == 0)
        result = verdict(v);
    snprintf(reason, sizeof reason, "akc analyse: Axis wins %.2f (95%% %.2f-%.2f) at turn %d, %d playouts, level %d, "
             "%d player turns; evaluation %+.1f for the Axis", last->p, last->lo, last->hi, last->turn, playouts, level,
             horizon, v);
    json_t *r = akc_call(n, json_pack("{s:s,s:s,s:I,s:s,s:s}", "cmd", "admin", "op", "adjudicate", "game",
                                      (json_int_t)game, "result", result, "reason", reason), &status);
    if (!r)
        return status;
    json_decref(r);
    printf("Game %ld adjudicated: %s (reason: %s)\n", game,
           strcmp(result, "draw") == 0 ? "a draw" : strcmp(result, "axis") == 0 ? "the Axis player wins"
                                                                                : "the Allied player wins", reason);
    return 0;
}

static void print_table(const struct point *pt, int n, const struct ak_state *now)
{
    printf("%-6s %-6s %-8s %-10s %-17s %s\n", "turn", "to", "action", "Axis wins", "95% interval", "evaluation (Axis)");
    for (int i = 0; i < n; i++)
        printf("%-6d %-6s %-8d %-10.2f %.2f to %-9.2f %+.1f\n", pt[i].turn, pt[i].side == AK_AXIS ? "Axis" : "Allied",
               pt[i].at, pt[i].p, pt[i].lo, pt[i].hi, pt[i].eval);
    double v = ak_ai_evaluate(&ak_ai_default_weights, now, AK_AXIS);
    if (now->phase == AK_PHASE_OVER) {
        printf("The game is over: %s\n", now->result == AK_RESULT_AXIS_WINS ? "the Axis player won"
                                         : now->result == AK_RESULT_ALLIED_WINS ? "the Allied player won" : "a draw");
        return;
    }
    const char *r = verdict(v);
    printf("An adjudication now (evaluation %+.1f for the Axis): %s\n", v,
           strcmp(r, "axis") == 0 ? "the Axis player wins" : strcmp(r, "allied") == 0 ? "the Allied player wins"
                                                                             : "a draw (neither side 20 factors ahead)");
}

int akc_analyse(struct ak_net *n, long game, int playouts, int level, int horizon, const char *adjudicate_as)
{
    int status;
    json_t *g = akc_call(n, json_pack("{s:s,s:I}", "cmd", "show", "game", (json_int_t)game), &status);
    json_t *record = g ? akc_call(n, json_pack("{s:s,s:I}", "cmd", "record", "game", (json_int_t)game), &status) : NULL;
    static int at[TURNS_MAX];
    static struct point pt[TURNS_MAX];
    int starts = record ? turn_starts(record, at) : 0, done = 0;
    json_decref(record);
    if (g)
        printf("Game %ld: each side's chance after each player turn, %d playouts each (the computer at level %d on "
               "both sides for %d player turns, then its evaluation)\n", game, playouts, level, horizon);
    static struct ak_state now;
    char err[200];
    if (g && !ak_state_from_json(json_object_get(g, "state"), &now, err, sizeof err)) {
        fprintf(stderr, "akc: the server sent a state this client cannot read: %s\n", err);
        starts = 0;
    }
    if (g)
        ak_summary_attach_crt(g, &now);
    for (int i = 0; i < starts; i++, done++) {
        struct ak_state s;
        if (!replayed(n, game, at[i], g, &s))
            break;
        pt[i] = (struct point){.at = at[i], .turn = s.turn, .side = s.side};
        estimate(&pt[i], &s, playouts, level, horizon);
    }
    json_decref(g);
    if (!g || !starts)
        return status ? status : EXIT_REFUSED;
    if (done == 0)
        return EXIT_NET;
    if (done < starts)      /* what was worked out is shown all the same */
        printf("(only the first %d of %d player turns: the rest could not be replayed)\n", done, starts);
    print_table(pt, done, &now);
    print_swings(pt, done);
    if (done < starts)
        return EXIT_NET;
    if (adjudicate_as && now.phase == AK_PHASE_OVER) {
        fprintf(stderr, "akc analyse: game %ld is over: there is nothing to adjudicate\n", game);
        return EXIT_REFUSED;
    }
    return adjudicate_as ? adjudicate(n, game, adjudicate_as, &pt[done - 1], playouts, level, horizon, &now) : 0;
}
