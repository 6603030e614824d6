/* ak_move_points: movement by movement points, the Updated ruleset's way
 * of moving (seed 003: TERRAIN EFFECTS 3, ROAD MOVEMENT, NEW ZOCS 1-2).
 *
 * A unit has its movement factor in points (AK_MP twelfths each). A square
 * costs 1, an escarpment square 2 for infantry and 3 for other units, a
 * square along the road 1/4 for Italian infantry and 1/3 for everyone else
 * whatever its terrain. Enemy zones: infantry stops on entering one, pays
 * half its allowance to leave one and never steps from a zone square to
 * another; mechanized units pay 2 more to enter and 2 more to leave, and
 * go on. The costs are the ruleset's parameters (struct ak_mp_costs); the
 * readings the text leaves open are in docs/rules-notes.md.
 *
 * A stack that moves together may mix units that pay differently (an
 * Italian infantry division with a German one pays 1/4 and 1/3 on the
 * road). A route is legal when every unit can pay for it, so the search
 * keeps, square by square, every cost vector (one cost per kind of unit in
 * the stack) that no other one beats in every kind: a multi-criteria
 * search. Labels are taken in order of the sum of their costs (a bucket
 * queue; every step costs something), so a label once expanded is never
 * beaten later and each is expanded once. Stacks of one kind, the common
 * case, make it a plain shortest-path search.
 *
 * When a move names only a destination, the route is the one of least
 * total cost, then one that does not halt, then the fewest squares, then
 * the first found in the fixed direction order.
 *
 * Not reentrant: one static work area, like ak_move.c.
 */
#include <stdio.h>
#include <string.h>

#include "ak_move_internal.h"
#include "ak_zoc.h"

#define LABELS_MAX 65536
#define BUCKETS 2048

int ak_move_class_of(int u)
{
    const struct ak_unit_def *d = ak_def(u);
    switch (d->type) {
    case AK_TYPE_INFANTRY:
        return strcmp(d->nationality, "italian") == 0 ? AK_MOVE_ITALIAN_INFANTRY : AK_MOVE_INFANTRY;
    case AK_TYPE_ARMOR:
    case AK_TYPE_ARMORED_INFANTRY:
    case AK_TYPE_RECCE:
        return AK_MOVE_MECHANIZED;
    default:
        return AK_MOVE_OTHER;
    }
}

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

char *ak_mp_format(int twelfths, char *buf, int len)
{
    int whole = twelfths / AK_MP, rest = twelfths % AK_MP;
    if (rest == 0) {
        snprintf(buf, (size_t)len, "%d", whole);
        return buf;
    }
    int g = gcd(rest, AK_MP);
    if (whole)
        snprintf(buf, (size_t)len, "%d %d/%d", whole, rest / g, AK_MP / g);
    else
        snprintf(buf, (size_t)len, "%d/%d", rest / g, AK_MP / g);
    return buf;
}

static bool is_infantry(int cls) { return cls == AK_MOVE_ITALIAN_INFANTRY || cls == AK_MOVE_INFANTRY; }

/* The moving stack: which kinds of unit it holds and what each kind can
 * still spend (the least of its units). */
struct stack {
    const struct ak_state *s;
    const struct ak_ruleset *r;
    const struct ak_mp_costs *c;
    const struct ak_map *m;
    int side, n;
    const uint8_t *units;
    ak_hex start;
    bool combat, rommel, infantry, mechanized;
    int ncombat;                        /* combat units: the stacking limit */
    int nkinds;
    int kind[AK_MOVE_CLASSES];          /* the classes present */
    int budget[AK_MOVE_CLASSES];        /* per kind present: points left */
    int unit_budget[AK_GROUP_MAX];
    bool relax_cost, relax_zoc;         /* for explaining why a square is out of reach */
    struct ak_move_board b;
};

static struct stack K;

/* What unit u of the stack may still spend: its allowance, Rommel's bonus
 * when he moves with it, less what it spent, less half its allowance if
 * it is infantry starting in an enemy zone (every first step leaves it). */
static int unit_budget(const struct stack *k, int u)
{
    const struct ak_unit *x = &k->s->unit[u];
    const struct ak_unit_def *d = ak_def(u);
    int allowance = d->movement * AK_MP, full = allowance;
    /* SUPPLY PHASE 1: out of supply, a mechanized unit's allowance is
     * halved; MECH PHASE: half the allowance again after combat. */
    if (ak_move_class_of(u) == AK_MOVE_MECHANIZED && (x->marks & AK_MARK_OOS))
        allowance /= 2;
    if (k->s->phase == AK_PHASE_MECH)
        allowance /= 2;
    int left = allowance - x->mp_spent;
    if (k->rommel && d->type != AK_TYPE_HEADQUARTERS)
        left += k->r->rommel_bonus * AK_MP - x->rommel_spent;
    if (is_infantry(ak_move_class_of(u)) && k->b.zoc[k->start])
        left -= full / k->c->infantry_leave_divisor;
    return left;
}

/* MECH PHASE: "In supply mechanized units, only, may move again"; a unit
 * marked out of supply "cannot move in a mechanized movement phase". */
static bool mech_phase_ok(const struct ak_state *s, const uint8_t *units, int n, struct ak_reject *rej)
{
    if (s->phase != AK_PHASE_MECH)
        return true;
    for (int i = 0; i < n; i++) {
        const char *name = ak_def(units[i])->shortname;
        if (ak_move_class_of(units[i]) != AK_MOVE_MECHANIZED)
            return ak_reject(rej, "UPD-MECH", "%s is not mechanized: only armor, recce and mechanized infantry move in the mechanized movement phase",
                             name);
        if (s->unit[units[i]].marks & AK_MARK_OOS)
            return ak_reject(rej, "UPD-MECH", "%s is out of supply: it cannot move in the mechanized movement phase", name);
    }
    return true;
}

static bool group_ok(const struct ak_state *s, int side, const uint8_t *units, int n, struct ak_reject *rej)
{
    return ak_move_group_ok(s, side, units, n, rej) && mech_phase_ok(s, units, n, rej);
}

static void stack_init(struct stack *k, const struct ak_state *s, int side, const uint8_t *units, int n)
{
    memset(k->kind, 0, sizeof k->kind);
    k->s = s;
    k->r = ak_ruleset_get(s->ruleset);
    k->c = k->r->mp_costs;
    k->m = ak_map();
    k->side = side;
    k->units = units;
    k->n = n;
    k->start = s->unit[units[0]].hex;
    k->combat = k->rommel = k->infantry = k->mechanized = false;
    k->relax_cost = k->relax_zoc = false;
    ak_move_board_mark(s, side, &k->b);
    for (int i = 0; i < n; i++) {
        k->combat |= ak_unit_is_combat(ak_def(units[i]));
        k->rommel |= ak_def(units[i])->type == AK_TYPE_HEADQUARTERS;
    }
    k->ncombat = ak_move_combat_count(units, n);
    k->nkinds = 0;
    for (int i = 0; i < n; i++) {
        int cls = ak_move_class_of(units[i]), at = -1;
        k->infantry |= is_infantry(cls);
        k->mechanized |= cls == AK_MOVE_MECHANIZED;
        for (int j = 0; j < k->nkinds; j++)
            if (k->kind[j] == cls)
                at = j;
        k->unit_budget[i] = unit_budget(k, units[i]);
        if (at < 0) {
            at = k->nkinds++;
            k->kind[at] = cls;
            k->budget[at] = k->unit_budget[i];
        } else if (k->unit_budget[i] < k->budget[at]) {
            k->budget[at] = k->unit_budget[i];
        }
    }
}

enum { STEP_ROAD = 1, STEP_HALT = 2, STEP_NO_STOP = 4 };

/* The step rule for a step to `to`, the neighbour of `from` in direction
 * dir that the map leaves open (ak_map.open): flags, and the cost of the
 * step for each kind of unit in the stack, or -1. prev is the square
 * before `from` when the step into `from` was along the road (the
 * junction rule), else none. No words: the search tries many steps that
 * fail and wants only this (step_cost gives the words). */
static inline int step_flags(const struct stack *k, ak_hex prev, ak_hex from, int dir, ak_hex to, int *cost)
{
    if (!ak_move_step_allowed(&k->b, k->combat, to))
        return -1;
    const struct ak_map *m = k->m;
    bool zoc_from = k->b.zoc[from] && !k->relax_zoc, zoc_to = k->b.zoc[to] && !k->relax_zoc;
    if (k->infantry && zoc_from && zoc_to)
        return -1;
    int flags = 0;
    if ((m->road[from] & (1u << dir)) && !(prev != AK_HEX_NONE && ak_move_junction_breaks(prev, from, to)))
        flags |= STEP_ROAD;
    if (k->infantry && zoc_to)
        flags |= STEP_HALT;
    if (k->b.enemy[to] & ENEMY_PASSABLE)
        flags |= STEP_NO_STOP;
    for (int j = 0; j < k->nkinds; j++) {
        int cls = k->kind[j];
        int c = (flags & STEP_ROAD) ? k->c->road[cls]
                : m->terrain[to] == AK_TERRAIN_ESCARPMENT ? k->c->escarpment[cls]
                                                          : k->c->clear;
        if (cls == AK_MOVE_MECHANIZED)
            c += (zoc_from ? k->c->zoc_mechanized : 0) + (zoc_to ? k->c->zoc_mechanized : 0);
        cost[j] = c;
    }
    return flags;
}

/* The step rule for any two squares, with the reason when it fails (into
 * *rej unless NULL): the map and the enemy units first, then what
 * step_flags adds to them, the infantry's zone rule. */
static int step_cost(const struct stack *k, ak_hex prev, ak_hex from, ak_hex to, int *cost,
                     struct ak_reject *rej)
{
    char a[8], b[8];
    if (!ak_move_step_basic(&k->b, k->combat, from, to, rej))
        return -1;
    int f = step_flags(k, prev, from, ak_hex_dir(from, to), to, cost);
    if (f < 0 && rej)
        ak_reject(rej, "UPD-ZOC-1", "infantry may not move directly from one enemy zone of control (%s) to another (%s)",
                  ak_hex_format(from, a), ak_hex_format(to, b));
    return f;
}

/* ---- the search ------------------------------------------------------ */

struct label {
    ak_hex hex;
    ak_hex prev_road;       /* the square before, when entered along the road */
    uint16_t cost[AK_MOVE_CLASSES];
    uint16_t sum;
    uint8_t depth, road, halted, dead;
    int32_t parent, next_at_hex, next_in_bucket;
};

static struct {
    struct label l[LABELS_MAX];
    int count;
    uint32_t generation;
    uint32_t stamp[AK_HEX_COUNT];
    int32_t first[AK_HEX_COUNT];    /* labels on a square, newest first */
    int32_t bucket[BUCKETS];
} L;

static int32_t *at_hex(ak_hex h)
{
    if (L.stamp[h] != L.generation) {
        L.stamp[h] = L.generation;
        L.first[h] = -1;
    }
    return &L.first[h];
}

/* Does a beat b (no worse in every kind, no worse in halting)? Labels on
 * a road junction compare only when they came in the same way, since the
 * next step's road depends on it. */
static bool beats(const struct stack *k, const struct label *a, const struct label *b)
{
    if (k->m->is_junction[a->hex] && a->prev_road != b->prev_road)
        return false;
    if (a->halted && !b->halted)
        return false;
    for (int j = 0; j < k->nkinds; j++)
        if (a->cost[j] > b->cost[j])
            return false;
    return true;
}

/* Add a label unless one on its square beats it; those it beats die. */
static int admit(const struct stack *k, const struct label *nl)
{
    if (L.count >= LABELS_MAX || nl->sum >= BUCKETS)
        return -1;
    int32_t *head = at_hex(nl->hex);
    for (int i = *head; i >= 0; i = L.l[i].next_at_hex)
        if (!L.l[i].dead && beats(k, &L.l[i], nl))
            return -1;
    for (int i = *head; i >= 0; i = L.l[i].next_at_hex)
        if (!L.l[i].dead && beats(k, nl, &L.l[i]))
            L.l[i].dead = 1;
    int id = L.count++;
    L.l[id] = *nl;
    L.l[id].next_at_hex = *head;
    *head = id;
    L.l[id].next_in_bucket = L.bucket[nl->sum];
    L.bucket[nl->sum] = id;
    return id;
}

static bool affordable(const struct stack *k, const uint16_t *cost)
{
    if (k->relax_cost)
        return true;
    for (int j = 0; j < k->nkinds; j++)
        if (cost[j] > k->budget[j])
            return false;
    return true;
}

static void expand(const struct stack *k, int id)
{
    struct label cur = L.l[id];
    if (cur.halted || cur.depth + 1 > AK_PATH_MAX)
        return;
    unsigned open = k->m->open[cur.hex];
    for (int dir = 0; dir < AK_DIRS; dir++) {
        if (!(open & (1u << dir)))
            continue;
        ak_hex to = ak_hex_step(cur.hex, dir);
        int cost[AK_MOVE_CLASSES];
        int f = step_flags(k, cur.prev_road, cur.hex, dir, to, cost);
        if (f < 0)
            continue;
        struct label nl = {.hex = to, .prev_road = (f & STEP_ROAD) ? cur.hex : AK_HEX_NONE,
                           .depth = (uint8_t)(cur.depth + 1), .road = (uint8_t)(cur.road + !!(f & STEP_ROAD)),
                           .halted = (f & STEP_HALT) != 0, .parent = id};
        int sum = 0;
        for (int j = 0; j < k->nkinds; j++) {
            int c = cur.cost[j] + cost[j];
            nl.cost[j] = (uint16_t)(c > 0xffff ? 0xffff : c);
            sum += c;
        }
        nl.sum = (uint16_t)(sum >= BUCKETS ? BUCKETS : sum);
        if (affordable(k, nl.cost))
            admit(k, &nl);
    }
}

static void search(const struct stack *k)
{
    if (++L.generation == 0) {
        memset(L.stamp, 0, sizeof L.stamp);
        L.generation = 1;
    }
    L.count = 0;
    for (int i = 0; i < BUCKETS; i++)
        L.bucket[i] = -1;
    struct label start = {.hex = k->start, .prev_road = AK_HEX_NONE, .parent = -1};
    admit(k, &start);
    for (int sum = 0; sum < BUCKETS; sum++)
        /* Steps cost at least a quarter point, so no label added while
         * this bucket is expanded lands in it: the list is final. */
        for (int id = L.bucket[sum]; id >= 0; id = L.l[id].next_in_bucket)
            if (!L.l[id].dead)
                expand(k, id);
}

/* The better of two labels ending on the same square. */
static bool better(const struct label *a, const struct label *b)
{
    if (a->sum != b->sum)
        return a->sum < b->sum;
    if (a->halted != b->halted)
        return !a->halted;
    return a->depth < b->depth;
}

static int best_at(ak_hex h)
{
    int best = -1;
    for (int i = *at_hex(h); i >= 0; i = L.l[i].next_at_hex)
        if (!L.l[i].dead && (best < 0 || better(&L.l[i], &L.l[best]) ||
                             (!better(&L.l[best], &L.l[i]) && i < best)))
            best = i;
    return best;
}

static void fill_dest(const struct stack *k, int id, struct ak_dest *d)
{
    const struct label *l = &L.l[id];
    d->hex = l->hex;
    d->road = l->road;
    d->clear = (uint8_t)(l->depth - l->road);
    d->halts = l->halted;
    d->cost = l->cost[0];
    for (int j = 0; j < k->nkinds; j++)
        if (k->kind[j] == ak_move_class_of(k->units[0]))
            d->cost = l->cost[j];
    d->npath = l->depth;
    for (int i = id; L.l[i].parent >= 0; i = L.l[i].parent)
        d->path[L.l[i].depth - 1] = L.l[i].hex;
}

static int points_destinations(const struct ak_state *s, int side, const uint8_t *units, int n,
                               struct ak_dest *out, int max, struct ak_reject *rej)
{
    if (!group_ok(s, side, units, n, rej))
        return -1;
    stack_init(&K, s, side, units, n);
    search(&K);
    static uint32_t seen[AK_HEX_COUNT], generation;
    generation++;
    int count = 0;
    struct ak_reject ignored;
    for (int i = 1; i < L.count && count < max; i++) {
        ak_hex h = L.l[i].hex;
        if (seen[h] == generation || h == K.start)
            continue;
        seen[h] = generation;
        if (ak_move_can_stop(K.r, s, &K.b, side, units, n, K.ncombat, h, &ignored))
            fill_dest(&K, best_at(h), &out[count++]);
    }
    return count;
}

/* Why no route within the rules reaches dest: short of points (and by how
 * much), or stopped by enemy zones on the way. */
static bool explain_unreachable(ak_hex dest, struct ak_reject *rej)
{
    char a[8], need[16], left[16];
    K.relax_cost = true;
    search(&K);
    int id = best_at(dest);
    K.relax_cost = false;
    if (id >= 0) {
        for (int i = 0; i < K.n; i++)
            for (int j = 0; j < K.nkinds; j++)
                if (K.kind[j] == ak_move_class_of(K.units[i]) && L.l[id].cost[j] > K.unit_budget[i])
                    return ak_reject(rej, "UPD-MP", "%s cannot reach %s this turn: the cheapest route costs %s movement points and it has %s left",
                                     ak_def(K.units[i])->shortname, ak_hex_format(dest, a),
                                     ak_mp_format(L.l[id].cost[j], need, sizeof need),
                                     ak_mp_format(K.unit_budget[i] > 0 ? K.unit_budget[i] : 0, left, sizeof left));
    }
    K.relax_zoc = K.relax_cost = true;
    search(&K);
    id = best_at(dest);
    K.relax_zoc = K.relax_cost = false;
    if (id >= 0 && K.infantry)
        return ak_reject(rej, "UPD-ZOC-1", "%s cannot reach %s: infantry stops on entering an enemy zone of control and never moves from one zone square to another",
                         ak_def(K.units[0])->shortname, ak_hex_format(dest, a));
    return ak_reject(rej, "MOVE-2", "%s cannot reach %s this turn", ak_def(K.units[0])->shortname,
                     ak_hex_format(dest, a));
}

static bool points_route(const struct ak_state *s, int side, const uint8_t *units, int n, ak_hex dest,
                         struct ak_dest *out, struct ak_reject *rej)
{
    char a[8];
    if (dest < 0 || dest >= AK_HEX_COUNT)
        return ak_reject(rej, "MOVE-8", "that is not a square of the map");
    if (!group_ok(s, side, units, n, rej))
        return false;
    stack_init(&K, s, side, units, n);
    if (dest == K.start)
        return ak_reject(rej, "MOVE-4", "the stack is already at %s", ak_hex_format(dest, a));
    if (!ak_move_dest_basic(&K.b, K.combat, dest, rej))
        return false;
    search(&K);
    int id = best_at(dest);
    if (id < 0)
        return explain_unreachable(dest, rej);
    if (!ak_move_can_stop(K.r, s, &K.b, side, units, n, K.ncombat, dest, rej))
        return false;
    fill_dest(&K, id, out);
    return true;
}

static bool points_check_path(const struct ak_state *s, int side, const uint8_t *units, int n,
                              const ak_hex *path, int npath, struct ak_dest *out, struct ak_reject *rej)
{
    char a[8], need[16], left[16];
    if (!group_ok(s, side, units, n, rej))
        return false;
    stack_init(&K, s, side, units, n);
    if (npath > 0 && path[0] == K.start) {
        path++;
        npath--;
    }
    if (npath < 1 || npath > AK_PATH_MAX)
        return ak_reject(rej, "ACTION", "a path has 1 to %d squares after the start", AK_PATH_MAX);
    int total[AK_MOVE_CLASSES] = {0}, road = 0;
    ak_hex prev = AK_HEX_NONE, from = K.start;
    bool halted = false;
    for (int i = 0; i < npath; i++) {
        if (halted)
            return ak_reject(rej, "UPD-ZOC-1", "the stack must stop at %s: its infantry entered an enemy zone of control",
                             ak_hex_format(from, a));
        int cost[AK_MOVE_CLASSES];
        int f = step_cost(&K, prev, from, path[i], cost, rej);
        if (f < 0)
            return false;
        for (int j = 0; j < K.nkinds; j++)
            total[j] += cost[j];
        road += !!(f & STEP_ROAD);
        halted = f & STEP_HALT;
        prev = (f & STEP_ROAD) ? from : AK_HEX_NONE;
        from = path[i];
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < K.nkinds; j++)
            if (K.kind[j] == ak_move_class_of(units[i]) && total[j] > K.unit_budget[i])
                return ak_reject(rej, "UPD-MP", "%s would need %s movement points for that path but has %s left",
                                 ak_def(units[i])->shortname, ak_mp_format(total[j], need, sizeof need),
                                 ak_mp_format(K.unit_budget[i] > 0 ? K.unit_budget[i] : 0, left, sizeof left));
    if (!ak_move_can_stop(K.r, s, &K.b, side, units, n, K.ncombat, from, rej))
        return false;
    out->hex = from;
    out->road = (uint8_t)road;
    out->clear = (uint8_t)(npath - road);
    out->halts = halted;
    out->cost = (uint16_t)total[0];
    out->npath = (uint8_t)npath;
    memcpy(out->path, path, sizeof(ak_hex) * (size_t)npath);
    return true;
}

/* Charge every unit its own cost along the route, Rommel's bonus first
 * (the narrower resource, as with squares); infantry that entered an enemy
 * zone stops there, other units of the stack may go on. */
static void points_pay(const struct ak_ruleset *r, struct ak_state *s, int side, const uint8_t *units, int n,
                       const struct ak_dest *route)
{
    (void)r;
    stack_init(&K, s, side, units, n);
    for (int i = 0; i < n; i++) {
        struct ak_unit *x = &s->unit[units[i]];
        int cls = ak_move_class_of(units[i]), total = 0;
        if (is_infantry(cls) && K.b.zoc[K.start])
            total += ak_def(units[i])->movement * AK_MP / K.c->infantry_leave_divisor;
        ak_hex prev = AK_HEX_NONE, from = K.start;
        for (int p = 0; p < route->npath; p++) {
            int cost[AK_MOVE_CLASSES];
            int f = step_cost(&K, prev, from, route->path[p], cost, NULL);
            for (int j = 0; j < K.nkinds && f >= 0; j++)
                if (K.kind[j] == cls)
                    total += cost[j];
            prev = f >= 0 && (f & STEP_ROAD) ? from : AK_HEX_NONE;
            from = route->path[p];
        }
        int bonus_left = K.rommel && ak_def(units[i])->type != AK_TYPE_HEADQUARTERS
                             ? K.r->rommel_bonus * AK_MP - x->rommel_spent : 0;
        int from_bonus = total < bonus_left ? total : bonus_left;
        x->rommel_spent = (uint8_t)(x->rommel_spent + from_bonus);
        x->mp_spent = (uint8_t)(x->mp_spent + total - from_bonus);
        if (is_infantry(cls) && K.b.zoc[route->hex])
            x->flags |= AK_U_HALTED;
        if (s->phase == AK_PHASE_MECH)
            x->marks |= AK_MARK_MECH_MOVED;     /* no replacements this turn (REPLACEMENT PHASE) */
    }
}

const struct ak_movement ak_movement_points = {
    .destinations = points_destinations,
    .route = points_route,
    .check_path = points_check_path,
    .pay = points_pay,
};
