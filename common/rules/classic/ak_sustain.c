/* ak_sustain: SUSTAIN ATTACKS 2 (see ak_sustain.h for the reading). */
#include "ak_sustain.h"

#include <stdio.h>
#include <string.h>

#include "ak_arrival.h"
#include "ak_battle.h"
#include "ak_move.h"

/* The enemy units whose zones cover h: the defenders of any battle fought
 * from h, whose own zones do not block the supply route (SUSTAIN 1). */
static int foes_at(const struct ak_state *s, ak_hex h, uint8_t *foes)
{
    int n = 0;
    for (int e = 0; e < s->units && n < AK_GROUP_MAX; e++)
        if (ak_def(e)->side != s->side && ak_battle_zoc(s, e, h))
            foes[n++] = (uint8_t)e;
    return n;
}

/* Unit u of the mover, moved or placed this turn, stands in an enemy zone
 * with no supply unit within reach. */
static bool out_of_reach(const struct ak_state *s, const uint8_t *zone, int u)
{
    const struct ak_unit *x = &s->unit[u];
    if (ak_def(u)->side != s->side || !ak_on_board(s, u) || !ak_unit_is_combat(ak_def(u)) ||
        !(x->flags & (AK_U_MOVED | AK_U_ARRIVED)) || !zone[x->hex])
        return false;
    uint8_t foes[AK_GROUP_MAX];
    int nf = foes_at(s, x->hex, foes);
    return nf > 0 && ak_supply_near(s, s->side, x->hex, foes, nf) == AK_UNIT_NONE;
}

int ak_sustain_out_of_reach(const struct ak_state *s, uint8_t *out, int max)
{
    static uint8_t zone[AK_HEX_COUNT];
    ak_battle_zone_map(s, s->side, zone);      /* foes_at's test for every square at once */
    int n = 0;
    for (int u = 0; u < s->units && n < max; u++)
        if (out_of_reach(s, zone, u))
            out[n++] = (uint8_t)u;
    return n;
}

/* "Unit at square, unit at square, ..." for a message. */
static void name_units(const struct ak_state *s, const uint8_t *units, int n, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && at < len; i++) {
        char h[8];
        int k = snprintf(buf + at, len - at, "%s%s at %s", i ? ", " : "", ak_def(units[i])->shortname,
                         ak_hex_format(s->unit[units[i]].hex, h));
        if (k < 0)
            break;
        at += (size_t)k;
    }
}

bool ak_sustain_portion_may_end(const struct ak_state *s, struct ak_reject *rej)
{
    uint8_t late[AK_GROUP_MAX];
    int n = ak_sustain_out_of_reach(s, late, AK_GROUP_MAX);
    if (n == 0)
        return true;
    char names[200];
    name_units(s, late, n, names, sizeof names);
    return ak_reject(rej, "SUSTAIN-2", "%s %s in an enemy zone of control more than 5 squares (by a route free of enemy zones) from any of your supply units; bring a supply unit within reach before the movement portion ends",
                     names, n > 1 ? "stand" : "stands");
}

/* The first unused counter of a kind for side: a supply unit still to
 * come, or a "captured" counter. */
static int spare_counter(const struct ak_state *s, int side, bool captured)
{
    for (int c = 0; c < s->units; c++)
        if (ak_def(c)->side == side && ak_def(c)->type == AK_TYPE_SUPPLY &&
            ak_def(c)->captured_counter == captured && s->unit[c].where == AK_AT_POOL)
            return c;
    return AK_UNIT_NONE;
}

/* The look-ahead below, judged jointly for every unit out of reach: each
 * must be sustained by some supply unit from a square that supply unit
 * can still end this portion on, and a supply unit serving several must
 * reach one square that sustains them all. The supply units: those of the
 * mover on the board, where the movement rules let them go (their own
 * legal destinations), and a new one when one is due, placed at a port the
 * mover controls (placement costs no movement: LOGISTICS, MOVEMENT 2).
 * A supply unit captured later in the portion is not foreseen (it would
 * need the capture to happen): capture first, then move into the zone. */
#define LA_SUPPLIES 12

static struct {
    int nunits, nsup;
    uint8_t unit[AK_GROUP_MAX];
    uint8_t catchment[AK_GROUP_MAX][AK_HEX_COUNT];  /* squares sustaining unit i */
    uint8_t reach[LA_SUPPLIES][AK_HEX_COUNT];       /* squares supply p can end on */
    uint8_t common[LA_SUPPLIES][AK_HEX_COUNT];      /* reach[p] and the catchments given to p */
    bool used[LA_SUPPLIES];
} la;

/* What a supply unit's moves depend on besides its own counter: the
 * enemy's counters (their zones, their supply units it may not go next
 * to), the turn, and the automatic victories (in the enemy's flags). The
 * mover's other units neither block a supply unit's move nor open it (a
 * supply unit moves alone here; own units never block, and a stack with
 * no combat unit may stop anywhere the rules let it enter). A listing of
 * legal moves tries many moves of one unit in the same position, and a
 * turn moves one unit at a time: each supply unit's search is kept while
 * this and its own counter stay the same. */
static uint64_t fnv_bytes(uint64_t h, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static uint64_t unit_key(const struct ak_unit *x)
{
    const uint8_t f[] = {x->where, x->flags, x->mp_spent, x->road_spent, x->rommel_spent, x->sea_turn,
                         x->isolated, x->battle, x->reduced, x->marks, (uint8_t)x->hex,
                         (uint8_t)(x->hex >> 8), (uint8_t)x->start_hex, (uint8_t)(x->start_hex >> 8)};
    return fnv_bytes(1469598103934665603ull, f, sizeof f);
}

static uint64_t supply_world(const struct ak_state *s)
{
    const uint8_t head[] = {s->turn, s->side, s->phase};
    uint64_t h = fnv_bytes(1469598103934665603ull, head, sizeof head);
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side != s->side)
            h = (h ^ unit_key(&s->unit[u])) * 1099511628211ull;
    return h;
}

/* reach[p]: where supply unit sup of *w can be when the portion ends. */
static void reach_of(const struct ak_state *w, int sup, uint8_t *reach)
{
    static struct ak_dest dest[AK_HEX_COUNT];
    uint8_t one = (uint8_t)sup;
    memset(reach, 0, AK_HEX_COUNT);
    reach[w->unit[sup].hex] = 1;
    if (w->unit[sup].flags & (AK_U_HALTED | AK_U_NO_MOVE))
        return;
    int n = ak_move_destinations(w, w->side, &one, 1, dest, AK_HEX_COUNT, NULL);
    for (int i = 0; i < n; i++)
        reach[dest[i].hex] = 1;
}

static struct {
    uint64_t world;
    bool known[AK_UNIT_MAX];
    uint64_t unit[AK_UNIT_MAX];     /* the supply unit's own counter when searched */
    uint8_t reach[AK_UNIT_MAX][AK_HEX_COUNT];
} reach_cache;

/* reach_of, kept for the same world (supply_world) and counter. */
static void cached_reach(const struct ak_state *s, int sup, uint64_t world, uint8_t *reach)
{
    if (reach_cache.world != world) {
        reach_cache.world = world;
        memset(reach_cache.known, 0, sizeof reach_cache.known);
    }
    uint64_t key = unit_key(&s->unit[sup]);
    if (!reach_cache.known[sup] || reach_cache.unit[sup] != key) {
        reach_of(s, sup, reach_cache.reach[sup]);
        reach_cache.known[sup] = true;
        reach_cache.unit[sup] = key;
    }
    memcpy(reach, reach_cache.reach[sup], AK_HEX_COUNT);
}

/* The squares supply unit sup could still cover, as the crow flies: its
 * movement, the road bonus and Rommel's bonus left, every step open. */
static int supply_bound(const struct ak_state *s, int sup)
{
    const struct ak_ruleset *r = ak_ruleset_get(s->ruleset);
    const struct ak_unit *x = &s->unit[sup];
    if (x->flags & (AK_U_HALTED | AK_U_NO_MOVE))
        return 0;
    int left = ak_def(sup)->movement - x->mp_spent + r->road_bonus - x->road_spent + r->rommel_bonus -
               x->rommel_spent;
    return left > 0 ? left : 0;
}

/* The supply units that could serve some unit of la.unit[], with where
 * they can end the portion. Those too far by the bound are left out before
 * their moves are searched (the search is the costly part). */
static void gather_supplies(const struct ak_state *s)
{
    static struct ak_state w;
    uint64_t world = supply_world(s);
    la.nsup = 0;
    for (int sup = 0; sup < s->units && la.nsup < LA_SUPPLIES; sup++) {
        if (ak_def(sup)->side != s->side || ak_def(sup)->type != AK_TYPE_SUPPLY || !ak_on_board(s, sup))
            continue;
        bool near = false;
        for (int i = 0; i < la.nunits && !near; i++)
            near = ak_hex_distance(s->unit[sup].hex, s->unit[la.unit[i]].hex) <=
                   AK_SUPPLY_RANGE + supply_bound(s, sup);
        if (near)
            cached_reach(s, sup, world, la.reach[la.nsup++]);
    }
    int spare = spare_counter(s, s->side, false);
    if (s->supply_due == 0 || spare == AK_UNIT_NONE || la.nsup == LA_SUPPLIES ||
        ak_own_supply_on_board(s, s->side) >= ak_data()->scenario.supply_max[s->side])
        return;
    /* One new supply unit, at whichever port it is placed. */
    uint8_t *reach = la.reach[la.nsup];
    memset(reach, 0, AK_HEX_COUNT);
    bool any = false;
    static uint8_t one[AK_HEX_COUNT];
    for (int k = 0; k < AK_KEYS; k++) {
        ak_hex port = ak_key_hex(k);
        bool near = false;
        for (int i = 0; i < la.nunits && !near; i++)
            near = ak_hex_distance(port, s->unit[la.unit[i]].hex) <= AK_SUPPLY_RANGE + supply_bound(s, spare);
        if (!near || !ak_arrival_port_ok(s, s->side, port, "", NULL))
            continue;
        w = *s;
        w.unit[spare] = (struct ak_unit){.where = AK_AT_BOARD, .hex = port, .start_hex = port,
                                         .flags = AK_U_ARRIVED};
        reach_of(&w, spare, one);
        for (int h = 0; h < AK_HEX_COUNT; h++)
            reach[h] |= one[h];
        any = true;
    }
    if (any)
        la.nsup++;
}

static bool overlaps(const uint8_t *a, const uint8_t *b)
{
    for (int h = 0; h < AK_HEX_COUNT; h++)
        if (a[h] & b[h])
            return true;
    return false;
}

/* Give units i.. to supply units, each keeping a square common to all it
 * serves. Backtracking over a handful of units and supply units. */
static bool assign(int i)
{
    static uint8_t saved[AK_GROUP_MAX][AK_HEX_COUNT];
    if (i == la.nunits)
        return true;
    for (int p = 0; p < la.nsup; p++) {
        const uint8_t *base = la.used[p] ? la.common[p] : la.reach[p];
        if (!overlaps(base, la.catchment[i]))
            continue;
        bool was_used = la.used[p];
        memcpy(saved[i], la.common[p], AK_HEX_COUNT);
        for (int h = 0; h < AK_HEX_COUNT; h++)
            la.common[p][h] = base[h] & la.catchment[i][h];
        la.used[p] = true;
        if (assign(i + 1))
            return true;
        memcpy(la.common[p], saved[i], AK_HEX_COUNT);
        la.used[p] = was_used;
    }
    return false;
}

/* The first unit of late[] no supply unit can come to sustain, or -1 when
 * all can be sustained together. */
static int unreachable(const struct ak_state *s, const uint8_t *late, int n)
{
    la.nunits = n < AK_GROUP_MAX ? n : AK_GROUP_MAX;
    for (int i = 0; i < la.nunits; i++) {
        uint8_t foes[AK_GROUP_MAX];
        la.unit[i] = late[i];
        int nf = foes_at(s, s->unit[late[i]].hex, foes);
        ak_supply_catchment(s, s->side, s->unit[late[i]].hex, foes, nf, la.catchment[i]);
    }
    gather_supplies(s);
    for (int i = 0; i < la.nunits; i++) {
        bool some = false;
        for (int p = 0; p < la.nsup && !some; p++)
            some = overlaps(la.reach[p], la.catchment[i]);
        if (!some)
            return la.unit[i];
    }
    memset(la.used, 0, sizeof la.used);
    return assign(0) ? -1 : la.unit[la.nunits - 1];
}

static bool refuse_unreachable(const struct ak_state *s, int u, bool several, struct ak_reject *rej)
{
    char at[8];
    return ak_reject(rej, "SUSTAIN-2", "%s would stand in an enemy zone of control at %s more than 5 squares from any of your supply units, and %s this movement portion",
                     ak_def(u)->shortname, ak_hex_format(s->unit[u].hex, at),
                     several ? "your supply units cannot come within reach of it and of your other units in enemy zones"
                             : "none of them can come within reach");
}

bool ak_sustain_still_possible(const struct ak_state *s, const uint8_t *moved, int nmoved,
                               struct ak_reject *rej)
{
    uint8_t late[AK_GROUP_MAX];
    int n = ak_sustain_out_of_reach(s, late, AK_GROUP_MAX);
    if (n == 0)
        return true;
    /* Own units never block a supply route or a supply unit's move: a
     * move of combat units changes nothing for units already out of reach
     * unless it is one of them. */
    bool concerned = moved == NULL;
    for (int i = 0; i < nmoved && !concerned; i++)
        concerned = ak_def(moved[i])->type == AK_TYPE_SUPPLY || memchr(late, moved[i], (size_t)n) != NULL;
    if (!concerned)
        return true;
    int u = unreachable(s, late, n);
    return u < 0 || refuse_unreachable(s, u, n > 1, rej);
}
