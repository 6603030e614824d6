/* ak_ai_plan: the searching levels' plan of a whole movement portion or
 * phase (the strong level's budget, and a quarter of it for the standard
 * level, which does not harden it against the reply), by online
 * evolutionary planning (Justesen, Mahlmann, Risi and
 * Togelius, "Playing multi-action adversarial games: online evolutionary
 * planning versus tree search", 2017): the greedy levels choose one move
 * at a time, each the best on its own; a plan is a move (or none) for
 * every unit at once, valued by the evaluation of the position after all
 * of them, so moves that are worth something only together (a stack
 * built up, a square left for another unit, an attack prepared from two
 * sides) are found.
 *
 * A genome picks, for each of the side's units that can move, one of its
 * BEST_MAX best destinations alone (by the value after that move and the
 * battle it opens), its part in an assault on a key square the enemy
 * garrisons (ak_ai_assault.c), or none. Its fitness: the moves applied in
 * unit order on a copy of the state (a move the rules refuse there is
 * skipped), then the evaluation, plus half what the battles against the
 * enemy squares next to the moved units are worth (each square once, with
 * every unit of the side next to it; ak_ai_battle_worth).
 * The first population holds the greedy picks (each unit's best
 * destination when it raises the value), standing still, each assault
 * (every unit that can take its part, the rest as the greedy picks), and
 * random genomes; each generation keeps the better
 * half and fills the rest with children of two of them (uniform
 * crossover, one or more genes mutated). The budget is a number of
 * evaluations, so the plan is the same for the same state and seed. The
 * strong level's best genome is then hardened against the enemy's reply (harden, below:
 * ak_ai_reply.c's evaluations come on top of the budget), and its moves,
 * in order, are the plan ak_ai.c follows (each tried again by the engine
 * before it is sent).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ak_ai_internal.h"
#include "ak_query.h"
#include "ak_zoc.h"

#define UNITS_MAX 72            /* every unit of a side (the Allies have 68 counters) */
#define BEST_MAX 9              /* per unit: its best destinations alone */
#define CHOICES_MAX (1 + BEST_MAX + AK_KEYS)   /* and standing still, and its part in each assault */
#define POP 12
#define NO_PART 0xFF            /* a unit with no part in an assault */

/* The destinations the genomes choose from, and the assaults: for each
 * key square side does not hold with enemy combat units on it, the
 * choice that brings each unit into it (a combat unit next to the
 * square, a supply unit within range of it; ak_ai_assault.c). */
struct pool {
    int side, n;
    uint8_t unit[UNITS_MAX];
    ak_hex unit_hex[UNITS_MAX];
    int nchoice[UNITS_MAX];
    ak_hex choice[UNITS_MAX][CHOICES_MAX];  /* [0]: stands still */
    int ntarget;
    ak_hex target[AK_KEYS];
    uint8_t part[AK_KEYS][UNITS_MAX];       /* a choice, or NO_PART */
};

struct genome {
    uint8_t pick[UNITS_MAX];
    double fitness;
    int born;               /* the order it was made in: ties go to the elder (a stable order, whatever qsort does) */
};

static struct ak_state work;
static struct ak_action dests[AK_HEX_COUNT];
static uint8_t counted[AK_HEX_COUNT];   /* the enemy squares a plan's battles were counted against */

static struct ak_action move_of(int side, int unit, ak_hex to)
{
    struct ak_action a = {.kind = AK_ACT_MOVE, .side = (uint8_t)side, .nunits = 1, .supply = AK_UNIT_NONE, .hex = to};
    a.units[0] = (uint8_t)unit;
    return a;
}

/* The value of a position for the plan: the evaluation and the battles
 * the moved units open (the combat that follows), each enemy square
 * counted once with all of side's units next to it. */
static double value(const struct ak_ai *ai, const struct ak_state *s, const struct pool *p, const uint8_t *pick)
{
    double v = ak_ai_evaluate(&ai->w, s, p->side);
    memset(counted, 0, sizeof counted);
    for (int i = 0; i < p->n; i++) {
        if (!pick[i])
            continue;
        for (int d = 0; d < AK_DIRS; d++) {
            ak_hex e = ak_hex_neighbor(p->choice[i][pick[i]], d);
            if (e == AK_HEX_NONE || counted[e])
                continue;
            counted[e] = 1;
            v += 0.5 * ak_ai_battle_against(&ai->w, s, e, p->side);
        }
    }
    return v;
}

#define UNFINISHED 1000.0      /* a plan after which the part cannot end (a square overstacked): never chosen */

/* The moves applied in unit order (at most the plan's length: the rest
 * stand still) to work; true when the part may end after them. */
static bool apply_plan(const struct ak_state *s, const struct pool *p, uint8_t *pick)
{
    work = *s;
    for (int i = 0, moved = 0; i < p->n; i++) {
        if (!pick[i])
            continue;
        struct ak_action a = move_of(p->side, p->unit[i], p->choice[i][pick[i]]);
        if (moved >= AK_AI_PLAN_MAX || !ak_apply(&work, &a, NULL, NULL))
            pick[i] = 0;        /* refused after the moves before it: repaired to standing still */
        else
            moved++;
    }
    struct ak_action end = {.kind = (uint8_t)ak_ending_action(&work), .side = (uint8_t)p->side,
                            .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
    return ak_try(&work, &end, NULL);
}

static bool next_to_target(const struct pool *p, ak_hex h)
{
    for (int t = 0; t < p->ntarget; t++)
        if (ak_hex_distance(h, p->target[t]) == 1)
            return true;
    return false;
}

/* A plan the part cannot end after has, most often, a unit in an enemy
 * zone that the rules will not let stay there (1964: beyond its supply's
 * reach, SUSTAIN ATTACKS 2), a greedy pick that an assault kept: every
 * move next to an enemy unit but the assaults' own (a cheap superset of
 * the zones: next to enemy supply too) is repaired to standing still.
 * True if any was. */
static bool repair(const struct ak_state *s, const struct pool *p, uint8_t *pick)
{
    bool changed = false;
    for (int i = 0; i < p->n; i++) {
        ak_hex h = p->choice[i][pick[i]];
        if (pick[i] && ak_enemy_unit_adjacent(s, h, p->side) && !next_to_target(p, h)) {
            pick[i] = 0;
            changed = true;
        }
    }
    return changed;
}

/* The value after the plan, repaired once if the part could not end
 * after it (and never chosen if it still cannot). */
static double fitness(const struct ak_ai *ai, const struct ak_state *s, const struct pool *p, uint8_t *pick)
{
    bool ends = apply_plan(s, p, pick);
    if (!ends && repair(s, p, pick))
        ends = apply_plan(s, p, pick);
    return value(ai, &work, p, pick) - (ends ? 0 : UNFINISHED);
}

/* Keep the k best of n destinations by value (a partial selection sort). */
static void keep_best(struct ak_action *d, double *v, int n, int k)
{
    for (int i = 0; i < k && i < n; i++) {
        int best = i;
        for (int j = i + 1; j < n; j++)
            if (v[j] > v[best])
                best = j;
        struct ak_action t = d[i];
        double tv = v[i];
        d[i] = d[best], v[i] = v[best];
        d[best] = t, v[best] = tv;
    }
}

/* Choice index of hex h in unit i's choices, added when it is not there. */
static uint8_t choice_of(struct pool *p, int i, ak_hex h)
{
    if (h == p->unit_hex[i])
        return 0;
    for (int c = 1; c < p->nchoice[i]; c++)
        if (p->choice[i][c] == h)
            return (uint8_t)c;
    p->choice[i][p->nchoice[i]] = h;
    return (uint8_t)p->nchoice[i]++;
}

/* One supply unit sustains the whole assault (SUSTAIN ATTACKS 4): of those
 * that can take part in assault t, the best placed keeps its part (one
 * already in range first), the others go as the greedy picks have them. */
static void one_supply(struct pool *p, int t, int i, double worth, int *at, double *best)
{
    if (*at >= 0 && worth <= *best) {
        p->part[t][i] = NO_PART;
        return;
    }
    if (*at >= 0)
        p->part[t][*at] = NO_PART;
    *at = i;
    *best = worth;
}

/* Each unit's best destinations alone, and its part in each assault;
 * *greedy gets the best one where it raises the value. */
static void make_pool(const struct ak_ai *ai, const struct ak_state *s, int side, struct pool *p, uint8_t *greedy)
{
    static double v[AK_HEX_COUNT];
    static uint8_t stacked[AK_KEYS][AK_HEX_COUNT];
    uint8_t none[UNITS_MAX] = {0};
    p->side = side;
    p->n = 0;
    int supply_at[AK_KEYS];
    double supply_worth[AK_KEYS];
    bool stage[AK_KEYS];
    p->ntarget = ak_ai_assault_targets(s, side, p->target);
    for (int t = 0; t < p->ntarget; t++) {
        ak_ai_count_own(s, stacked[t]);
        supply_at[t] = -1;
        stage[t] = !ak_ai_assault_supplied(s, side, p->target[t]);
    }
    double base = value(ai, s, p, none);
    for (int u = 0; u < s->units && p->n < UNITS_MAX; u++) {
        if (ak_def(u)->side != side || !ak_on_board(s, u))
            continue;
        int n = ak_legal_moves(s, u, dests, AK_HEX_COUNT);
        if (n <= 0)
            continue;
        for (int i = 0; i < n; i++) {
            work = *s;
            v[i] = ak_apply(&work, &dests[i], NULL, NULL)
                       ? ak_ai_evaluate(&ai->w, &work, side) +
                             0.5 * ak_ai_opened_battle(&ai->w, &work, dests[i].hex, side)
                       : -HUGE_VAL;
        }
        ak_hex part[AK_KEYS];
        double worth[AK_KEYS];
        for (int t = 0; t < p->ntarget; t++)
            part[t] = ak_ai_assault_part(s, u, p->target[t], dests, v, n, stacked[t], stage[t], &worth[t]);
        int k = n < BEST_MAX ? n : BEST_MAX;
        keep_best(dests, v, n, k);
        int i = p->n++;
        p->unit[i] = (uint8_t)u;
        p->unit_hex[i] = s->unit[u].hex;
        p->choice[i][0] = AK_HEX_NONE;
        for (int j = 0; j < k; j++)
            p->choice[i][j + 1] = dests[j].hex;
        p->nchoice[i] = k + 1;
        for (int t = 0; t < p->ntarget; t++) {
            p->part[t][i] = part[t] == AK_HEX_NONE ? NO_PART : choice_of(p, i, part[t]);
            if (ak_def(u)->type == AK_TYPE_SUPPLY && part[t] != AK_HEX_NONE && !stage[t])
                one_supply(p, t, i, worth[t], &supply_at[t], &supply_worth[t]);
        }
        greedy[i] = v[0] > base ? 1 : 0;
    }
}

/* The assault on target t: every unit that can take its part, the others
 * as the greedy genome has them, except onto a square next to t (its
 * stacks are the assault's: a greedy arrival there could overstack one,
 * and the part could not end). */
static void assault(const struct pool *p, int t, const uint8_t *greedy, uint8_t *pick)
{
    for (int i = 0; i < p->n; i++) {
        uint8_t g = greedy[i];
        bool crowds = g && ak_adjacent(p->choice[i][g], p->target[t]);
        pick[i] = p->part[t][i] != NO_PART ? p->part[t][i] : crowds ? 0 : g;
    }
}

static int pick_index(struct ak_ai *ai, int n)
{
    return n <= 1 ? 0 : (int)(ak_rng_next(&ai->rng) % (uint64_t)n);
}

static void child(struct ak_ai *ai, const struct pool *p, const struct genome *a, const struct genome *b,
                  struct genome *c)
{
    for (int i = 0; i < p->n; i++)
        c->pick[i] = ak_rng_next(&ai->rng) & 1 ? a->pick[i] : b->pick[i];
    do {
        int i = pick_index(ai, p->n);
        c->pick[i] = (uint8_t)pick_index(ai, p->nchoice[i]);
    } while (pick_index(ai, 3) == 0);
}

static int by_fitness(const void *x, const void *y)
{
    const struct genome *a = x, *b = y;
    return a->fitness < b->fitness ? 1 : a->fitness > b->fitness ? -1 : (a->born > b->born) - (a->born < b->born);
}

#define REPLY_WORTH 2.0         /* a reply that costs less is not worth hardening against */
#define HARDEN_CHOICES 3        /* per unit: standing still and its two best destinations */

/* The plan's value with the enemy's reply (ak_ai_reply_cost) weighed. */
static double safe_value(const struct ak_ai *ai, const struct ak_state *s, const struct pool *p, uint8_t *pick,
                         double *reply)
{
    double f = fitness(ai, s, p, pick);        /* leaves the position after the moves in work */
    *reply = ak_ai_reply_cost(&ai->w, &work, p->side);
    return f - ai->w.reply * *reply;
}

/* The best genome hardened against the enemy's reply: unit by unit,
 * standing still or one of its two best destinations instead of its
 * move, kept when the value with the reply weighed rises. One pass; only
 * when the reply costs something (a reply costs an evaluation per square
 * the enemy reaches; these evaluations come on top of the plan's budget:
 * docs/ai.md gives the time a player turn). */
static void harden(const struct ak_ai *ai, const struct ak_state *s, const struct pool *p, struct genome *best)
{
    if (ai->level < AK_AI_STRONG || ai->w.reply <= 0)
        return;
    double reply = 0, cur = safe_value(ai, s, p, best->pick, &reply);
    if (reply < REPLY_WORTH)
        return;
    static uint8_t trial[UNITS_MAX];
    for (int i = 0; i < p->n && reply >= REPLY_WORTH; i++)
        for (int c = 0; c < HARDEN_CHOICES && c < p->nchoice[i]; c++) {
            if (c == best->pick[i])
                continue;
            memcpy(trial, best->pick, sizeof trial);
            trial[i] = (uint8_t)c;
            double r, v = safe_value(ai, s, p, trial, &r);
            if (v > cur) {
                cur = v;
                reply = r;
                memcpy(best->pick, trial, sizeof trial);
            }
        }
}

int ak_ai_plan(struct ak_ai *ai, const struct ak_state *s, int evaluations, struct ak_action *plan, int cap)
{
    static struct pool p;
    static struct genome pop[POP];
    int side = ak_waiting_for(s);
    memset(pop, 0, sizeof pop);
    make_pool(ai, s, side, &p, pop[0].pick);
    if (p.n == 0)
        return 0;
    for (int g = 2; g < POP; g++)           /* [1] stands still */
        for (int i = 0; i < p.n; i++)
            pop[g].pick[i] = (uint8_t)(pick_index(ai, 2) ? pick_index(ai, p.nchoice[i]) : 0);
    for (int t = 0; t < p.ntarget; t++)     /* then the assaults */
        assault(&p, t, pop[0].pick, pop[2 + t].pick);
    int born = 0;
    for (int g = 0; g < POP; g++) {
        pop[g].fitness = fitness(ai, s, &p, pop[g].pick);
        pop[g].born = born++;
    }
    for (int used = POP; used + POP / 2 <= evaluations;) {
        qsort(pop, POP, sizeof pop[0], by_fitness);
        for (int g = POP / 2; g < POP; g++, used++) {
            child(ai, &p, &pop[pick_index(ai, POP / 2)], &pop[pick_index(ai, POP / 2)], &pop[g]);
            pop[g].fitness = fitness(ai, s, &p, pop[g].pick);
            pop[g].born = born++;
        }
    }
    qsort(pop, POP, sizeof pop[0], by_fitness);
    harden(ai, s, &p, &pop[0]);
    int n = 0;
    for (int i = 0; i < p.n && n < cap; i++)
        if (pop[0].pick[i])
            plan[n++] = move_of(side, p.unit[i], p.choice[i][pop[0].pick[i]]);
    return n;
}
