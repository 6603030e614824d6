/* engine_bench: speed of the rules library. Prints microseconds per
 * validated move and per rejected move with its explanation, per
 * legal-destination listing for every unit of the opening position, per
 * battle resolution, the time to list every legal action in a busy
 * mid-game position, and random games played to the end per second on one
 * core, and the exact chances of the declared battles (ak_battle_odds) in
 * the positions of those games; then the same figures for the Updated ruleset as far as it is
 * built (movement by points, its phases, battles on the table written for
 * testing), beside the classic ones. Run by scripts/bench. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ak_ai.h"
#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_odds.h"
#include "ak_player.h"
#include "ak_query.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Microseconds per validated move: the best of five batches (a virtual
 * machine's timings are noisy; the best batch is the engine's own cost). */
static double validate(const struct ak_state *s, const char *unit, const char *to, int rounds,
                       bool with_path)
{
    struct ak_action a = {.kind = AK_ACT_MOVE, .side = AK_AXIS, .nunits = 1, .hex = ak_hex_parse(to)};
    a.units[0] = (uint8_t)ak_unit_find(ak_data(), unit);
    struct ak_dest route;
    struct ak_reject r;
    if (with_path && ak_move_route(s, AK_AXIS, a.units, 1, a.hex, &route, &r)) {
        a.npath = route.npath;
        for (int i = 0; i < route.npath; i++)
            a.path[i] = route.path[i];
    }
    double best = 1e9;
    int ok = 0;
    for (int batch = 0; batch < 5; batch++) {
        double t0 = now();
        for (int i = 0; i < rounds / 5; i++) {
            struct ak_state w = *s;
            struct ak_reject rej;
            ok += ak_apply(&w, &a, NULL, &rej);
        }
        double us = (now() - t0) * 1e6 / (rounds / 5);
        best = us < best ? us : best;
    }
    if (ok != rounds / 5 * 5)
        fprintf(stderr, "(%s to %s is rejected)\n", unit, to);
    return best;
}

/* The seed's example battle, declared, then resolved on copies. */
static void bench_battle(void)
{
    struct ak_state s;
    ak_state_init(&s, 0, 1);
    for (int u = 0; u < s.units; u++)
        if (ak_def(u)->type != AK_TYPE_HEADQUARTERS && s.unit[u].where == AK_AT_BOARD &&
            s.unit[u].hex != ak_hex_parse("W6") && s.unit[u].hex != ak_hex_parse("L59"))
            s.unit[u].where = AK_AT_POOL;
    int att = ak_unit_find(ak_data(), "7arm7"), def = ak_unit_find(ak_data(), "trenta");
    int sup = ak_unit_find(ak_data(), "asup1");
    s.unit[att] = (struct ak_unit){.where = AK_AT_BOARD, .hex = ak_hex_parse("P35")};
    s.unit[def] = (struct ak_unit){.where = AK_AT_BOARD, .hex = ak_hex_parse("P36")};
    s.unit[sup] = (struct ak_unit){.where = AK_AT_BOARD, .hex = ak_hex_parse("P33")};
    s.side = AK_ALLIED;
    s.phase = AK_PHASE_COMBAT;
    struct ak_action a = {.kind = AK_ACT_BATTLE, .side = AK_ALLIED, .nunits = 2,
                          .units = {(uint8_t)att, (uint8_t)def}, .supply = (uint8_t)sup};
    struct ak_reject rej;
    if (!ak_apply(&s, &a, NULL, &rej)) {
        fprintf(stderr, "battle: %s\n", rej.text);
        return;
    }
    struct ak_action r = {.kind = AK_ACT_RESOLVE, .side = AK_ALLIED, .battle = 0};
    const int rounds = 100000;
    int ok = 0;
    double t0 = now();
    for (int i = 0; i < rounds; i++) {
        struct ak_state w = s;
        ak_rng_seed(&w.rng, (uint64_t)i);
        ok += ak_apply(&w, &r, NULL, &rej);
    }
    printf("battle resolution (1-1, die, result, retreats or losses): %.2f us (%d resolved)\n",
           (now() - t0) * 1e6 / rounds, ok);
}

/* The engine alone: ten games of g's ruleset replayed from their logs,
 * without the random player's own look-ahead. */
static void bench_replay(struct ak_player_game *g)
{
    long replayed = 0;
    double spent = 0;
    for (int i = 0; i < 10; i++) {
        ak_player_start(g, 2000 + (uint64_t)i);
        ak_player_play(g, 1000);
        struct ak_state r;
        ak_player_init_state(&r, g->ruleset, 2000 + (uint64_t)i);
        double t0 = now();
        for (int k = 0; k < g->n; k++)
            if (!ak_apply(&r, &g->log[k], NULL, NULL))
                break;
        spent += now() - t0;
        replayed += g->n;
    }
    printf("the same games replayed from their logs (the engine alone): %.1f us per action (%ld actions)\n",
           1e6 * spent / (double)replayed, replayed);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Every battle the mover can declare, declared one after another (the
 * first offer each time), as a busy combat portion would have them; in
 * the Updated ruleset each supply unit first spent on attacks. */
static int declare_all(struct ak_state *s)
{
    static struct ak_action offer[256];
    int declared = 0;
    for (int tries = 0; tries < 8; tries++) {
        int n = ak_legal_actions(s, 0, offer, 256), i = 0;
        while (i < n && (offer[i].kind != AK_ACT_SUPPLY_ATTACKS || !ak_apply(s, &offer[i], NULL, NULL)))
            i++;
        if (i == n)
            break;
    }
    for (int tries = 0; tries < AK_BATTLE_MAX; tries++) {
        int n = ak_query_battles(s, offer, 256), i = 0;
        while (i < n && !ak_apply(s, &offer[i], NULL, NULL))
            i++;
        if (i == n)
            break;
        declared++;
    }
    return declared;
}

/* ak_battle_odds (what akc odds and the page show) in ten random games:
 * at the start of each combat portion, every battle the mover can declare
 * is declared, and the chances of them all worked out: the median and
 * the worst time, and the most battles at once. */
static void bench_odds(struct ak_player_game *g)
{
    static double spent[4000];
    static struct ak_odds o;
    int n = 0, most = 0, resolutions = 0;
    for (int i = 0; i < 10 && n < 4000; i++) {
        ak_player_start(g, 3000 + (uint64_t)i);
        ak_player_play(g, 1000);
        struct ak_state r;
        ak_player_init_state(&r, g->ruleset, 3000 + (uint64_t)i);
        for (int k = 0; k < g->n && n < 4000; k++) {
            int phase = r.phase;
            if (!ak_apply(&r, &g->log[k], NULL, NULL))
                break;
            if (r.phase == phase || r.phase != AK_PHASE_COMBAT || r.pending.kind || r.nbattles)
                continue;
            struct ak_state busy = r;
            int declared = declare_all(&busy);
            if (declared == 0)
                continue;
            double t0 = now();
            ak_battle_odds(&busy, 0, &o);
            spent[n++] = now() - t0;
            most = declared > most ? declared : most;
            resolutions = o.resolutions > resolutions ? o.resolutions : resolutions;
        }
    }
    if (n == 0) {
        printf("exact battle chances: no battles to declare in the games\n");
        return;
    }
    qsort(spent, (size_t)n, sizeof spent[0], by_value);
    printf("exact battle chances (ak_battle_odds), every battle declared at each combat portion of 10 random games: "
           "median %.2f ms, worst %.2f ms (%d positions; up to %d battles, %d faces fought at once)\n",
           spent[n / 2] * 1e3, spent[n - 1] * 1e3, n, most, resolutions);
}

/* A front of six battles at once (two attackers each, supply in reach),
 * every one declared: the chances of them all, the query's busy case. */
static void bench_odds_front(void)
{
    static const char *att[] = {"21pz5", "15pz8", "ariete", "littorio", "trieste", "90inf361",
                                "21pz104", "15pz115", "51fj", "21pz3", "15pz33", "90inf580"};
    static const char *def[] = {"22gdsinf", "1arm2", "1arm22", "2arm3", "10arm23", "10arm8"};
    static const char *sup[] = {"gsup1", "gsup2", "gsup3"};
    static struct ak_odds o;
    struct ak_state s;
    ak_state_init(&s, 0, 1);
    for (int u = 0; u < s.units; u++)
        if (s.unit[u].where == AK_AT_BOARD && s.unit[u].hex != ak_hex_parse("W6") &&
            s.unit[u].hex != ak_hex_parse("L59"))
            s.unit[u].where = AK_AT_POOL;
    char h[8];
    for (int i = 0; i < 6; i++) {
        snprintf(h, sizeof h, "P%d", 30 + 4 * i);
        for (int k = 0; k < 2; k++)
            s.unit[ak_unit_find(ak_data(), att[2 * i + k])] = (struct ak_unit){.where = AK_AT_BOARD, .hex = ak_hex_parse(h)};
        snprintf(h, sizeof h, "P%d", 31 + 4 * i);
        s.unit[ak_unit_find(ak_data(), def[i])] = (struct ak_unit){.where = AK_AT_BOARD, .hex = ak_hex_parse(h)};
    }
    for (int i = 0; i < 3; i++) {
        snprintf(h, sizeof h, "N%d", 32 + 8 * i);
        s.unit[ak_unit_find(ak_data(), sup[i])] = (struct ak_unit){.where = AK_AT_BOARD, .hex = ak_hex_parse(h)};
    }
    s.phase = AK_PHASE_COMBAT;
    int declared = declare_all(&s);
    const int rounds = 20;
    double t0 = now();
    for (int r = 0; r < rounds; r++)
        ak_battle_odds(&s, 0, &o);
    printf("exact battle chances, a front of %d battles declared at once (%d faces fought): %.2f ms\n", declared,
           o.resolutions, (now() - t0) * 1e3 / rounds);
}

/* A busy mid-game position from a random game, then whole random games. */
static void bench_rollouts(int ruleset);

static void bench_listing_and_games(void)
{
    static struct ak_player_game g;
    static struct ak_action list[16384];
    ak_player_start(&g, 2);
    ak_player_play(&g, 15);
    int onboard = 0;
    for (int u = 0; u < g.s.units; u++)
        onboard += ak_on_board(&g.s, u);
    int n = 0, rounds = 20;
    double t0 = now();
    for (int i = 0; i < rounds; i++)
        n = ak_legal_actions(&g.s, AK_LIST_MOVES, list, 16384);
    printf("full legal-action listing, turn %d %s %s, %d units on board: %.2f ms (%d actions)\n",
           g.s.turn, ak_side_name(g.s.side), ak_phase_name(g.s.phase), onboard,
           (now() - t0) * 1e3 / rounds, n);
    /* Three batches of ten games (different seeds each time); the best. */
    double best = 0;
    long best_actions = 0;
    for (int batch = 0; batch < 3; batch++) {
        long actions = 0;
        t0 = now();
        for (int i = 0; i < 10; i++) {
            ak_player_start(&g, 1000 + (uint64_t)(batch * 10 + i));
            ak_player_play(&g, 1000);
            actions += g.n;
        }
        double rate = 10 / (now() - t0);
        if (rate > best) {
            best = rate;
            best_actions = actions;
        }
    }
    printf("random games to the end, one core: %.2f games/s (best of 3 batches of 10; %.0f us per action)\n",
           best, 1e6 * 10 / best / (double)best_actions);
    bench_rollouts(0);
    bench_replay(&g);
    bench_odds(&g);
    ak_player_free(&g);
}

/* Playouts to the end with the AI's light policy (ak_ai_rollout), the
 * search's random games: games a second on one core, best of 3 batches
 * of 50, and how many of the 150 ended (the rest reached the action cap
 * or stopped). */
static void bench_rollouts(int ruleset)
{
    double best = 0;
    long best_actions = 0;
    int over = 0, failed = 0;
    for (int batch = 0; batch < 3; batch++) {
        long actions = 0;
        double t0 = now();
        for (int i = 0; i < 50; i++) {
            static struct ak_state s;
            ak_player_init_state(&s, ruleset, 5000 + (uint64_t)(batch * 50 + i));
            int n = ak_ai_rollout(&s, (uint64_t)(batch * 50 + i), 20000);
            failed += n < 0;
            actions += n > 0 ? n : 0;
            over += s.phase == AK_PHASE_OVER;
        }
        double rate = 50 / (now() - t0);
        if (rate > best) {
            best = rate;
            best_actions = actions;
        }
    }
    printf("playouts to the end (ak_ai_rollout, the search's random games), one core: %.1f games/s (best of 3 "
           "batches of 50; %.1f us per action, %ld actions a game; %d of 150 over, %d stopped)\n",
           best, 1e6 * 50 / best / (double)best_actions, best_actions / 50, over, failed);
}

/* Legal destinations of every unit of a position. */
static void destinations(const struct ak_state *s)
{
    static struct ak_dest d[AK_HEX_COUNT];
    int units = 0, dests = 0;
    double t0 = now();
    for (int r = 0; r < 200; r++)
        for (int u = 0; u < s->units; u++) {
            if (!ak_on_board(s, u))
                continue;
            struct ak_reject rej;
            uint8_t g = (uint8_t)u;
            int n = ak_move_destinations(s, ak_def(u)->side, &g, 1, d, AK_HEX_COUNT, &rej);
            if (r == 0) {
                units++;
                dests += n > 0 ? n : 0;
            }
        }
    double per = (now() - t0) * 1e6 / (200.0 * units);
    printf("legal destinations, opening position: %.2f us per unit (%d units, %d destinations)\n",
           per, units, dests);
}

/* The Updated ruleset: the moves, listing, games and replay figures. */
static void bench_updated(void)
{
    int ruleset = ak_ruleset_find("updated");
    struct ak_state s;
    ak_player_init_state(&s, ruleset, 1);
    const int rounds = 20000;
    printf("\nUpdated ruleset (as built: movement by points, its phases and supply, battles on the table written for testing):\n");
    printf("validate+apply 21pz5 W6->W14 by movement points, destination only: %.2f us (best of 5 batches)\n",
           validate(&s, "21pz5", "W14", rounds, false));
    printf("reject with explanation 21pz3 W6->W30 (beyond reach): %.2f us\n", validate(&s, "21pz3", "W30", rounds, false));
    destinations(&s);
    static struct ak_player_game g;
    g.ruleset = ruleset;
    g.toward_enemy = true;
    double best = 0;
    long best_actions = 0, battles = 0;
    for (int batch = 0; batch < 3; batch++) {
        long actions = 0;
        double t0 = now();
        for (int i = 0; i < 10; i++) {
            ak_player_start(&g, 1000 + (uint64_t)(batch * 10 + i));
            ak_player_play(&g, 1000);
            actions += g.n;
            for (int k = 0; k < g.n; k++)
                battles += g.log[k].kind == AK_ACT_RESOLVE;
        }
        double rate = 10 / (now() - t0);
        if (rate > best) {
            best = rate;
            best_actions = actions;
        }
    }
    printf("random games to the end, one core: %.2f games/s (best of 3 batches of 10; %.0f us per action; %ld battles in the 30)\n",
           best, 1e6 * 10 / best / (double)best_actions, battles);
    bench_rollouts(ruleset);
    bench_replay(&g);
    bench_odds(&g);
    ak_player_free(&g);
}

int main(void)
{
    struct ak_state s;
    ak_state_init(&s, 0, 1);
    const int rounds = 20000;
    printf("validate+apply 21pz5 W6->W14 (8 squares, 5 by road), destination only: %.2f us (best of 5 batches)\n",
           validate(&s, "21pz5", "W14", rounds, false));
    printf("validate+apply the same move with its path (as akc play sends it): %.2f us\n",
           validate(&s, "21pz5", "W14", rounds, true));
    printf("reject with explanation 21pz3 W6->W18 (beyond reach): %.2f us\n",
           validate(&s, "21pz3", "W18", rounds, false));
    destinations(&s);
    bench_battle();
    bench_odds_front();
    bench_listing_and_games();
    bench_updated();
    return 0;
}
