/* ak_ai_rollout: a light player for playouts (issue 31): random games to
 * the end, fast, for a search that values positions by playing them out
 * and for the engine's games-per-second figure (scripts/bench).
 *
 * Where the AI's levels weigh every unit's every destination, a playout
 * needs many games more than good ones: each part of a turn it places
 * what arrives (a side that left its supply in the pool would lose every
 * unit in two turns, ISOLATION 1, and the games would be short and
 * meaningless), brings its supply units up behind the front, moves up to
 * eight units chosen at random by random walks (see walk_move; stacks
 * kept within the limit; into an enemy zone only near a supply unit;
 * supply units never next to the enemy, nor moved while a combat unit
 * that moved into an enemy zone this turn needs them, so that no unit is
 * left beyond supply, SUSTAIN ATTACKS 2 and LOGISTICS, MOVEMENT 5),
 * declares up to three of the battles on offer (each with two chances in
 * three), puts a unit the rules oblige to attack in a battle,
 * fights the declared battles in order (calling off one the rules want
 * more of), answers each decision at random
 * among the legal answers, and ends the part. When the rules will not let
 * it end (a unit that must attack, a supply unit out of reach), it follows
 * the engine's own way forward (ak_way_forward_path) to the end, as the
 * AI's levels do. Every action goes through ak_apply: an action the rules
 * refuse is never played. It never lists every unit's moves, where the
 * test suite's random player spends its time (the placements come from
 * their lister alone, decisions from ak_legal_actions without moves).
 * Deterministic for a seed. */
#include "ak_ai_internal.h"
#include "ak_lister.h"
#include "ak_query.h"
#include "ak_zoc.h"

#include <string.h>

#include <stddef.h>

#define ROLLOUT_LIST 1024
#define MOVES_MAX 8         /* units moved at most in one part of a turn */
#define PLACE_TRIES 12       /* placements at most in one part */
#define EXTRA_MOVES 12      /* moves more in a part that cannot end yet, before the engine's way */
#define ENDING_TRIES 400    /* moves tried for one after which the part can end */
#define MOVE_TRIES 4        /* destinations tried for one unit the rules let go there */
#define BATTLES_MAX 3       /* battles declared at most in one combat part */

struct rollout {
    struct ak_state *s;
    struct ak_rng rng;
    int applied, max;
    /* the side's view at the start of this part of the turn: the squares
     * next to an enemy unit and the enemy combat units' squares (the
     * side's own moves change neither), and the front (kept for the part
     * as it was then: where its supply is wanted) */
    uint8_t near[AK_HEX_COUNT];
    ak_hex foe[AK_UNIT_MAX];
    int nfoes;
    ak_hex front;
};

static int pick(struct rollout *ro, int n)
{
    return n <= 1 ? 0 : (int)(ak_rng_next(&ro->rng) % (uint64_t)n);
}

static bool play(struct rollout *ro, const struct ak_action *a)
{
    if (ro->applied >= ro->max || !ak_apply(ro->s, a, NULL, NULL))
        return false;
    ro->applied++;
    return true;
}

/* The engine's way to the end of this part of the turn, followed. */
static bool way_forward(struct rollout *ro)
{
    static struct ak_action path[AK_AI_PLAN_MAX];
    int n = ak_way_forward_path(ro->s, 4000, path, AK_AI_PLAN_MAX);
    for (int i = 0; i < n; i++)
        if (!play(ro, &path[i]))
            return false;
    return n > 0;
}

/* The destination of `moves` nearest an enemy combat unit. */
static int nearest_enemy(const struct rollout *ro, const struct ak_action *moves, int n)
{
    int best = 0, best_d = 1 << 20;
    for (int e = 0; e < ro->nfoes; e++)
        for (int i = 0; i < n; i++) {
            int d = ak_hex_distance(ro->foe[e], moves[i].hex);
            if (d < best_d) {
                best_d = d;
                best = i;
            }
        }
    return best;
}

/* A unit of the side to move that may still move, picked at random;
 * crowded: one from a square over the stacking limit (the opening's W6
 * holds eight), which must be thinned before the part can end. */
static int movable_unit(struct rollout *ro, bool crowded)
{
    const struct ak_state *s = ro->s;
    if (crowded) {
        uint8_t units[AK_UNIT_MAX];
        int n = ak_ai_crowded_units(s, units, AK_UNIT_MAX);
        if (n > 0)
            return units[pick(ro, n)];
    }
    for (int tries = 0; tries < 8; tries++) {
        int u = pick(ro, s->units);
        if (ak_ai_may_move(s, u))
            return u;
    }
    return -1;
}

/* The moves of `list` a careful random player makes: combat units where
 * the stack keeps within the limit, into an enemy zone only near a supply
 * unit; supply units away from the enemy, and not while a combat unit
 * moved into an enemy zone this turn (one moved away could leave it
 * beyond reach). Kept in place; how many. */
static int careful(const struct ak_state *s, const uint8_t *near, int u, struct ak_action *list, int n)
{
    static uint8_t own[AK_HEX_COUNT];
    int limit = ak_ai_stack_limit(s), k = 0;
    bool combat = ak_unit_is_combat(ak_def(u)), engaged = false;
    /* One pass over the side's units: own combat units per square (for a
     * single move only on its square, where a walk asks), whether one
     * moved into a zone this turn (SUSTAIN ATTACKS 2 holds it to its
     * supply), and the supply units' squares. */
    ak_hex supply[16];
    int nsupply = 0, at_one = 0;
    if (n > 1)
        memset(own, 0, sizeof own);
    for (int v = 0; v < s->units; v++) {
        const struct ak_unit *x = &s->unit[v];
        if (ak_def(v)->side != s->side || x->where != AK_AT_BOARD)
            continue;
        if (ak_unit_is_combat(ak_def(v))) {
            engaged |= near[x->hex] && (x->flags & AK_U_MOVED);
            if (n > 1)
                own[x->hex]++;
            else
                at_one += n == 1 && x->hex == list[0].hex;
        } else if (ak_def(v)->type == AK_TYPE_SUPPLY && nsupply < 16) {
            supply[nsupply++] = x->hex;
        }
    }
    if (!combat && engaged)
        return 0;
    /* into an enemy zone only within 5 squares of an own supply unit (as
     * the crow flies: the rules count a route free of enemy zones, which
     * the engine checks; this keeps the playout from moves only a later
     * supply move could make good) */
    for (int i = 0; i < n; i++) {
        ak_hex h = list[i].hex;
        bool fed = !near[h];
        for (int j = 0; j < nsupply && !fed; j++)
            fed = ak_hex_distance(h, supply[j]) <= 5;
        if (combat ? (n > 1 ? own[h] : at_one) < limit && fed : !near[h])
            list[k++] = list[i];
    }
    return k;
}

/* The square of the enemy combat unit nearest h, or AK_HEX_NONE. */
static ak_hex nearest_enemy_square(const struct rollout *ro, ak_hex h)
{
    ak_hex best = AK_HEX_NONE;
    int best_d = 1 << 20;
    for (int e = 0; e < ro->nfoes; e++) {
        int d = ak_hex_distance(ro->foe[e], h);
        if (d < best_d) {
            best_d = d;
            best = ro->foe[e];
        }
    }
    return best;
}

/* The side's view at the start of a movement part: the squares next to
 * an enemy unit, the enemy combat units' squares, and the front (the
 * square of the side's combat unit nearest an enemy combat unit, where
 * its supply is wanted; AK_HEX_NONE without one). */
static void view_part(struct rollout *ro)
{
    const struct ak_state *s = ro->s;
    ak_mark_near_enemy(s, s->side, ro->near);
    ro->nfoes = 0;
    for (int e = 0; e < s->units; e++)
        if (ak_def(e)->side != s->side && ak_on_board(s, e) && ak_unit_is_combat(ak_def(e)))
            ro->foe[ro->nfoes++] = s->unit[e].hex;
    ro->front = AK_HEX_NONE;
    int best_d = 1 << 20;
    for (int u = 0; u < s->units; u++) {
        if (ak_def(u)->side != s->side || !ak_on_board(s, u) || !ak_unit_is_combat(ak_def(u)))
            continue;
        ak_hex foe = nearest_enemy_square(ro, s->unit[u].hex);
        if (foe != AK_HEX_NONE && ak_hex_distance(foe, s->unit[u].hex) < best_d) {
            best_d = ak_hex_distance(foe, s->unit[u].hex);
            ro->front = s->unit[u].hex;
        }
    }
}

/* A move by a random walk, the engine judging it: up to the unit's
 * movement in steps, each through an open side of the square (two times
 * in three the one that comes nearest an enemy combat unit, for a supply
 * unit the own combat unit nearest the enemy), stopping where
 * the rules stop a unit (an enemy zone); the action carries its path, so
 * ak_apply checks it step by step instead of listing every destination.
 * The careful player's rules apply to where it ends. */
static bool walk_move(struct rollout *ro, int u, struct ak_action *a)
{
    const struct ak_state *s = ro->s;
    const struct ak_map *m = ak_map();
    const uint8_t *near = ro->near;
    bool combat = ak_unit_is_combat(ak_def(u));
    /* combat units toward the nearest enemy, supply units to the front */
    ak_hex h = s->unit[u].hex, target = combat ? nearest_enemy_square(ro, h) : ro->front;
    bool toward = pick(ro, 3) > 0 && target != AK_HEX_NONE;
    int steps = 1 + pick(ro, ak_def(u)->movement > 0 ? ak_def(u)->movement : 1);
    *a = (struct ak_action){.kind = AK_ACT_MOVE, .side = (uint8_t)s->side, .nunits = 1, .hex = AK_HEX_NONE,
                            .supply = AK_UNIT_NONE};
    a->units[0] = (uint8_t)u;
    for (int i = 0; i < steps && a->npath < AK_PATH_MAX; i++) {
        int dir = -1, best = 1 << 20, seen = 0;
        for (int d = 0; d < AK_DIRS; d++) {
            if (!(m->open[h] & (1u << d)))
                continue;
            ak_hex to = ak_hex_step(h, d);
            int dist = toward ? ak_hex_distance(to, target) : 0;
            if (toward ? dist < best : pick(ro, ++seen) == 0) {
                best = dist;
                dir = d;
            }
        }
        if (dir < 0)
            break;
        if (toward && !combat && ak_hex_distance(h, target) <= 1)
            break;      /* supply: beside the front is close enough */
        h = ak_hex_step(h, dir);
        a->path[a->npath++] = h;
        if (near[h] && (!combat || i + 1 < steps))
            break;      /* a zone stops it (the engine says so too); supply keeps out */
    }
    if (a->npath == 0 || (!combat && near[h]))
        return false;
    a->hex = h;
    return true;
}

/* A walk of unit u played where the careful player allows it; a walk the
 * rules refuse (a stop the walk does not know of: an escarpment in the
 * 1964 rules, a square its movement points do not reach in the Updated
 * ones) is cut to the first half of its path and tried again, so that
 * the walk needs no ruleset's terrain rules. */
static bool play_walk(struct rollout *ro, int u)
{
    struct ak_action walk;
    if (!walk_move(ro, u, &walk))
        return false;
    while (walk.npath > 0) {
        walk.hex = walk.path[walk.npath - 1];
        if (careful(ro->s, ro->near, u, &walk, 1) == 1 && play(ro, &walk))
            return true;
        walk.npath /= 2;
    }
    return false;
}

/* One unit moved: by a walk (a few tried), else to a random destination of its list, or
 * half the time the one nearest an enemy combat unit, a few tried when the
 * rules refuse one. False when none could. */
static bool move_one(struct rollout *ro, bool crowded)
{
    static struct ak_action list[ROLLOUT_LIST];
    int u = movable_unit(ro, crowded);
    for (int walk = 0; walk < MOVE_TRIES && u >= 0; walk++)    /* walks first: no list of every destination */
        if (play_walk(ro, u))
            return true;
    uint8_t one = (uint8_t)u;
    int n = u < 0 ? 0 : ak_untried_moves(ro->s, &one, 1, list, ROLLOUT_LIST);     /* untried: play judges */
    n = n > 0 ? careful(ro->s, ro->near, u, list, n) : 0;
    for (int tries = 0; tries < MOVE_TRIES && n > 0; tries++) {
        int i = pick(ro, 2) ? pick(ro, n) : nearest_enemy(ro, list, n);
        if (play(ro, &list[i]))
            return true;
        list[i] = list[--n];
    }
    return false;
}

/* One of list[0..n) played, picked at random, each tried at most once
 * until the rules accept one (an untried list of placements holds squares
 * the side cannot use: a port it does not hold, the Updated ruleset's
 * off-board box in the 1964 rules; a refusal costs the engine's first
 * checks only). */
static bool play_one_of(struct rollout *ro, struct ak_action *list, int n)
{
    while (n > 0) {
        int i = pick(ro, n);
        if (play(ro, &list[i]))
            return true;
        list[i] = list[--n];
    }
    return false;
}

/* What arrives placed, each on a random square of those the ruleset's
 * lister gives untried (a stack over the limit is thinned before the part
 * ends: the crowded moves). */
static void place_arrivals(struct rollout *ro)
{
    static struct ak_action list[ROLLOUT_LIST];
    void (*placements)(struct ak_lister *) = ak_ruleset_get(ro->s->ruleset)->list[AK_ACT_PLACE];
    for (int i = 0; placements && (ak_possible_actions(ro->s) & (1u << AK_ACT_PLACE)) && i < PLACE_TRIES; i++) {
        struct ak_lister l = {ro->s, list, 0, ROLLOUT_LIST, .untried = true};  /* the placements alone */
        placements(&l);
        if (!play_one_of(ro, list, l.n))
            break;
    }
}

/* What arrives placed, the supply units brought up behind the front
 * (every one, each part: the playout's battles need supply within five
 * squares), then a few units moved. */
static void move_part(struct rollout *ro)
{
    place_arrivals(ro);
    for (int u = 0; u < ro->s->units; u++)
        if (ak_def(u)->type == AK_TYPE_SUPPLY && ak_ai_may_move(ro->s, u))
            play_walk(ro, u);
    int moves = pick(ro, MOVES_MAX + 1);
    for (int i = 0; i < moves; i++) {
        int u = movable_unit(ro, false);
        if (u >= 0)
            play_walk(ro, u);
    }
}

/* The part cannot end (a unit in an enemy zone beyond supply, SUSTAIN
 * ATTACKS 2; a supply unit left next to the enemy): the first move after
 * which the ending action is legal, played; supply units' moves first
 * (they are what brings a unit within reach), then the others', units
 * taken from a random one on; at most ENDING_TRIES tried. */
static bool move_to_end(struct rollout *ro, const struct ak_action *end)
{
    static struct ak_action list[ROLLOUT_LIST];
    static struct ak_state after;
    const struct ak_state *s = ro->s;
    int tries = 0, first = pick(ro, s->units);
    for (int i = 0; i < 2 * s->units && tries < ENDING_TRIES; i++) {
        int u = (first + i) % s->units;
        bool supply = ak_def(u)->type == AK_TYPE_SUPPLY;
        if (!ak_ai_may_move(s, u) || supply != (i < s->units))
            continue;
        uint8_t one = (uint8_t)u;
        int n = ak_untried_moves(s, &one, 1, list, ROLLOUT_LIST);
        for (int j = 0; j < n && tries < ENDING_TRIES; j++, tries++) {
            after = *s;
            if (ak_apply(&after, &list[j], NULL, NULL) && ak_try(&after, end, NULL))
                return play(ro, &list[j]);
        }
    }
    return false;
}

/* Whether a combat unit of the side to move stands next to an enemy unit:
 * else there is no battle to list. */
static bool in_contact(struct rollout *ro)
{
    const struct ak_state *s = ro->s;
    ak_mark_near_enemy(s, s->side, ro->near);
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == s->side && ak_on_board(s, u) && ak_unit_is_combat(ak_def(u)) &&
            ro->near[s->unit[u].hex])
            return true;
    return false;
}

/* ATTACKING 6: a unit that must attack and is in no battle yet: a battle
 * on offer that takes it in, declared (else the abandonment the rules
 * give a unit that cannot attack at 1-6). False when neither is offered. */
static bool owed_battle(struct rollout *ro)
{
    static struct ak_action list[ROLLOUT_LIST];
    const struct ak_state *s = ro->s;
    uint8_t owed[AK_GROUP_MAX];
    int nowed = ak_query_owed(s, owed, AK_GROUP_MAX);
    if (nowed == 0)
        return false;
    int n = ak_query_battles(s, list, ROLLOUT_LIST);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < list[i].nunits; j++)
            if (list[i].units[j] == owed[0])
                return play(ro, &list[i]);
    struct ak_action abandon = {.kind = AK_ACT_ABANDON, .side = (uint8_t)s->side, .nunits = 1, .hex = AK_HEX_NONE,
                                .supply = AK_UNIT_NONE};
    abandon.units[0] = owed[0];
    return play(ro, &abandon);
}

/* The first declared battle not fought yet, or -1. */
static int unfought(const struct ak_state *s)
{
    for (int b = 0; b < s->nbattles; b++)
        if (!s->battle[b].resolved)
            return b;
    return -1;
}

/* One step of the playout; false when it cannot go on. */
static bool step(struct rollout *ro, bool *moved, int *declared, int *extra)
{
    static struct ak_action list[ROLLOUT_LIST];
    struct ak_state *s = ro->s;
    if (s->pending.kind) {      /* a decision: any legal answer */
        int n = ak_legal_actions(s, 0, list, ROLLOUT_LIST);
        return n > 0 ? play(ro, &list[pick(ro, n)]) : way_forward(ro);
    }
    unsigned kinds = ak_possible_actions(s);
    if ((kinds & (1u << AK_ACT_MOVE)) && !*moved) {
        *moved = true;
        view_part(ro);
        move_part(ro);
        return true;
    }
    if ((kinds & (1u << AK_ACT_BATTLE)) && *declared < BATTLES_MAX && !s->combat_locked) {
        int n = pick(ro, 3) && in_contact(ro) ? ak_query_battles(s, list, ROLLOUT_LIST) : 0;
        *declared = n > 0 && play(ro, &list[pick(ro, n)]) ? *declared + 1 : BATTLES_MAX;
        return true;
    }
    int b = unfought(s);
    if (b >= 0 && (kinds & (1u << AK_ACT_RESOLVE))) {
        struct ak_action fight = {.kind = AK_ACT_RESOLVE, .side = s->side, .battle = (uint8_t)b,
                                  .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
        if (play(ro, &fight))
            return true;
        /* not to be fought as declared (another enemy unit its attackers
         * stand next to must be fought too, MULTIPLE UNIT BATTLES 3):
         * called off while combat has not started */
        fight.kind = AK_ACT_CANCEL;
        if (!s->combat_locked && play(ro, &fight))
            return true;
    }
    struct ak_action end = {.kind = (uint8_t)ak_ending_action(s), .side = (uint8_t)s->side, .hex = AK_HEX_NONE,
                            .supply = AK_UNIT_NONE};
    if (play(ro, &end))
        return true;
    /* the part cannot end yet: more moves while they may help (a crowded
     * square thinned first), then the engine's way */
    if ((kinds & (1u << AK_ACT_MOVE)) && (*extra)++ < EXTRA_MOVES && move_one(ro, true))
        return true;
    if ((kinds & (1u << AK_ACT_BATTLE)) && (*extra)++ < EXTRA_MOVES && owed_battle(ro))
        return true;
    return ((kinds & (1u << AK_ACT_MOVE)) && move_to_end(ro, &end)) || way_forward(ro);
}

int ak_ai_rollout(struct ak_state *s, uint64_t seed, int max_actions)
{
    struct rollout ro = {.s = s, .max = max_actions};
    ak_rng_seed(&ro.rng, seed);
    int turn = -1, side = -1, phase = -1;
    bool moved = false;
    int extra = 0, declared = 0;
    while (s->phase != AK_PHASE_OVER && ro.applied < ro.max) {
        if (s->turn != turn || s->side != side || s->phase != phase) {
            turn = s->turn;
            side = s->side;
            phase = s->phase;
            moved = false;
            extra = declared = 0;
        }
        if (!step(&ro, &moved, &declared, &extra))
            return ro.applied >= ro.max ? ro.applied : -1;    /* the cap met inside a step is no dead end */
    }
    return ro.applied;
}
