/* ak_updated_supply: the Updated ruleset's supply phase (seed 003, SUPPLY
 * PHASE 1-4, SU SUMMARY (4) and (5), PORTS 1): trace supply, out of supply
 * and isolated marks, supply units as extenders and emergency supply.
 *
 * As the supply phase begins, each combat unit of the phasing side traces:
 *
 *   - in supply: a line of at most 5 squares to a road square whose road
 *     leads back to a source of its side, to a source itself, or to one of
 *     its supply units that has such a line itself (an extender, which
 *     stays; one link only, SUs never chain);
 *   - out of supply otherwise (marked until its side's next supply phase);
 *   - isolated as well when no line of any length reaches one of its
 *     supply units, its port or its entry square.
 *
 * Sources: the side's entry square (the data file's `entry`, where the
 * road leaves the map towards its off-board box) and Tobruch for the side
 * controlling it; Bengasi never. A road leads back when it runs along road
 * hexsides to a source or a square next to one. Lines and roads cross no
 * square holding an enemy unit and no square in an enemy zone of control
 * without a friendly combat unit in it (NEW ZOCS 3: friendly units negate
 * zones for supply; reading A-23 (a)). Units out of supply within 5
 * squares of a supply unit that is not an extender may be saved by
 * burning it (`burn_supply`, emergency supply). Readings in
 * docs/rules-notes.md; cases U-136 to U-149. */
#include <string.h>

#include "ak_combat.h"
#include "ak_updated.h"
#include "ak_zoc.h"

#define TRACE 5         /* SUPPLY PHASE 1, SU SUMMARY (4): 5 hexes */
#define ANY_LENGTH (-1)

/* The work of one trace, as sets of squares for the fills (ak_hexset). */
struct trace {
    struct ak_hexset pass;              /* a line may pass (and so may a road) */
    struct ak_hexset source;
    struct ak_hexset road;              /* a road square whose road leads back */
    struct ak_hexset reached;           /* what the last spread reached */
    ak_hex sources[AK_ENTRY_MAX + 1];
    int nsources;
    ak_hex queue[AK_HEX_COUNT];
};

static struct trace T;  /* one work area; the engine is single-threaded */

/* No square holding an enemy unit, none in an enemy zone without a
 * friendly combat unit in it (NEW ZOCS 3). Unit by unit: a scan of the
 * squares would look at all of them for the few that matter. */
static void mark_passable(const struct ak_state *s, int side, struct trace *t)
{
    struct ak_hexset zone, friendly;
    ak_hexset_clear(&friendly);
    t->pass = ak_map()->playable;
    for (int u = 0; u < s->units; u++) {
        if (!ak_on_board(s, u))
            continue;
        if (ak_def(u)->side != side)
            ak_hexset_remove(&t->pass, s->unit[u].hex);
        else if (ak_unit_is_combat(ak_def(u)))
            ak_hexset_add(&friendly, s->unit[u].hex);
    }
    ak_enemy_zones(s, side, &zone);
    ak_hexset_and_not(&zone, &friendly);
    ak_hexset_and_not(&t->pass, &zone);
}

static void add_source(struct trace *t, ak_hex h)
{
    if (ak_hexset_has(&t->source, h))
        return;
    ak_hexset_add(&t->source, h);
    t->sources[t->nsources++] = h;
}

static void mark_sources(const struct ak_state *s, int side, struct trace *t)
{
    const struct ak_updated_calendar *c = &ak_data()->updated;
    ak_hexset_clear(&t->source);
    t->nsources = 0;
    for (int i = 0; i < c->nentries[side]; i++)
        if (ak_hexset_has(&t->pass, c->entry[side][i]))
            add_source(t, c->entry[side][i]);
    if (ak_control_now(s, AK_KEY_TOBRUCH) == side)
        add_source(t, ak_map()->tobruch);   /* PORTS 1: a supply source by sea for its controller */
}

static bool next_to_source(const struct trace *t, ak_hex h)
{
    for (int d = 0; d < AK_DIRS; d++) {
        ak_hex n = ak_hex_neighbor(h, d);
        if (n != AK_HEX_NONE && (ak_map()->open[h] & (1u << d)) && ak_hexset_has(&t->source, n))
            return true;
    }
    return ak_hexset_has(&t->source, h);
}

/* May the road network step from h to its neighbour n in direction d?
 * Along a road hexside, or between a road end and the town square it
 * stops at: the map's roads end next to Bengasi and Tobruch (no road
 * hexside touches either), and the Coast Road runs through Bengasi. */
static bool road_link(const struct ak_map *m, ak_hex h, int d, ak_hex n)
{
    if (m->road[h] & (1u << d))
        return true;
    bool town_h = m->terrain[h] == AK_TERRAIN_FORTRESS, town_n = m->terrain[n] == AK_TERRAIN_FORTRESS;
    return (m->open[h] & (1u << d)) && ((town_n && m->road[h]) || (town_h && m->road[n]));
}

/* Road squares (and the towns they run through) from which the road leads
 * back to a source. */
static void mark_roads(struct trace *t)
{
    const struct ak_map *m = ak_map();
    int head = 0, tail = 0;
    ak_hexset_clear(&t->road);
    /* the roads' first squares: a source or a square next to one */
    for (int i = 0; i < t->nsources; i++)
        for (int d = -1; d < AK_DIRS; d++) {
            ak_hex h = d < 0 ? t->sources[i] : ak_hex_neighbor(t->sources[i], d);
            if (h != AK_HEX_NONE && m->road[h] && ak_hexset_has(&t->pass, h) && !ak_hexset_has(&t->road, h) &&
                next_to_source(t, h)) {
                ak_hexset_add(&t->road, h);
                t->queue[tail++] = h;
            }
        }
    while (head < tail) {
        ak_hex h = t->queue[head++];
        for (int d = 0; d < AK_DIRS; d++) {
            ak_hex n = ak_hex_neighbor(h, d);
            if (n != AK_HEX_NONE && road_link(m, h, d, n) && !ak_hexset_has(&t->road, n) &&
                ak_hexset_has(&t->pass, n)) {
                ak_hexset_add(&t->road, n);
                t->queue[tail++] = n;
            }
        }
    }
}

/* From the seeds through passable squares, at most limit squares
 * (ANY_LENGTH: no limit): t->reached. A square that cannot be passed is
 * still reached, as the end of a line: the square of the unit or supply
 * unit that traces never blocks its own line (a supply unit alone in an
 * enemy zone still extends or burns). */
static void spread(struct trace *t, const struct ak_hexset *seeds, int limit)
{
    const struct ak_map *m = ak_map();
    t->reached = *seeds;
    if (limit == ANY_LENGTH)
        ak_hexset_flood(&t->reached, &m->playable, &t->pass, m->open_to);
    else
        ak_hexset_reach(&t->reached, &m->playable, &t->pass, m->open_to, limit);
}

static bool own_supply_on_board(const struct ak_state *s, int u, int side)
{
    return ak_on_board(s, u) && ak_def(u)->side == side && ak_def(u)->type == AK_TYPE_SUPPLY;
}

/* in[h]: a unit on h is in supply by road, source or extender. extender[u]
 * for supply units. */
static void trace_supply(const struct ak_state *s, int side, uint8_t *in, bool *extender)
{
    struct ak_hexset seeds, supplied;
    mark_passable(s, side, &T);
    mark_sources(s, side, &T);
    mark_roads(&T);
    seeds = T.road;
    ak_hexset_or(&seeds, &T.source);
    spread(&T, &seeds, TRACE);
    supplied = T.reached;
    ak_hexset_clear(&seeds);
    for (int u = 0; u < s->units; u++) {
        extender[u] = own_supply_on_board(s, u, side) && ak_hexset_has(&supplied, s->unit[u].hex);
        if (extender[u])
            ak_hexset_add(&seeds, s->unit[u].hex);
    }
    spread(&T, &seeds, TRACE);
    ak_hexset_or(&supplied, &T.reached);
    ak_hexset_to_bytes(&supplied, in);
}

/* not_isolated[h]: a line of any length reaches a supply unit, the port or
 * the entry square (SUPPLY PHASE 4). Uses T as trace_supply left it. */
static void trace_lines(const struct ak_state *s, int side, uint8_t *reached)
{
    struct ak_hexset seeds = T.source;
    for (int u = 0; u < s->units; u++)
        if (own_supply_on_board(s, u, side))
            ak_hexset_add(&seeds, s->unit[u].hex);
    spread(&T, &seeds, ANY_LENGTH);
    ak_hexset_to_bytes(&T.reached, reached);
}

/* The last supply traced for the maps below: the position (every byte of
 * it) and side, what the trace found, and what trace_lines reads of T.
 * The computer player's evaluation asks a position's supply map and then,
 * when a unit is out of supply, its isolation map, which traces the same
 * supply first: the second finds the first's work here (a fifth of an
 * Updated evaluation). A position that differs in any byte, padding
 * included, traces again: a miss costs a comparison that stops at the
 * first difference and a copy, a wrong hit is impossible. */
static struct {
    bool valid;
    int side;
    struct ak_state s;
    uint8_t in[AK_HEX_COUNT];
    struct ak_hexset pass, source;
} last;

static void trace_supply_map(const struct ak_state *s, int side, uint8_t *in)
{
    static bool extender[AK_UNIT_MAX];
    if (last.valid && last.side == side && memcmp(&last.s, s, sizeof *s) == 0) {
        memcpy(in, last.in, AK_HEX_COUNT);
        T.pass = last.pass;
        T.source = last.source;
        return;
    }
    trace_supply(s, side, in, extender);
    last.valid = true;
    last.side = side;
    memcpy(&last.s, s, sizeof *s);    /* every byte: the key is compared by memcmp */
    memcpy(last.in, in, AK_HEX_COUNT);
    last.pass = T.pass;
    last.source = T.source;
}

void ak_updated_supply_map(const struct ak_state *s, int side, uint8_t *in)
{
    trace_supply_map(s, side, in);
}

void ak_updated_isolation_map(const struct ak_state *s, int side, uint8_t *open)
{
    static uint8_t in[AK_HEX_COUNT];
    trace_supply_map(s, side, in);
    trace_lines(s, side, open);
    for (ak_hex h = 0; h < AK_HEX_COUNT; h++)     /* both maps hold 0 or 1 */
        open[h] |= in[h];
}

void ak_updated_supply_phase(struct ak_state *s, struct ak_events *ev)
{
    static uint8_t in[AK_HEX_COUNT], line[AK_HEX_COUNT];
    static bool extender[AK_UNIT_MAX];
    int side = s->side;
    trace_supply(s, side, in, extender);
    trace_lines(s, side, line);
    for (int u = 0; u < s->units; u++) {
        struct ak_unit *x = &s->unit[u];
        if (!ak_on_board(s, u) || ak_def(u)->side != side || !ak_unit_is_combat(ak_def(u)))
            continue;
        uint8_t before = x->marks;
        x->marks &= (uint8_t)~(AK_MARK_OOS | AK_MARK_ISOLATED);
        if (!in[x->hex])
            x->marks |= AK_MARK_OOS | (line[x->hex] ? 0 : AK_MARK_ISOLATED);
        if (x->marks & AK_MARK_OOS)
            ak_event_add(ev, AK_EV_OUT_OF_SUPPLY, side, u, AK_UNIT_NONE, x->hex, AK_HEX_NONE,
                         (x->marks & AK_MARK_ISOLATED) != 0, 0, 0);
        else if (before & AK_MARK_OOS)
            ak_event_add(ev, AK_EV_OUT_OF_SUPPLY, side, u, AK_UNIT_NONE, x->hex, AK_HEX_NONE, -1, 0, 0);
    }
}

/* SUPPLY PHASE 3, SU SUMMARY (5): burn a supply unit that cannot extend a
 * road, to keep every unit within 5 squares of it in full supply. */
bool ak_updated_burn_supply(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                            struct ak_events *ev, struct ak_reject *rej)
{
    static uint8_t in[AK_HEX_COUNT];
    static bool extender[AK_UNIT_MAX];
    struct ak_hexset seed;
    (void)r;
    if (a->nunits != 1)
        return ak_reject(rej, "ACTION", "name one supply unit to burn");
    int su = a->units[0];
    const char *name = ak_def(su)->shortname;
    if (!own_supply_on_board(s, su, s->side))
        return ak_reject(rej, "UPD-SUPPLY-3", "%s is not one of your supply units on the board", name);
    trace_supply(s, s->side, in, extender);
    if (extender[su])
        return ak_reject(rej, "UPD-SUPPLY-3", "%s reaches a road to a source within 5 squares: it extends supply without being burned",
                         name);
    ak_hexset_clear(&seed);
    ak_hexset_add(&seed, s->unit[su].hex);
    spread(&T, &seed, TRACE);
    int saved = 0;
    for (int u = 0; u < s->units; u++) {
        struct ak_unit *x = &s->unit[u];
        if (ak_on_board(s, u) && ak_def(u)->side == s->side && ak_unit_is_combat(ak_def(u)) &&
            (x->marks & AK_MARK_OOS) && ak_hexset_has(&T.reached, x->hex)) {
            x->marks &= (uint8_t)~(AK_MARK_OOS | AK_MARK_ISOLATED);
            ak_event_add(ev, AK_EV_OUT_OF_SUPPLY, s->side, u, AK_UNIT_NONE, x->hex, AK_HEX_NONE, -1, 0, 0);
            saved++;
        }
    }
    if (saved == 0)
        return ak_reject(rej, "UPD-SUPPLY-3", "no unit out of supply traces to %s: burning it would save nothing", name);
    ak_event_add(ev, AK_EV_SUPPLY_USED, s->side, su, AK_UNIT_NONE, s->unit[su].hex, AK_HEX_NONE, saved, 0, 1);
    s->unit[su].where = AK_AT_POOL;
    s->unit[su].hex = s->unit[su].start_hex = AK_HEX_NONE;
    return true;
}

/* ---- isolation attrition (ISOLATION ATTRITION 1-4) ----------------------
 * After the marks, each square holding isolated units of the mover may
 * first declare a break-out (`break_out`); when the phase ends every such
 * square rolls two dice, -1 with enemy combat units next to it: 7 or less
 * is a 50% loss met as in combat, counted in the units' printed defense
 * factors (A-29 (a)); a square that broke out loses all its units and its
 * side gets infantry replacement points, half (rounded up) of the factors
 * removed beyond what the roll required. */

int ak_updated_isolated_stack(const struct ak_state *s, ak_hex h, uint8_t *out)
{
    int n = 0;
    for (int u = 0; u < s->units && n < AK_GROUP_MAX; u++)
        if (ak_on_board(s, u) && s->unit[u].hex == h && ak_def(u)->side == s->side && ak_unit_is_combat(ak_def(u)))
            out[n++] = (uint8_t)u;
    return n;
}

static bool isolated_square(const struct ak_state *s, ak_hex h, bool *break_out)
{
    bool any = false;
    *break_out = false;
    for (int u = 0; u < s->units; u++)
        if (ak_on_board(s, u) && s->unit[u].hex == h && ak_def(u)->side == s->side &&
            (s->unit[u].marks & AK_MARK_ISOLATED)) {
            any = true;
            *break_out |= (s->unit[u].marks & AK_MARK_BREAK_OUT) != 0;
        }
    return any;
}

bool ak_updated_enemy_adjacent(const struct ak_state *s, ak_hex h)
{
    for (int u = 0; u < s->units; u++)
        if (ak_on_board(s, u) && ak_def(u)->side != s->side && ak_unit_is_combat(ak_def(u)) &&
            ak_adjacent(s->unit[u].hex, h))
            return true;
    return false;
}

bool ak_updated_break_out(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                          struct ak_events *ev, struct ak_reject *rej)
{
    char h[8];
    bool declared;
    (void)r;
    if (a->hex < 0 || a->hex >= AK_HEX_COUNT || !isolated_square(s, a->hex, &declared))
        return ak_reject(rej, "UPD-ATTRITION", "no unit of yours at %s is isolated", ak_hex_format(a->hex, h));
    if (declared)
        return ak_reject(rej, "UPD-ATTRITION", "the units at %s already break out", ak_hex_format(a->hex, h));
    for (int u = 0; u < s->units; u++)
        if (ak_on_board(s, u) && s->unit[u].hex == a->hex && ak_def(u)->side == s->side && ak_unit_is_combat(ak_def(u)))
            s->unit[u].marks |= AK_MARK_BREAK_OUT;
    ak_event_add(ev, AK_EV_ATTRITION, s->side, AK_UNIT_NONE, AK_UNIT_NONE, a->hex, AK_HEX_NONE, 0, 0, 3);
    return true;
}

/* A square that broke out: every unit goes, points for what the roll did
 * not require (ISOLATION ATTRITION 3-4). */
static void break_out(struct ak_state *s, ak_hex h, bool loss, struct ak_events *ev)
{
    uint8_t units[AK_GROUP_MAX];
    int n = ak_updated_isolated_stack(s, h, units), total = 0;
    for (int i = 0; i < n; i++)
        total += ak_updated_step_factor(s, units[i], false);
    int required = loss ? (total + 1) / 2 : 0;
    int points = (total - required + 1) / 2;
    struct ak_event *e = ak_event_last(ev);
    if (e && e->kind == AK_EV_ATTRITION)
        e->d = (int16_t)points;
    for (int i = 0; i < n; i++)
        ak_eliminate(s, units[i], AK_ELIM_ISOLATED, ev);
    int pool = s->pool[s->side][AK_POOL_INFANTRY] + points;
    s->pool[s->side][AK_POOL_INFANTRY] = (uint8_t)(pool > 255 ? 255 : pool);
}

/* The first square after `after`, in the board's order, that holds an
 * isolated unit of the mover (AK_HEX_NONE: none): unit by unit, not a scan
 * of every square. */
static ak_hex next_isolated_square(const struct ak_state *s, ak_hex after)
{
    ak_hex next = AK_HEX_NONE;
    for (int u = 0; u < s->units; u++) {
        ak_hex h = s->unit[u].hex;
        if (ak_on_board(s, u) && ak_def(u)->side == s->side && (s->unit[u].marks & AK_MARK_ISOLATED) &&
            h > after && (next == AK_HEX_NONE || h < next))
            next = h;
    }
    return next;
}

void ak_updated_attrition(struct ak_state *s, ak_hex after, struct ak_events *ev)
{
    for (ak_hex h = next_isolated_square(s, after); h != AK_HEX_NONE; h = next_isolated_square(s, h)) {
        bool declared;
        isolated_square(s, h, &declared);
        int roll = ak_rng_die(&s->rng) + ak_rng_die(&s->rng);
        int modified = roll - (ak_updated_enemy_adjacent(s, h) ? 1 : 0);
        bool loss = modified <= 7;
        ak_event_add(ev, AK_EV_ATTRITION, s->side, AK_UNIT_NONE, AK_UNIT_NONE, h, AK_HEX_NONE, roll, modified,
                     declared ? 2 : loss);
        if (declared) {
            break_out(s, h, loss, ev);
            continue;
        }
        if (!loss)
            continue;
        uint8_t units[AK_GROUP_MAX];
        int n = ak_updated_isolated_stack(s, h, units), total = 0;
        for (int i = 0; i < n; i++)
            total += ak_updated_step_factor(s, units[i], false);
        s->pending = (struct ak_pending){.kind = AK_PEND_LOSSES, .side = s->side, .percent = AK_LOSS_ATTRITION,
                                         .need = (uint8_t)(total > 255 ? 255 : total), .hex = h};
        return;
    }
    ak_updated_begin_phase(s, AK_PHASE_REPLACEMENT, ev);
}
