/* ak_ai: the computer player's choice of one action (ak_ai.h).
 *
 * The search is greedy over the engine's legal actions, one action at a
 * time, each valued on a copy of the state by the evaluation
 * (ak_ai_eval.c): in a movement portion or phase the move that raises the
 * value most (every unit's every destination, or a few units' for the
 * beginner) until no move raises it or the level's move cap is reached;
 * placements, boxes, supply spent and the like when they raise it; in
 * combat the battles whose expected gain (ak_ai_battle.c: the table's
 * exact chances) passes the level's threshold, resolved best first;
 * every owed decision (retreat, advance, exchange, losses) by the value
 * after it. The strong level also values a move by the battle it opens
 * from its square. Where its own choices cannot finish the part of the
 * turn (an overstacked square, battles the rules oblige), it follows the
 * engine's own way forward (ak_way_forward_first). Why greedy and not a
 * tree search yet: docs/ai.md.
 *
 * Work areas are static: one thread runs it, like the engine.
 */
#include "ak_ai.h"
#include "ak_ai_internal.h"

#include <math.h>
#include <string.h>

#include "ak_query.h"
#include "ak_zoc.h"

#define LIST_MAX 4096
#define MOVES_MAX (3 * AK_HEX_COUNT)     /* a unit's moves, and a supply unit's with its escorts */
#define STEP_LIMIT 300          /* choices in one part of a turn before following the way forward */
#define FORWARD_BUDGET 20000
#define GAIN_MIN 0.05           /* a move must raise the value at least this much */
#define PLAN_EXTRA 4            /* greedy moves after the plan, at most (each values every move of every unit) */

static struct ak_action list[LIST_MAX], moves[MOVES_MAX];
static struct ak_state work;

/* battles must promise this much (factors) to be declared, by level */
static const double battle_min[AK_AI_LEVELS] = {0, 1.5, 0.25, 0.0};
/* units looked at for a move: 0 every one */
static const int units_looked_at[AK_AI_LEVELS] = {0, 4, 0, 0};
static const int move_caps[AK_AI_LEVELS] = {0, 6, 30, 30};
/* evaluations for a movement part's plan (ak_ai_plan.c): 0 none, the
 * greedy search alone; the standard level plans on a quarter of the
 * strong level's budget and does not harden its plan against the reply */
static const int plan_budgets[AK_AI_LEVELS] = {0, 0, 60, 240};

void ak_ai_init(struct ak_ai *ai, int level, uint64_t seed)
{
    memset(ai, 0, sizeof *ai);
    ai->level = level < 0 ? 0 : level >= AK_AI_LEVELS ? AK_AI_LEVELS - 1 : level;
    ak_rng_seed(&ai->rng, seed);
    ai->w = ak_ai_default_weights;
    ai->move_cap = move_caps[ai->level];
    ai->plan_evaluations = plan_budgets[ai->level];
    ai->turn = -1;
}

static int pick(struct ak_ai *ai, int n)
{
    return n <= 1 ? 0 : (int)(ak_rng_next(&ai->rng) % (uint64_t)n);
}

/* The value for side after a, on a copy; -HUGE_VAL when refused. */
static double after(const struct ak_ai *ai, const struct ak_state *s, const struct ak_action *a, int side)
{
    work = *s;
    if (!ak_apply(&work, a, NULL, NULL))
        return -HUGE_VAL;
    return ak_ai_evaluate(&ai->w, &work, side);
}

static bool is_ending(const struct ak_state *s, const struct ak_action *a)
{
    return a->kind == ak_ending_action(s);
}

static bool can_end(const struct ak_state *s)
{
    struct ak_action end = {.kind = (uint8_t)ak_ending_action(s), .side = (uint8_t)ak_waiting_for(s),
                            .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
    return ak_try(s, &end, NULL);
}

/* a applies and the part can end after it. */
static bool ends_after(const struct ak_state *s, const struct ak_action *a)
{
    work = *s;
    return ak_apply(&work, a, NULL, NULL) && can_end(&work);
}

/* a does not take away the part's ending where it was possible (a supply
 * unit embarked that units in an enemy zone needed, SUSTAIN ATTACKS 2; a
 * square overstacked): a choice of the AI never leaves it where only the
 * engine's search could finish the part, or nothing could. */
static bool keeps_ending(const struct ak_state *s, const struct ak_action *a)
{
    return !can_end(s) || ends_after(s, a);
}

/* The best action of the list for side by the value after it, leaving out
 * resignations (and endings, unless with_ending). */
static int best_after(const struct ak_ai *ai, const struct ak_state *s, const struct ak_action *l, int n, int side,
                      bool with_ending, double *value)
{
    int best = -1;
    *value = -HUGE_VAL;
    for (int i = 0; i < n; i++) {
        if (l[i].kind == AK_ACT_RESIGN || (!with_ending && is_ending(s, &l[i])))
            continue;
        double v = after(ai, s, &l[i], side);
        if (v > *value) {
            *value = v;
            best = i;
        }
    }
    return best;
}

/* The best of the listed actions that raises the value above base by
 * GAIN_MIN and keeps the part's ending, or -1. Best first, the next when
 * one would take the ending away: a reinforcement that would overstack
 * Tobruch is placed at the home base instead of not at all. */
static int best_gain(const struct ak_ai *ai, const struct ak_state *s, const struct ak_action *l, int n, int side,
                     double base)
{
    static double value[LIST_MAX];
    for (int i = 0; i < n; i++)
        value[i] = l[i].kind == AK_ACT_RESIGN || is_ending(s, &l[i]) ? -HUGE_VAL : after(ai, s, &l[i], side);
    bool ends = can_end(s);     /* keeps_ending's first question, asked once */
    for (;;) {
        int best = -1;
        for (int i = 0; i < n; i++)
            if (value[i] > base + GAIN_MIN && (best < 0 || value[i] > value[best]))
                best = i;
        if (best < 0 || !ends || ends_after(s, &l[best]))
            return best;
        value[best] = -HUGE_VAL;
    }
}

#define SAFE_TRIES 3            /* the strong level's best greedy moves weighed against the reply, best first */

struct candidates {
    int n, max;             /* max: SAFE_TRIES at the strong level, else 1 (only the best is taken) */
    double value[SAFE_TRIES];
    struct ak_action move[SAFE_TRIES];
};

/* Whether a move of value v would be kept (it beats the last one kept
 * when the list is full). */
static bool would_keep(const struct candidates *c, double v)
{
    return c->n < c->max || v > c->value[c->max - 1];
}

/* Keep the c->max best moves by value, best first (the earlier of equals). */
static void keep(struct candidates *c, double v, const struct ak_action *a)
{
    if (!would_keep(c, v))
        return;
    int i = c->n < c->max ? c->n++ : c->max - 1;     /* full: the last one goes */
    for (; i > 0 && c->value[i - 1] < v; i--) {
        c->value[i] = c->value[i - 1];
        c->move[i] = c->move[i - 1];
    }
    c->value[i] = v;
    c->move[i] = *a;
}

/* The first of the candidate moves whose gain the enemy's best answer
 * (ak_ai_reply.c) does not take back (a unit stepping out of the screen
 * that kept a pocket open): the strong level weighs the reply before a
 * greedy move as its plan does; the other levels take the best. */
static bool safe_move(const struct ak_ai *ai, const struct ak_state *s, int side, double base,
                      const struct candidates *c, struct ak_action *out)
{
    if (c->n == 0)
        return false;
    if (ai->level < AK_AI_STRONG || ai->w.reply <= 0) {
        *out = c->move[0];
        return true;
    }
    double before = base - ai->w.reply * ak_ai_reply_cost(&ai->w, s, side);
    for (int i = 0; i < c->n; i++) {
        work = *s;
        if (ak_apply(&work, &c->move[i], NULL, NULL) &&
            c->value[i] - ai->w.reply * ak_ai_reply_cost(&ai->w, &work, side) > before) {
            *out = c->move[i];
            return true;
        }
    }
    return false;
}

/* The best move of the units looked at, by the value after it: true with
 * *out when it raises the value above base (and, at the strong level,
 * survives the enemy's reply). */
static bool best_move(struct ak_ai *ai, const struct ak_state *s, int side, double base, struct ak_action *out)
{
    static struct candidates c;
    c.n = 0;
    c.max = ai->level >= AK_AI_STRONG && ai->w.reply > 0 ? SAFE_TRIES : 1;
    int look = units_looked_at[ai->level], start = pick(ai, s->units);
    for (int k = 0, looked = 0; k < s->units && (!look || looked < look); k++) {
        int u = (start + k) % s->units;
        if (ak_def(u)->side != side || !ak_on_board(s, u))
            continue;
        int n = ak_legal_moves(s, u, moves, AK_HEX_COUNT);
        n += ak_ai_escorted_moves(s, u, moves + n, MOVES_MAX - n);    /* a supply unit covered on its way */
        looked += n > 0;
        for (int i = 0; i < n; i++) {
            double v = after(ai, s, &moves[i], side);
            if (ai->level >= AK_AI_STRONG && v > -HUGE_VAL)
                v += 0.5 * ak_ai_opened_battle(&ai->w, &work, moves[i].hex, side);
            if (v > base + GAIN_MIN && would_keep(&c, v) && keeps_ending(s, &moves[i]))
                keep(&c, v, &moves[i]);
        }
    }
    return safe_move(ai, s, side, base, &c, out);
}

/* A declared battle (index b) as a battle action, to value it. */
static void declared(const struct ak_state *s, int b, int side, struct ak_action *out)
{
    memset(out, 0, sizeof *out);
    out->kind = AK_ACT_BATTLE;
    out->side = (uint8_t)side;
    out->supply = AK_UNIT_NONE;
    for (int u = 0; u < s->units && out->nunits < AK_GROUP_MAX; u++)
        if (ak_on_board(s, u) && s->unit[u].battle == b + 1 && ak_unit_is_combat(ak_def(u)))
            out->units[out->nunits++] = (uint8_t)u;
}

/* In combat, before the owed decisions: the best battle to declare, the
 * best declared battle to fight first, or nothing (-1). */
static int combat_choice(const struct ak_ai *ai, const struct ak_state *s, int n, int side)
{
    int best = -1;
    double top = battle_min[ai->level];
    /* once the way forward called a battle off, declaring it again by
     * choice would call for the way forward again, for ever */
    for (int i = 0; i < n && !ai->cancelled; i++)
        if (list[i].kind == AK_ACT_BATTLE) {
            /* a supply unit that sustains the battle is spent (SUSTAIN ATTACKS) */
            double v = ak_ai_battle_worth(&ai->w, s, &list[i]) -
                       (list[i].supply != AK_UNIT_NONE ? ak_ai_supply_worth(&ai->w, s, side) : 0);
            if (v > top) {
                top = v;
                best = i;
            }
        }
    if (best >= 0)
        return best;
    top = -HUGE_VAL;
    for (int i = 0; i < n; i++)
        if (list[i].kind == AK_ACT_RESOLVE) {
            struct ak_action b;
            declared(s, list[i].battle, side, &b);
            double v = ak_ai_battle_value(s, &b);
            if (v > top) {
                top = v;
                best = i;
            }
        }
    return best;
}

/* The part cannot end yet (battles the rules oblige, ATTACKING 6): the
 * best battle offered after which it can end, so that the obligations are
 * met without the engine's search of every combination (seconds in a
 * crowded front); else the battle that leaves the fewest units still
 * owing one (strictly fewer than now, so that these declarations end:
 * a crowded front is met one battle at a time); -1 when none does (the
 * way forward then). */
static int obliged_battle(const struct ak_ai *ai, const struct ak_state *s, int n, int side)
{
    static struct ak_state declared_one;
    int best = -1, owed_now = ak_query_owed(s, NULL, 0), fewest = owed_now;
    bool ends = false;
    double top = -HUGE_VAL;
    for (int i = 0; i < n; i++) {
        if (list[i].kind != AK_ACT_BATTLE || (ai->cancelled && !owed_now))
            continue;
        double v = ak_ai_battle_worth(&ai->w, s, &list[i]) -
                   (list[i].supply != AK_UNIT_NONE ? ak_ai_supply_worth(&ai->w, s, side) : 0);
        declared_one = *s;
        if (!ak_apply(&declared_one, &list[i], NULL, NULL))
            continue;
        bool end = can_end(&declared_one);
        int owed = end ? 0 : ak_query_owed(&declared_one, NULL, 0);
        if (end ? (!ends || v > top) : (!ends && (owed < fewest || (owed == fewest && owed < owed_now && v > top)))) {
            ends = end;
            fewest = owed;
            top = v;
            best = i;
        }
    }
    return best;
}

/* Spending supply on attacks (the Updated ruleset) is worth it when a
 * battle it makes possible promises more than the supply unit is worth. */
static int supply_for_attacks(const struct ak_ai *ai, const struct ak_state *s, int n)
{
    static struct ak_action then[LIST_MAX];
    for (int i = 0; i < n; i++) {
        if (list[i].kind != AK_ACT_SUPPLY_ATTACKS)
            continue;
        static struct ak_state spent;
        spent = *s;
        if (!ak_apply(&spent, &list[i], NULL, NULL))
            continue;
        int k = ak_query_battles(&spent, then, LIST_MAX);
        for (int j = 0; j < k; j++)
            if (ak_ai_battle_worth(&ai->w, &spent, &then[j]) > ai->w.supply_unit + battle_min[ai->level])
                return i;
    }
    return -1;
}

/* Past STEP_LIMIT choices in one part of the turn: the battles declared
 * fought, then the part ended, or what the engine's search finds. */
static bool way_forward(struct ak_ai *ai, const struct ak_state *s, struct ak_action *out);

static bool wind_up(struct ak_ai *ai, const struct ak_state *s, int n, struct ak_action *out)
{
    for (int kind = AK_ACT_RESOLVE, pass = 0; pass < 2; pass++, kind = ak_ending_action(s))
        for (int i = 0; i < n; i++)
            if (list[i].kind == kind) {
                *out = list[i];
                return true;
            }
    return way_forward(ai, s, out);
}

/* What the engine's own search finds to finish the part of the turn: its
 * whole way, kept and followed step by step (asking again for the first
 * step each time can go round in circles: a battle declared, then called
 * off, for ever); asked again when the next step is no longer legal. */
static bool way_forward(struct ak_ai *ai, const struct ak_state *s, struct ak_action *out)
{
    struct ak_reject rej;
    if (ai->forward_at < ai->nforward && ak_try(s, &ai->forward[ai->forward_at], &rej)) {
        *out = ai->forward[ai->forward_at++];
        return true;
    }
    ai->nforward = ak_way_forward_path(s, FORWARD_BUDGET, ai->forward, AK_AI_PLAN_MAX);
    ai->forward_at = 0;
    if (ai->nforward <= 0 || !ak_try(s, &ai->forward[0], &rej)) {
        ai->nforward = 0;
        return false;
    }
    *out = ai->forward[ai->forward_at++];
    return true;
}

/* The yardstick: a legal action at random, moves now and then. */
static bool random_choice(struct ak_ai *ai, const struct ak_state *s, int n, struct ak_action *out)
{
    int side = ak_waiting_for(s);
    if ((ak_possible_actions(s) & (1u << AK_ACT_MOVE)) && ai->moves < 12 && pick(ai, 3) > 0 && ai->steps < STEP_LIMIT) {
        for (int tries = 0; tries < 8; tries++) {
            int u = pick(ai, s->units);
            if (ak_def(u)->side != side || !ak_on_board(s, u))
                continue;
            int k = ak_legal_moves(s, u, moves, AK_HEX_COUNT);
            if (k > 0) {
                *out = moves[pick(ai, k)];
                ai->moves++;
                return true;
            }
        }
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (list[i].kind != AK_ACT_RESIGN && !ak_ai_crowds(s, &list[i]) &&
            (ai->steps < STEP_LIMIT / 2 || is_ending(s, &list[i]) || s->pending.kind))
            list[k++] = list[i];
    if (k > 0) {
        *out = list[pick(ai, k)];
        return true;
    }
    return way_forward(ai, s, out);
}

static void new_part(struct ak_ai *ai, const struct ak_state *s)
{
    if (ai->turn == s->turn && ai->side == ak_waiting_for(s) && ai->phase == s->phase)
        return;
    ai->turn = s->turn;
    ai->side = ak_waiting_for(s);
    ai->phase = s->phase;
    ai->moves = 0;
    ai->steps = 0;
    ai->cancelled = false;
    ai->nforward = ai->forward_at = 0;
    ai->planned = false;
    ai->nplan = ai->plan_at = 0;
    ai->move_cap = move_caps[ai->level];
}

/* The searching levels (a plan budget: the standard and strong levels, or
 * any level ai-bench's AK_AI_PLAN gives one): the next move of its plan for this movement part,
 * made the first time it is asked; false once the plan is done (or a
 * planned move is no longer legal: the rest is left to the greedy search). */
static bool planned_move(struct ak_ai *ai, const struct ak_state *s, struct ak_action *out)
{
    if (!ai->planned) {
        ai->planned = true;
        ai->nplan = ai->plan_evaluations ? ak_ai_plan(ai, s, ai->plan_evaluations, ai->plan, AK_AI_PLAN_MAX) : 0;
        ai->plan_at = 0;
        if (ai->nplan)
            ai->move_cap = ai->moves + ai->nplan + PLAN_EXTRA;    /* the plan, then a few greedy moves */
    }
    struct ak_reject rej;
    while (ai->plan_at < ai->nplan) {
        *out = ai->plan[ai->plan_at++];
        if (ak_try(s, out, &rej) && keeps_ending(s, out))
            return true;
    }
    return false;
}

/* The searching levels' choice among n listed actions (moves apart). */
static bool searched_choice(struct ak_ai *ai, const struct ak_state *s, int n, struct ak_action *out)
{
    int side = ak_waiting_for(s), i;
    struct ak_reject rej;
    if (ai->forward_at < ai->nforward && ak_try(s, &ai->forward[ai->forward_at], &rej)) {
        *out = ai->forward[ai->forward_at++];      /* the engine's way forward, once taken, is followed */
        return true;
    }
    double v, base = ak_ai_evaluate(&ai->w, s, side);
    if (s->pending.kind)
        return (i = best_after(ai, s, list, n, side, false, &v)) >= 0 ? (*out = list[i], true) : way_forward(ai, s, out);
    if ((i = combat_choice(ai, s, n, side)) >= 0 || (i = supply_for_attacks(ai, s, n)) >= 0) {
        *out = list[i];
        return true;
    }
    /* placements, boxes, embarkations and the like first, when they raise
     * the value (a supply unit placed early moves this portion) */
    static struct ak_action other[LIST_MAX];
    int k = 0;
    /* (a battle is never called off once chosen, and units are abandoned
     * only when the rules leave nothing else: the way forward) */
    static const unsigned not_other = 1u << AK_ACT_BATTLE | 1u << AK_ACT_RESOLVE | 1u << AK_ACT_SUPPLY_ATTACKS |
                                      1u << AK_ACT_CANCEL | 1u << AK_ACT_ABANDON;
    for (int j = 0; j < n; j++)
        if (!(not_other & (1u << list[j].kind)))
            other[k++] = list[j];
    if (ai->moves < ai->move_cap && (i = best_gain(ai, s, other, k, side, base)) >= 0) {
        ai->moves++;    /* counted with the moves: an embarkation and a landing cannot go round for ever */
        *out = other[i];
        return true;
    }
    bool can_move = (ak_possible_actions(s) & (1u << AK_ACT_MOVE)) && ai->moves < ai->move_cap;
    if (can_move && ai->plan_evaluations > 0 && planned_move(ai, s, out)) {
        ai->moves++;
        return true;
    }
    if (can_move && best_move(ai, s, side, base, out)) {
        ai->moves++;
        return true;
    }
    for (int j = 0; j < n; j++)
        if (is_ending(s, &list[j])) {
            *out = list[j];
            return true;
        }
    if ((i = obliged_battle(ai, s, n, side)) >= 0) {
        *out = list[i];
        return true;
    }
    return way_forward(ai, s, out);
}

/* A crowded stack thinned (ak_ai_stack.c): one of its units to the legal
 * destination with the fewest of its side's combat units, when the part
 * cannot end for it and nothing else the AI would do is left (a move cap
 * met, arrivals placed on a full base). */
static bool thin_stack(const struct ak_state *s, struct ak_action *out)
{
    static uint8_t count[AK_HEX_COUNT];
    uint8_t units[AK_UNIT_MAX];
    int n = (ak_possible_actions(s) & (1u << AK_ACT_MOVE)) ? ak_ai_crowded_units(s, units, AK_UNIT_MAX) : 0;
    ak_ai_count_own(s, count);
    for (int i = 0; i < n; i++) {
        int k = ak_legal_moves(s, units[i], moves, AK_HEX_COUNT), best = -1;
        for (int j = 0; j < k; j++)
            if (count[moves[j].hex] < ak_ai_stack_limit(s) && (best < 0 || count[moves[j].hex] < count[moves[best].hex]))
                best = j;
        if (best >= 0) {
            *out = moves[best];
            return true;
        }
    }
    return false;
}

bool ak_ai_choose(struct ak_ai *ai, const struct ak_state *s, struct ak_action *out)
{
    if (s->phase == AK_PHASE_OVER)
        return false;
    new_part(ai, s);
    ai->steps++;
    int n = ak_legal_actions(s, 0, list, LIST_MAX);
    bool ok = ai->level == AK_AI_RANDOM ? random_choice(ai, s, n, out)
              : ai->steps > STEP_LIMIT  ? wind_up(ai, s, n, out)
                                        : searched_choice(ai, s, n, out);
    struct ak_reject rej;
    if (ok && ak_try(s, out, &rej)) {
        ai->cancelled |= out->kind == AK_ACT_CANCEL;
        return true;
    }
    /* a stack over the limit holds the part open: thinned first, before
     * anything listed (placing more there would not help) */
    if (thin_stack(s, out) && ak_try(s, out, &rej))
        return true;
    /* never an illegal action: the first legal one listed that is neither
     * a resignation nor, while anything else is left, a battle called off
     * (calling off what was just declared, then declaring it again, would
     * go round for ever), nor, once one was called off, a battle declared
     * again: where no set of battles meets what the rules oblige and the
     * engine's search finds no way, the units that cannot attack are
     * removed (ATTACKING 6) */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++)
            if (list[i].kind != AK_ACT_RESIGN &&
                (pass || (list[i].kind != AK_ACT_CANCEL && !ak_ai_crowds(s, &list[i]) &&
                          !(ai->cancelled && list[i].kind == AK_ACT_BATTLE))) &&
                ak_try(s, &list[i], &rej)) {
                *out = list[i];
                ai->cancelled |= out->kind == AK_ACT_CANCEL;
                return true;
            }
    return way_forward(ai, s, out);
}
