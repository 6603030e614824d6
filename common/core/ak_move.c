/* ak_move: movement by squares (the 1964 rules: one square per movement
 * factor, the Coast Road bonus, Rommel's bonus, halts in zones and on
 * escarpments), the dispatch to the state's ruleset, and the execution of
 * a move that both ways of moving share (positions, captures on the way). */
#include "ak_move.h"

#include <string.h>

#include "ak_capture.h"
#include "ak_move_internal.h"
#include "ak_stacking.h"
#include "ak_zoc.h"

/* What one step means for the moving stack. */
enum step_flag { STEP_ROAD = 1, STEP_HALT = 2, STEP_NO_STOP = 4 };

#define ROAD_MAX 16     /* road steps a search tells apart (the 1964 bonus is 10) */

/* Everything the step rule needs about the moving stack and the board,
 * computed once per move or search. */
struct group {
    const struct ak_state *s;
    int side, n;
    const uint8_t *units;
    ak_hex start;
    bool combat;            /* at least one combat unit: may capture */
    int ncombat;            /* how many: the stacking limit */
    bool rommel;            /* Rommel moves with the stack */
    bool escarpment_start;  /* ESCARPMENT 5: began the turn here, unmoved */
    int mp[AK_GROUP_MAX], road[AK_GROUP_MAX], bonus[AK_GROUP_MAX];
    int max_road;
    int clear_limit[ROAD_MAX];      /* with r road steps (r < ROAD_MAX), at most this many others */
    bool relax_halts, relax_cost;   /* for explaining why a square is out of reach */
    ak_hex target;          /* a route search: prune squares too far from it */
    int budget;             /* the most squares any unit of the stack can go */
    const struct ak_map *m;
    struct ak_move_board b;         /* zones and enemies, square by square */
};

static struct group G;   /* the static work area (see ak_move.h) */

static void mark_enemies(struct group *g)
{
    ak_move_board_mark(g->s, g->side, &g->b);
}

static bool group_init(struct group *g, const struct ak_ruleset *r, const struct ak_state *s,
                       int side, const uint8_t *units, int n)
{
    g->s = s;
    g->m = ak_map();
    g->side = side;
    g->units = units;
    g->n = n;
    g->start = s->unit[units[0]].hex;
    g->combat = g->rommel = false;
    g->ncombat = ak_move_combat_count(units, n);
    g->max_road = 0;
    bool unmoved = true;
    for (int i = 0; i < n; i++) {
        const struct ak_unit_def *d = ak_def(units[i]);
        g->combat |= ak_unit_is_combat(d);
        g->rommel |= d->type == AK_TYPE_HEADQUARTERS;
        const struct ak_unit *x = &s->unit[units[i]];
        unmoved &= !(x->flags & AK_U_MOVED) && x->hex == x->start_hex;
    }
    for (int i = 0; i < n; i++) {
        const struct ak_unit *x = &s->unit[units[i]];
        const struct ak_unit_def *d = ak_def(units[i]);
        g->mp[i] = d->movement - x->mp_spent;
        g->road[i] = r->road_bonus - x->road_spent;
        g->bonus[i] = (g->rommel && d->type != AK_TYPE_HEADQUARTERS)
                          ? r->rommel_bonus - x->rommel_spent : 0;
        if (g->road[i] > g->max_road)
            g->max_road = g->road[i];
    }
    for (int road = 0; road < ROAD_MAX; road++) {
        g->clear_limit[road] = 1 << 20;
        for (int i = 0; i < n; i++) {
            int extra = road > g->road[i] ? road - g->road[i] : 0;
            if (g->mp[i] + g->bonus[i] - extra < g->clear_limit[road])
                g->clear_limit[road] = g->mp[i] + g->bonus[i] - extra;
        }
    }
    g->target = AK_HEX_NONE;
    g->budget = 0;
    for (int i = 0; i < n; i++)
        if (g->mp[i] + g->bonus[i] + g->road[i] > g->budget)
            g->budget = g->mp[i] + g->bonus[i] + g->road[i];
    g->relax_halts = g->relax_cost = false;
    g->escarpment_start = unmoved && ak_map()->terrain[g->start] == AK_TERRAIN_ESCARPMENT;
    mark_enemies(g);
    return true;
}

/* Can every unit of the stack pay for `road` road steps and `clear` other
 * steps? Road steps beyond a unit's bonus are paid as ordinary squares. */
static bool affordable(const struct group *g, int road, int clear)
{
    for (int i = 0; i < g->n; i++) {
        int extra = road > g->road[i] ? road - g->road[i] : 0;
        if (clear + extra > g->mp[i] + g->bonus[i])
            return false;
    }
    return true;
}

/* The step rule's verdict for a step to `to`, the neighbour of `from` in
 * direction dir that the map leaves open (ak_map.open). prev is the square
 * before `from` if the step into `from` was a road step (else
 * AK_HEX_NONE); index is the step's number in this move. Returns STEP_*
 * flags, or -1. No words: the search tries many steps that fail and wants
 * only this (step_check gives the words). */
static inline int step_flags(const struct group *g, ak_hex prev, ak_hex from, int dir, ak_hex to, int index)
{
    if (!ak_move_step_allowed(&g->b, g->combat, to))
        return -1;
    if (index == 0 && g->b.zoc[from] && g->b.zoc[to] && ak_same_enemy_zoc(g->s, from, to, g->side))
        return -1;
    const struct ak_map *m = g->m;
    int flags = 0;
    if ((m->road[from] & (1u << dir)) && !(prev != AK_HEX_NONE && ak_move_junction_breaks(prev, from, to)))
        flags |= STEP_ROAD;
    if (g->b.zoc[to])
        flags |= STEP_HALT;
    bool escarpment_exit = index == 0 && g->escarpment_start && m->road[to];
    if (m->terrain[to] == AK_TERRAIN_ESCARPMENT && !(flags & STEP_ROAD) && !escarpment_exit)
        flags |= STEP_HALT;
    if (g->b.enemy[to] & ENEMY_PASSABLE)
        flags |= STEP_NO_STOP;
    return flags;
}

/* The step rule for any two squares, with the reason when it fails (into
 * *rej unless NULL): the map and the enemy units first, then what
 * step_flags adds to them, the zone rule of a stack's first step. */
#define STEP_REJECT(rej, ...) ((rej) ? (ak_reject((rej), __VA_ARGS__), -1) : -1)

static int step_check(const struct group *g, ak_hex prev, ak_hex from, ak_hex to, int index,
                      struct ak_reject *rej)
{
    char a[8], b[8];
    if (!ak_move_step_basic(&g->b, g->combat, from, to, rej))
        return -1;
    int f = step_flags(g, prev, from, ak_hex_dir(from, to), to, index);
    if (f < 0)
        return STEP_REJECT(rej, "ATTACKING-2", "from %s the stack may leave the enemy zone but not step into %s, which the same enemy unit controls",
                         ak_hex_format(from, a), ak_hex_format(to, b));
    return f;
}

static const char *halt_code(const struct group *g, ak_hex h)
{
    return g->b.zoc[h] ? "ATTACKING-1" : "ESCARPMENT-2";
}

bool ak_move_group_ok(const struct ak_state *s, int side, const uint8_t *units, int n,
                      struct ak_reject *rej)
{
    if (n < 1 || n > AK_GROUP_MAX)
        return ak_reject(rej, "ACTION", "name one to %d units to move", AK_GROUP_MAX);
    for (int i = 0; i < n; i++) {
        int u = units[i];
        if (u >= s->units)
            return ak_reject(rej, "ACTION", "unknown unit");
        const struct ak_unit *x = &s->unit[u];
        const char *name = ak_def(u)->shortname;
        for (int j = 0; j < i; j++)
            if (units[j] == u)
                return ak_reject(rej, "ACTION", "%s is named twice", name);
        if (ak_def(u)->side != side)
            return ak_reject(rej, "MOVE-1", "%s is not your unit", name);
        if (x->where != AK_AT_BOARD)
            return ak_reject(rej, "MOVE-1", "%s is not on the board", name);
        if (x->hex != s->unit[units[0]].hex)
            return ak_reject(rej, "STACK-4", "%s is not in the same square as %s; a stack moves from one square",
                             name, ak_def(units[0])->shortname);
        if (x->flags & AK_U_HALTED) {
            bool zoc = ak_in_enemy_zoc(s, x->hex, side);
            return ak_reject(rej, zoc ? ak_ruleset_get(s->ruleset)->zoc_halt_code : "ESCARPMENT-2",
                             "%s has stopped for this turn: it %s", name,
                             zoc ? "entered an enemy zone of control" : "landed on an escarpment");
        }
        if (x->flags & AK_U_NO_MOVE)
            return ak_reject(rej, "MOVE-7", "%s may not move this turn", name);
        if (x->marks & AK_MARK_FORTIFIED)   /* the Updated ruleset's boxes */
            return ak_reject(rej, "UPD-BOX", "%s built a box this turn: box builders remain stationary for "
                             "their whole player turn", name);
    }
    return true;
}

/* ---- the destination search ------------------------------------------
 * Breadth-first over states (square, road steps so far, how the square was
 * entered). Every step adds one to road+clear, so the first visit of a
 * state has the fewest clear steps for its road count. */

enum { VIA_NONE = 0, VIA_ROAD = 1, VIA_HALT = 2 };
/* How a state is told apart from others on the same square with the same
 * road steps: its way in, and at a road junction also the side it came
 * through by road (the next step's road depends on it). */
#define VIAS (3 + AK_DIRS)
#define STATES (AK_HEX_COUNT * ROAD_MAX * VIAS)

struct search {
    uint32_t stamp[STATES];
    uint32_t generation;
    int32_t slot[STATES];
    int count;
    struct node {
        ak_hex hex;
        uint8_t road, clear, via, depth;
        int32_t parent;
    } node[STATES / 4];
};

static struct search S;

/* Dominance pruning: a new state is explored only if no earlier state on
 * its square, one that may go on (or any state, for a state that halts),
 * is at least as good; at a road junction the way in matters, so nothing
 * is pruned there. Two ways to tell "as good", kept apart for states that
 * may go on and for all states:
 *
 * The route search (P): per square and road count, the fewest clear steps
 * reached so far with at most that many road steps (a prefix minimum): an
 * earlier state with no more road and no more clear steps.
 *
 * The breadth-first search (F) keeps one level only: there a state (depth t =
 * road + clear, clear c) dominates every later one on its square with no
 * fewer clear steps. Every later state has t' >= t, and for each unit with
 * R road bonus left, a continuation of x road and y other steps costs
 * c + y + max(0, road + x - R), which grows with c and with c + road = t
 * (road beyond the search's cap is already counted as clear). So the road
 * count drops out, and one number per square prunes what the prefix
 * arrays did and more (an opening unit: about a quarter of the tried
 * steps fewer), kept flat (F: one byte a square; F.any reset by one memset,
 * F.go_on written by classify_squares).
 * The route search goes in A* order, where depth may fall, and keeps every
 * level (P). Junction squares are never lowered in F and never tested in
 * P, so nothing is pruned there. */
static struct {
    bool flat;                      /* the breadth-first search: F, else P */
    uint8_t go_on[AK_HEX_COUNT], any[AK_HEX_COUNT];
} F;

static struct {
    int levels;                     /* the route search's road cap + 1 */
    uint32_t generation[AK_HEX_COUNT];
    uint8_t go_on[AK_HEX_COUNT][ROAD_MAX];
    uint8_t any[AK_HEX_COUNT][ROAD_MAX];
} P;

static void lower_from(uint8_t *prefix, int road, int clear)
{
    for (int r = road; r < P.levels && prefix[r] > clear; r++)
        prefix[r] = (uint8_t)clear;
}

static void pareto_begin(bool flat, int road_cap)
{
    F.flat = flat;
    if (flat)       /* F.go_on: classify_squares, which marks the refused squares too */
        memset(F.any, 0xff, sizeof F.any);
    P.levels = road_cap + 1;
}

/* Is h already reached, by a state that may go on, with no more road and
 * clear steps than (road, clear)? Then no step from (road, clear) into h
 * can be admitted (a step adds to one of them), and the search skips the
 * step's checks. */
static inline bool pareto_covered(const struct ak_map *m, ak_hex h, int road, int clear)
{
    if (F.flat)
        return F.go_on[h] <= clear;
    return P.generation[h] == S.generation && !m->is_junction[h] && P.go_on[h][road] <= clear;
}

static inline bool pareto_admit(const struct ak_map *m, ak_hex h, int road, int clear, bool halted)
{
    if (F.flat) {
        if ((halted ? F.any[h] : F.go_on[h]) <= clear)
            return false;
        if (!m->is_junction[h]) {
            if (F.any[h] > clear)
                F.any[h] = (uint8_t)clear;
            if (!halted)
                F.go_on[h] = (uint8_t)clear;
        }
        return true;
    }
    if (P.generation[h] != S.generation) {
        P.generation[h] = S.generation;
        memset(P.go_on[h], 0xff, ROAD_MAX);   /* one store: cheaper than the levels in use */
        memset(P.any[h], 0xff, ROAD_MAX);
    }
    if (!m->is_junction[h] && (halted ? P.any[h][road] : P.go_on[h][road]) <= clear)
        return false;
    lower_from(P.any[h], road, clear);
    if (!halted)
        lower_from(P.go_on[h], road, clear);
    return true;
}

static int state_key(ak_hex h, int road, int via, int parent)
{
    if (via == VIA_ROAD && parent >= 0 && ak_map()->is_junction[h])
        via = 3 + ak_hex_dir(S.node[parent].hex, h);
    return (h * ROAD_MAX + road) * VIAS + via;
}

static inline int append_node(ak_hex h, int road, int clear, int via, int depth, int parent)
{
    struct node *nd = &S.node[S.count];
    nd->hex = h;
    nd->road = (uint8_t)road;
    nd->clear = (uint8_t)clear;
    nd->via = (uint8_t)via;
    nd->depth = (uint8_t)depth;
    nd->parent = parent;
    return S.count++;
}

static inline int visit(const struct ak_map *m, ak_hex h, int road, int clear, int via, int depth, int parent)
{
    if (S.count >= (int)(sizeof S.node / sizeof S.node[0]))
        return -1;
    /* At a road junction, one node per (road steps, way in), the one with
     * the fewest clear steps: the breadth-first search meets that one
     * first, the route search (A* order) may meet a costlier one first.
     * Elsewhere pareto_admit has already refused every state this would. */
    if (m->is_junction[h]) {
        int key = state_key(h, road, via, parent);
        if (S.stamp[key] == S.generation && S.node[S.slot[key]].clear <= clear)
            return -1;
        S.stamp[key] = S.generation;
        S.slot[key] = S.count;
    }
    return append_node(h, road, clear, via, depth, parent);
}

/* squares_destinations's marks of the current generation: a square's
 * first node seen, a square's destination written. */
static struct {
    uint32_t seen[AK_HEX_COUNT], written[AK_HEX_COUNT];
} marks;

static void search_begin(void)
{
    if (++S.generation == 0) {      /* every mark of a generation, cleared when it wraps */
        memset(S.stamp, 0, sizeof S.stamp);
        memset(P.generation, 0, sizeof P.generation);
        memset(&marks, 0, sizeof marks);
        S.generation = 1;
    }
    S.count = 0;
}

static int road_cap_of(const struct group *g)
{
    return g->max_road < ROAD_MAX - 1 ? g->max_road : ROAD_MAX - 1;
}

/* Visit the squares one step from node i. */
static void expand(const struct group *g, int i, int road_cap)
{
    struct node cur = S.node[i];
    if (cur.via == VIA_HALT || cur.depth + 1 >= AK_PATH_MAX)
        return;
    ak_hex prev = cur.via == VIA_ROAD ? S.node[cur.parent].hex : AK_HEX_NONE;
    unsigned open = g->m->open[cur.hex];
    /* A route search skips squares too far from the target for what is
     * left; neighbours are at most one nearer, so only a node near the
     * limit needs the test per neighbour. */
    int left = g->budget - cur.depth - 1;
    bool near_limit = g->target != AK_HEX_NONE && ak_hex_distance(cur.hex, g->target) + 1 > left;
    for (; open; open &= open - 1) {       /* the open sides only */
        int dir = __builtin_ctz(open);
        ak_hex to = ak_hex_step(cur.hex, dir);
        if (pareto_covered(g->m, to, cur.road, cur.clear))
            continue;
        if (near_limit && ak_hex_distance(to, g->target) > left)
            continue;
        int f = step_flags(g, prev, cur.hex, dir, to, cur.depth);
        if (f < 0)
            continue;
        int road = cur.road, clear = cur.clear;
        if ((f & STEP_ROAD) && road < road_cap)
            road++;
        else
            clear++;
        if (!g->relax_cost && clear > g->clear_limit[road])   /* affordable(), road < ROAD_MAX here */
            continue;
        if (g->relax_halts)
            f &= ~STEP_HALT;
        int via = (f & STEP_HALT) ? VIA_HALT : (f & STEP_ROAD) ? VIA_ROAD : VIA_NONE;
        if (pareto_admit(g->m, to, road, clear, via == VIA_HALT))
            visit(g->m, to, road, clear, via, cur.depth + 1, i);
    }
}

/* ---- the breadth-first search's own loop ----------------------------
 * expand() asks step_flags and the pareto_ and visit helpers, which serve
 * every search and the checks of a given path. The breadth-first search
 * lists every destination of every unit the AI and the listers look at,
 * so after its first step (which alone has the zone and escarpment rules
 * of a stack's first step) it reads one byte a square instead: what the
 * enemy units, the zones, the escarpments and the junctions make of it
 * for this stack, classified once a search (a pass the compiler
 * vectorises), and a square the stack may not enter starts as already
 * reached (F.go_on 0), so one test skips it. The verdicts are
 * step_flags's and pareto_admit's, checked by the same destinations and
 * paths over random games (docs/performance.md). */
enum { SQ_REFUSED = 1, SQ_HALT = 2, SQ_ESCARPMENT = 4, SQ_JUNCTION = 8 };

static uint8_t square_class[AK_HEX_COUNT];

static void classify_squares(const struct group *g)
{
    const uint8_t *restrict enemy = g->b.enemy, *restrict zoc = g->b.zoc;
    const uint8_t *restrict terrain = g->m->terrain, *restrict junction = g->m->is_junction;
    uint8_t *restrict cls = square_class, *restrict go_on = F.go_on;
    /* ak_move_step_allowed as a mask; no halts when relax_halts */
    uint8_t refused = g->combat ? ENEMY_COMBAT
                                : ENEMY_COMBAT | ENEMY_OTHER | ENEMY_PASSABLE | ENEMY_SUPPLY_NEAR;
    uint8_t halt = g->relax_halts ? 0 : SQ_HALT, escarpment = g->relax_halts ? 0 : SQ_ESCARPMENT;
    for (int h = 0; h < AK_HEX_COUNT; h++) {
        uint8_t no = (enemy[h] & refused) != 0;     /* SQ_REFUSED */
        cls[h] = (uint8_t)(no | (zoc[h] ? halt : 0) |
                           (terrain[h] == AK_TERRAIN_ESCARPMENT ? escarpment : 0) |
                           (junction[h] ? SQ_JUNCTION : 0));
        go_on[h] = (uint8_t)(no - 1);               /* 0 refused, else 0xff */
    }
}

/* pareto_admit's bookkeeping and visit for a square off the junctions
 * (F: flat), once the caller has found the state not dominated. */
static inline void admit_flat(ak_hex to, int road, int clear, int via, int depth, int parent)
{
    if (clear < F.any[to])
        F.any[to] = (uint8_t)clear;
    if (via != VIA_HALT)
        F.go_on[to] = (uint8_t)clear;
    if (S.count < (int)(sizeof S.node / sizeof S.node[0]))
        append_node(to, road, clear, via, depth, parent);
}

/* expand() for a node past the first step of the breadth-first search
 * with no target (expand's pruning by the distance to a target is not
 * here: search() keeps expand for that case). */
static void expand_flat(const struct group *g, int i, int road_cap, const int *clear_limit)
{
    const struct node cur = S.node[i];
    if (cur.via == VIA_HALT || cur.depth + 1 >= AK_PATH_MAX)
        return;
    const struct ak_map *m = g->m;
    unsigned road_sides = m->road[cur.hex];
    /* the junction rule needs the square before a road step into a junction */
    ak_hex prev = cur.via == VIA_ROAD && (square_class[cur.hex] & SQ_JUNCTION) ? S.node[cur.parent].hex
                                                                               : AK_HEX_NONE;
    for (unsigned open = m->open[cur.hex]; open; open &= open - 1) {
        int dir = __builtin_ctz(open);
        ak_hex to = ak_hex_step(cur.hex, dir);
        if (F.go_on[to] <= cur.clear)        /* covered, or refused */
            continue;
        unsigned k = square_class[to];
        bool on_road = ((road_sides >> dir) & 1) &&
                       !(prev != AK_HEX_NONE && ak_move_junction_breaks(prev, cur.hex, to));
        int road = cur.road, clear = cur.clear;
        if (on_road && road < road_cap)
            road++;
        else
            clear++;
        if (clear > clear_limit[road])
            continue;
        bool halts = (k & SQ_HALT) || ((k & SQ_ESCARPMENT) && !on_road);
        int via = halts ? VIA_HALT : on_road ? VIA_ROAD : VIA_NONE;
        if (k & SQ_JUNCTION) {
            if (pareto_admit(m, to, road, clear, halts))
                visit(m, to, road, clear, via, cur.depth + 1, i);
        } else if ((halts ? F.any[to] : F.go_on[to]) > clear) {
            admit_flat(to, road, clear, via, cur.depth + 1, i);
        }
    }
}

/* Every state the stack can reach, breadth first. */
static void search(const struct group *g)
{
    int unlimited[ROAD_MAX], road_cap = road_cap_of(g);
    search_begin();
    pareto_begin(true, road_cap);
    classify_squares(g);
    pareto_admit(g->m, g->start, 0, 0, false);
    visit(g->m, g->start, 0, 0, VIA_NONE, 0, -1);
    expand(g, 0, road_cap);
    for (int r = 0; r < ROAD_MAX; r++)
        unlimited[r] = 1 << 20;
    const int *clear_limit = g->relax_cost ? unlimited : g->clear_limit;
    /* with a target (explaining why a route failed), expand's pruning of
     * squares too far from it keeps what the explanation finds */
    for (int i = 1; i < S.count; i++)
        if (g->target != AK_HEX_NONE)
            expand(g, i, road_cap);
        else
            expand_flat(g, i, road_cap, clear_limit);
}

/* The route to g->target only: states in A* order of (clear steps with a
 * lower bound of those still needed, road steps), a bucket per key (a
 * step never lowers the key), up to the first bucket that holds the
 * target. It finds the same cost as the full search while visiting only
 * the states that could still beat the answer. */
#define KEYS (AK_PATH_MAX * ROAD_MAX)
static int32_t head[KEYS], tail[KEYS], next[STATES / 4];

/* A lower bound on the clear steps still needed from h with road steps
 * taken: each step closes at most one square of distance, and at most
 * road_cap - road more steps can be paid from the road bonus. */
static int clear_still_needed(const struct group *g, ak_hex h, int road, int road_cap)
{
    int need = ak_hex_distance(h, g->target) - (road_cap - road);
    return need > 0 ? need : 0;
}

/* File the nodes from `from` on in their buckets, first come first out;
 * the key orders by (clear steps + those still needed, road steps), an A*
 * order whose bound never overestimates, so the first bucket that holds
 * the target holds its cheapest route. Returns the next node to file;
 * *target_key gets the lowest key of a node on the target. */
static int file_new(const struct group *g, int road_cap, int from, int *target_key)
{
    for (; from < S.count; from++) {
        const struct node *nd = &S.node[from];
        int key = (nd->clear + clear_still_needed(g, nd->hex, nd->road, road_cap)) * ROAD_MAX + nd->road;
        if (key >= KEYS)
            continue;
        if (nd->hex == g->target && key < *target_key)
            *target_key = key;
        next[from] = -1;
        if (tail[key] >= 0)
            next[tail[key]] = from;
        else
            head[key] = from;
        tail[key] = from;
    }
    return from;
}

static void search_to(const struct group *g)
{
    for (int k = 0; k < KEYS; k++)
        head[k] = tail[k] = -1;
    int road_cap = road_cap_of(g), target_key = KEYS;
    search_begin();
    pareto_begin(false, road_cap);
    pareto_admit(g->m, g->start, 0, 0, false);
    visit(g->m, g->start, 0, 0, VIA_NONE, 0, -1);
    int pushed = file_new(g, road_cap, 0, &target_key);
    for (int k = 0; k < KEYS && k <= target_key; k++)
        for (int i = head[k]; i >= 0; i = next[i]) {
            expand(g, i, road_cap);
            pushed = file_new(g, road_cap, pushed, &target_key);
        }
}

static void fill_dest(int slot, struct ak_dest *d)
{
    const struct node *nd = &S.node[slot];
    d->hex = nd->hex;
    d->road = nd->road;
    d->clear = nd->clear;
    d->halts = nd->via == VIA_HALT;
    d->npath = nd->depth;
    int i = slot;
    for (int k = nd->depth - 1; k >= 0; k--) {     /* node i is at depth k + 1 */
        d->path[k] = S.node[i].hex;
        i = S.node[i].parent;
    }
}

/* Is node a better way to end on its square than node b? */
static bool better(const struct node *a, const struct node *b)
{
    if (a->clear != b->clear)
        return a->clear < b->clear;
    if (a->road != b->road)
        return a->road < b->road;
    return a->via != VIA_HALT && b->via == VIA_HALT;
}

static bool can_stop(const struct ak_ruleset *r, const struct group *g, ak_hex h,
                     struct ak_reject *rej)
{
    return ak_move_can_stop(r, g->s, &g->b, g->side, g->units, g->n, g->ncombat, h, rej);
}

static int squares_destinations(const struct ak_state *s, int side, const uint8_t *units, int n,
                                struct ak_dest *out, int max, struct ak_reject *rej)
{
    const struct ak_ruleset *r = ak_ruleset_get(s->ruleset);
    if (!ak_move_group_ok(s, side, units, n, rej))
        return -1;
    group_init(&G, r, s, side, units, n);
    search(&G);
    static int32_t best[AK_HEX_COUNT];
    static ak_hex order[AK_HEX_COUNT];
    int distinct = 0;
    for (int i = 1; i < S.count; i++) {
        ak_hex h = S.node[i].hex;
        if (marks.seen[h] != S.generation) {
            marks.seen[h] = S.generation;
            order[distinct++] = h;
            best[h] = i;
        } else if (better(&S.node[i], &S.node[best[h]])) {
            best[h] = i;
        }
    }
    /* A destination's path is its parent's and one square more: copied
     * from the parent's destination when that is the parent's node and
     * already written (most are), else followed back node by node. */
    static int32_t written[AK_HEX_COUNT];
    int count = 0;
    struct ak_reject ignored;
    for (int k = 0; k < distinct && count < max; k++) {
        ak_hex h = order[k];
        if (!can_stop(r, &G, h, &ignored))
            continue;
        int node = best[h], parent = S.node[node].parent;
        ak_hex from = S.node[parent].hex;
        struct ak_dest *d = &out[count];
        if (parent > 0 && best[from] == parent && marks.written[from] == S.generation) {
            const struct ak_dest *p = &out[written[from]];
            const struct node *nd = &S.node[node];
            d->hex = h;
            d->road = nd->road;
            d->clear = nd->clear;
            d->halts = nd->via == VIA_HALT;
            d->npath = nd->depth;
            memcpy(d->path, p->path, sizeof(ak_hex) * p->npath);
            d->path[p->npath] = h;
        } else {
            fill_dest(node, d);
        }
        written[h] = count++;
        marks.written[h] = S.generation;
    }
    return count;
}

/* The best node that ends on dest in the last search, or -1. */
static int best_to(ak_hex dest)
{
    int best = -1;
    for (int i = 1; i < S.count; i++)
        if (S.node[i].hex == dest && (best < 0 || better(&S.node[i], &S.node[best])))
            best = i;
    return best;
}

static bool explain_unreachable(const struct ak_state *s, const uint8_t *units, int n,
                                ak_hex dest, struct ak_reject *rej)
{
    char a[8], b[8];
    const struct ak_unit_def *d = ak_def(units[0]);
    G.relax_cost = true;
    search(&G);
    bool within_rules = best_to(dest) >= 0;
    G.relax_cost = false;
    if (within_rules)
        return ak_reject(rej, "MOVE-2", "%s cannot reach %s this turn: it is beyond the movement left (%d of %d squares, plus what remains of the road bonus)",
                         d->shortname, ak_hex_format(dest, a), G.mp[0] + G.bonus[0], d->movement);
    G.relax_halts = true;
    search(&G);
    int via = best_to(dest);
    G.relax_halts = false;
    if (via >= 0) {
        /* Find the first square on that path where the stack must stop. */
        struct ak_dest path;
        fill_dest(via, &path);
        ak_hex prev = AK_HEX_NONE, from = G.start;
        struct ak_reject ignored;
        for (int i = 0; i < path.npath; i++) {
            int f = step_check(&G, prev, from, path.path[i], i, &ignored);
            if (f >= 0 && (f & STEP_HALT) && i + 1 < path.npath)
                return ak_reject(rej, G.b.zoc[path.path[i]] ? "ATTACKING-2" : "ESCARPMENT-2",
                                 "every route to %s within reach passes %s, where the stack must stop (%s)",
                                 ak_hex_format(dest, a), ak_hex_format(path.path[i], b),
                                 G.b.zoc[path.path[i]] ? "an enemy zone of control" : "an escarpment");
            prev = (f >= 0 && (f & STEP_ROAD)) ? from : AK_HEX_NONE;
            from = path.path[i];
        }
    }
    (void)s;
    (void)n;
    return ak_reject(rej, "MOVE-2", "%s cannot reach %s this turn", d->shortname, ak_hex_format(dest, a));
}

static bool squares_route(const struct ak_state *s, int side, const uint8_t *units, int n,
                          ak_hex dest, struct ak_dest *out, struct ak_reject *rej)
{
    char a[8];
    const struct ak_ruleset *r = ak_ruleset_get(s->ruleset);
    if (dest < 0 || dest >= AK_HEX_COUNT)     /* callers may pass an unparsed square */
        return ak_reject(rej, "MOVE-8", "that is not a square of the map");
    if (!ak_move_group_ok(s, side, units, n, rej))
        return false;
    group_init(&G, r, s, side, units, n);
    if (dest == G.start)
        return ak_reject(rej, "MOVE-4", "the stack is already at %s", ak_hex_format(dest, a));
    if (!ak_move_dest_basic(&G.b, G.combat, dest, rej))
        return false;
    G.target = dest;
    search_to(&G);
    int best = best_to(dest);
    if (best < 0)
        return explain_unreachable(s, units, n, dest, rej);
    if (!can_stop(r, &G, dest, rej))
        return false;
    fill_dest(best, out);
    return true;
}

static bool squares_check_path(const struct ak_state *s, int side, const uint8_t *units, int n,
                               const ak_hex *path, int npath, struct ak_dest *out,
                               struct ak_reject *rej)
{
    char a[8];
    const struct ak_ruleset *r = ak_ruleset_get(s->ruleset);
    if (!ak_move_group_ok(s, side, units, n, rej))
        return false;
    group_init(&G, r, s, side, units, n);
    if (npath > 0 && path[0] == G.start) {     /* a path may name its start */
        path++;
        npath--;
    }
    if (npath < 1 || npath > AK_PATH_MAX)
        return ak_reject(rej, "ACTION", "a path has 1 to %d squares after the start", AK_PATH_MAX);
    ak_hex prev = AK_HEX_NONE, from = G.start;
    int road = 0, clear = 0, halted_at = -1;
    for (int i = 0; i < npath; i++) {
        if (halted_at >= 0)
            return ak_reject(rej, halt_code(&G, path[halted_at]),
                             "the stack must stop at %s: %s", ak_hex_format(path[halted_at], a),
                             G.b.zoc[path[halted_at]] ? "it is in an enemy zone of control"
                                                    : "it landed on an escarpment off the road");
        int f = step_check(&G, prev, from, path[i], i, rej);
        if (f < 0)
            return false;
        if (f & STEP_ROAD)
            road++;
        else
            clear++;
        if (f & STEP_HALT)
            halted_at = i;
        prev = (f & STEP_ROAD) ? from : AK_HEX_NONE;
        from = path[i];
    }
    if (!affordable(&G, road, clear)) {
        for (int i = 0; i < n; i++) {
            int extra = road > G.road[i] ? road - G.road[i] : 0;
            if (clear + extra > G.mp[i] + G.bonus[i])
                return ak_reject(rej, "MOVE-2", "%s would need %d squares of movement (%d off-road, %d road beyond its bonus) but has %d left",
                                 ak_def(units[i])->shortname, clear + extra, clear, extra,
                                 G.mp[i] + G.bonus[i]);
        }
    }
    if (!can_stop(r, &G, from, rej))
        return false;
    out->hex = from;
    out->road = (uint8_t)road;
    out->clear = (uint8_t)clear;
    out->halts = halted_at >= 0;
    out->npath = (uint8_t)npath;
    memcpy(out->path, path, sizeof(ak_hex) * (size_t)npath);
    return true;
}

static void squares_pay_unit(const struct ak_ruleset *r, struct ak_state *s, int u, bool rommel,
                             int road, int clear)
{
    struct ak_unit *x = &s->unit[u];
    const struct ak_unit_def *d = ak_def(u);
    int road_left = r->road_bonus - x->road_spent;
    int road_pay = road < road_left ? road : road_left;
    int rest = clear + road - road_pay;
    int bonus_left = rommel && d->type != AK_TYPE_HEADQUARTERS ? r->rommel_bonus - x->rommel_spent : 0;
    int bonus_pay = rest < bonus_left ? rest : bonus_left;
    x->road_spent = (uint8_t)(x->road_spent + road_pay);
    x->rommel_spent = (uint8_t)(x->rommel_spent + bonus_pay);
    x->mp_spent = (uint8_t)(x->mp_spent + rest - bonus_pay);
}

static void squares_pay(const struct ak_ruleset *r, struct ak_state *s, int side, const uint8_t *units, int n,
                        const struct ak_dest *route)
{
    (void)side;
    bool rommel = false;
    for (int i = 0; i < n; i++)
        rommel |= ak_def(units[i])->type == AK_TYPE_HEADQUARTERS;
    for (int i = 0; i < n; i++) {
        squares_pay_unit(r, s, units[i], rommel, route->road, route->clear);
        if (route->halts)
            s->unit[units[i]].flags |= AK_U_HALTED;
    }
}

const struct ak_movement ak_movement_squares = {
    .destinations = squares_destinations,
    .route = squares_route,
    .check_path = squares_check_path,
    .pay = squares_pay,
};

static const struct ak_movement *movement_of(const struct ak_state *s)
{
    return ak_ruleset_get(s->ruleset)->movement;
}

int ak_move_destinations(const struct ak_state *s, int side, const uint8_t *units, int n,
                         struct ak_dest *out, int max, struct ak_reject *rej)
{
    return movement_of(s)->destinations(s, side, units, n, out, max, rej);
}

bool ak_move_route(const struct ak_state *s, int side, const uint8_t *units, int n,
                   ak_hex dest, struct ak_dest *out, struct ak_reject *rej)
{
    return movement_of(s)->route(s, side, units, n, dest, out, rej);
}

bool ak_move_check_path(const struct ak_state *s, int side, const uint8_t *units, int n,
                        const ak_hex *path, int npath, struct ak_dest *out,
                        struct ak_reject *rej)
{
    return movement_of(s)->check_path(s, side, units, n, path, npath, out, rej);
}

bool ak_move_action_route(const struct ak_state *s, const struct ak_action *a, struct ak_dest *route,
                          struct ak_reject *rej)
{
    bool ok = a->npath > 0
                  ? ak_move_check_path(s, s->side, a->units, a->nunits, a->path, a->npath, route, rej)
                  : ak_move_route(s, s->side, a->units, a->nunits, a->hex, route, rej);
    if (ok && a->npath > 0 && a->hex != AK_HEX_NONE && a->hex != route->hex)
        return ak_reject(rej, "ACTION", "the path does not end at the destination given");
    return ok;
}

void ak_move_execute(const struct ak_ruleset *r, struct ak_state *s, int side,
                     const uint8_t *units, int n, const struct ak_dest *route,
                     struct ak_events *ev)
{
    ak_hex from = s->unit[units[0]].hex;
    bool combat = false;
    for (int i = 0; i < n; i++)
        combat = combat || ak_unit_is_combat(ak_def(units[i]));
    /* Only squares next to enemy supply or Rommel can capture: list them. */
    ak_hex prey[AK_UNIT_MAX];
    int nprey = 0;
    for (int u = 0; combat && u < s->units; u++)
        if (ak_on_board(s, u) && ak_def(u)->side != side && !ak_unit_is_combat(ak_def(u)))
            prey[nprey++] = s->unit[u].hex;
    r->movement->pay(r, s, side, units, n, route);
    for (int i = 0; i < n; i++) {
        ak_event_add(ev, AK_EV_MOVED, side, units[i], AK_UNIT_NONE, from, route->hex,
                     route->road + route->clear, route->road, route->clear);
    }
    for (int k = 0; k < route->npath; k++) {
        for (int i = 0; i < n; i++)
            s->unit[units[i]].hex = route->path[k];
        bool near = false;
        for (int p = 0; p < nprey && !near; p++)
            near = ak_hex_distance(prey[p], route->path[k]) <= 1;
        if (near)
            ak_capture_around(s, side, route->path[k], ev);
    }
    for (int i = 0; i < n; i++) {
        struct ak_unit *x = &s->unit[units[i]];
        x->flags |= AK_U_MOVED;
        if (ak_def(units[i])->type == AK_TYPE_SUPPLY && ak_enemy_unit_adjacent(s, x->hex, side))
            x->flags |= AK_U_SUPPLY_NEAR_ENEMY;
    }
}
