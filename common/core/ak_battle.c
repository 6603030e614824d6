/* ak_battle: odds, defense, surrounding, supply routes and supply lines. */
#include "ak_battle.h"

#include <stddef.h>
#include <string.h>

#include "ak_zoc.h"

int ak_odds_column(int attack, int defense, bool surrounded)
{
    if (attack <= 0)
        return AK_ODDS_TOO_LOW;
    if (defense <= 0)
        return AK_ODDS_AUTO;
    if (attack >= defense) {
        int r = attack / defense;       /* 7 to 2 is 3-1: the defender's favour */
        if (r >= 7 || (surrounded && r >= 5))
            return AK_ODDS_AUTO;
        return 4 + r;
    }
    int r = (defense + attack - 1) / attack;    /* 2 to 7 is 1-4 */
    return r > 6 ? AK_ODDS_TOO_LOW : 6 - r;
}

const char *ak_odds_name(int column)
{
    static const char *const names[] = {"1-6", "1-5", "1-4", "1-3", "1-2", "1-1",
                                        "2-1", "3-1", "4-1", "5-1", "6-1", "auto"};
    return column >= 0 && column <= AK_ODDS_AUTO ? names[column] : "worse than 1-6";
}

int ak_defense_now(const struct ak_state *s, int u)
{
    int t = ak_map()->terrain[s->unit[u].hex];
    int d = ak_def(u)->defense;
    return t == AK_TERRAIN_FORTRESS || t == AK_TERRAIN_ESCARPMENT ? 2 * d : d;
}

bool ak_battle_zoc(const struct ak_state *s, int e, ak_hex h)
{
    const struct ak_unit *x = &s->unit[e];
    return x->where == AK_AT_BOARD && ak_unit_is_combat(ak_def(e)) &&
           ak_map()->terrain[x->hex] != AK_TERRAIN_FORTRESS && ak_zoc_covers(s, e, h);
}

void ak_battle_zone_map(const struct ak_state *s, int side, uint8_t *zone)
{
    const struct ak_map *m = ak_map();
    memset(zone, 0, AK_HEX_COUNT);
    for (int e = 0; e < s->units; e++) {
        const struct ak_unit *x = &s->unit[e];
        if (ak_def(e)->side == side || x->where != AK_AT_BOARD || !ak_unit_is_combat(ak_def(e)) ||
            m->terrain[x->hex] == AK_TERRAIN_FORTRESS)
            continue;
        unsigned open = m->open[x->hex];    /* ak_adjacent, onto squares a unit may stand on */
        for (int d = 0; d < AK_DIRS; d++) {
            ak_hex h = ak_hex_step(x->hex, d);
            if ((open & (1u << d)) && m->terrain[h] != AK_TERRAIN_FORTRESS)    /* ak_zoc_covers */
                zone[h] = 1;
        }
    }
}

/* zoc[h]: ZONE where an enemy of side exerts a zone (units in ignore
 * excepted), HELD where enemy combat units stand. */
enum { ZONE = 1, HELD = 2 };
static void enemy_zones(const struct ak_state *s, int side, const uint8_t *ignore, int nignore,
                        uint8_t *zoc)
{
    memset(zoc, 0, AK_HEX_COUNT);
    for (int u = 0; u < s->units; u++) {
        if (ak_def(u)->side != side && ak_on_board(s, u) && ak_unit_is_combat(ak_def(u)))
            zoc[s->unit[u].hex] |= HELD;
        if (ak_def(u)->side == side || !ak_exerts_zoc(s, u))
            continue;
        bool skip = false;
        for (int i = 0; i < nignore && !skip; i++)
            skip = ignore[i] == u;
        if (skip)
            continue;
        for (int d = 0; d < AK_DIRS; d++) {
            ak_hex n = ak_hex_neighbor(s->unit[u].hex, d);
            if (n != AK_HEX_NONE && ak_zoc_covers(s, u, n))
                zoc[n] |= ZONE;
        }
    }
}

bool ak_surrounded(const struct ak_state *s, ak_hex h, int side)
{
    for (int d = 0; d < AK_DIRS; d++) {
        ak_hex n = ak_hex_neighbor(h, d);
        if (n == AK_HEX_NONE || !ak_adjacent(h, n) || !ak_enterable(n) ||
            ak_enemy_combat_at(s, n, side) || ak_in_enemy_zoc(s, n, side))
            continue;
        return false;
    }
    return true;
}

/* Breadth-first over at most AK_SUPPLY_RANGE steps from h: squares in an
 * enemy zone or held by enemy combat units (zoc) end the route. Marks
 * every square reached in from (when given); true as soon as target is
 * reached (AK_HEX_NONE: search to the end). One search for both the
 * single route (ak_supply_reaches) and the catchment. */
static bool supply_search(ak_hex h, ak_hex target, const uint8_t *zoc, uint8_t *from)
{
    ak_hex queue[AK_HEX_COUNT];
    static uint8_t depth[AK_HEX_COUNT];
    memset(depth, 0xff, sizeof depth);
    int head = 0, tail = 0;
    queue[tail++] = h;
    depth[h] = 0;
    if (from)
        from[h] = 1;
    while (head < tail) {
        ak_hex c = queue[head++];
        if (c == target)
            return true;
        if (depth[c] == AK_SUPPLY_RANGE)
            continue;
        unsigned open = ak_map()->open[c];
        for (int d = 0; d < AK_DIRS; d++) {
            if (!(open & (1u << d)))
                continue;
            ak_hex n = ak_hex_neighbor(c, d);
            if (n == AK_HEX_NONE || depth[n] != 0xff || zoc[n])
                continue;
            depth[n] = (uint8_t)(depth[c] + 1);
            if (from)
                from[n] = 1;
            queue[tail++] = n;
        }
    }
    return false;
}

bool ak_supply_reaches(const struct ak_state *s, int sup, ak_hex h, const uint8_t *ignore,
                       int nignore)
{
    static uint8_t zoc[AK_HEX_COUNT];
    const struct ak_unit *x = &s->unit[sup];
    int side = ak_def(sup)->side;
    if (x->where != AK_AT_BOARD || ak_def(sup)->type != AK_TYPE_SUPPLY ||
        ak_hex_distance(x->hex, h) > AK_SUPPLY_RANGE)
        return false;
    enemy_zones(s, side, ignore, nignore, zoc);
    return supply_search(h, x->hex, zoc, NULL);
}

void ak_supply_catchment(const struct ak_state *s, int side, ak_hex h, const uint8_t *ignore,
                         int nignore, uint8_t *from)
{
    static uint8_t zoc[AK_HEX_COUNT];
    enemy_zones(s, side, ignore, nignore, zoc);
    memset(from, 0, AK_HEX_COUNT);
    supply_search(h, AK_HEX_NONE, zoc, from);
}

int ak_supply_near(const struct ak_state *s, int side, ak_hex h, const uint8_t *ignore,
                   int nignore)
{
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == side && ak_def(u)->type == AK_TYPE_SUPPLY &&
            ak_supply_reaches(s, u, h, ignore, nignore))
            return u;
    return AK_UNIT_NONE;
}

/* The squares a line of side may enter (no enemy combat unit) and pass
 * through (no enemy zone either), as sets for ak_hexset_flood. */
static void line_squares(const struct ak_state *s, int side, struct ak_hexset *enter, struct ak_hexset *pass)
{
    *enter = ak_map()->playable;
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side != side && ak_on_board(s, u) && ak_unit_is_combat(ak_def(u)))
            ak_hexset_remove(enter, s->unit[u].hex);
    struct ak_hexset zone;
    ak_enemy_zones(s, side, &zone);
    *pass = *enter;
    ak_hexset_and_not(pass, &zone);
}

/* The lines of side from its supply units and, with home, from its home
 * base (not when enemy combat units hold it): every square reached over
 * squares free of enemy zones; a square in a zone is reached (a line may
 * end there: the supply unit's square, or the unit's own) but not passed
 * through, and one held by enemy combat units is never reached. */
static void lines_fill(const struct ak_state *s, int side, bool home, uint8_t *line)
{
    struct ak_hexset enter, pass, reached;
    line_squares(s, side, &enter, &pass);
    ak_hexset_clear(&reached);
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == side && ak_def(u)->type == AK_TYPE_SUPPLY && ak_on_board(s, u))
            ak_hexset_add(&reached, s->unit[u].hex);
    ak_hex base = ak_map()->homebase[side];
    if (home && base != AK_HEX_NONE && ak_hexset_has(&enter, base))
        ak_hexset_add(&reached, base);
    ak_hexset_flood(&reached, &enter, &pass, ak_map()->open_to);
    ak_hexset_to_bytes(&reached, line);
}

/* What a side's lines depend on, and nothing else: the ruleset (zones
 * out of fortresses), whether the home base seeds them, its own supply
 * units' squares and the enemy combat units' squares with their zones
 * switched off or not (line_squares, ak_exerts_zoc). */
struct lines_key {
    uint8_t ruleset, home;
    uint16_t n;
    struct {
        uint8_t unit, zoc_off;
        ak_hex hex;
    } at[AK_UNIT_MAX];
};

static void lines_key(const struct ak_state *s, int side, bool home, struct lines_key *k)
{
    k->ruleset = s->ruleset;
    k->home = home;
    k->n = 0;
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit_def *d = ak_def(u);
        if (!ak_on_board(s, u) || (d->side == side ? d->type != AK_TYPE_SUPPLY : !ak_unit_is_combat(d)))
            continue;
        k->at[k->n].unit = (uint8_t)u;
        k->at[k->n].zoc_off = (s->unit[u].flags & AK_U_ZOC_OFF) != 0;
        k->at[k->n].hex = s->unit[u].hex;
        k->n++;
    }
}

/* The last lines of each side, with and without the home base, kept with
 * what they depend on: the computer player's reply moves one enemy unit
 * at a time and values the position again, and the plan moves its own
 * combat units, neither of which changes the lines of the side whose
 * supply units and enemies stayed (about half the fills of a classic
 * evaluation). */
static struct {
    bool valid;
    struct lines_key key;
    uint8_t line[AK_HEX_COUNT];
} last_lines[AK_SIDES][2];

static void lines_from(const struct ak_state *s, int side, bool home, uint8_t *line)
{
    static struct lines_key key;
    if (side < 0 || side >= AK_SIDES) {
        lines_fill(s, side, home, line);
        return;
    }
    lines_key(s, side, home, &key);
    size_t size = offsetof(struct lines_key, at) + sizeof key.at[0] * key.n;
    if (last_lines[side][home].valid && last_lines[side][home].key.n == key.n &&
        memcmp(&last_lines[side][home].key, &key, size) == 0) {
        memcpy(line, last_lines[side][home].line, AK_HEX_COUNT);
        return;
    }
    lines_fill(s, side, home, line);
    last_lines[side][home].valid = true;
    memcpy(&last_lines[side][home].key, &key, size);
    memcpy(last_lines[side][home].line, line, AK_HEX_COUNT);
}

void ak_supply_lines(const struct ak_state *s, int side, uint8_t *line)
{
    lines_from(s, side, false, line);
}

/* ISOLATION: "without a Supply Unit and surrounded by enemy zones of
 * control, or a combination of enemy zones, the Sea, the Qattara
 * Depression and board edge". Read as encircled (issue 32,
 * docs/rules-notes.md): the squares a unit reaches through squares free
 * of enemy zones form a pocket that holds no supply unit of its side and
 * does not reach its home base. The one search that finds supply lines,
 * seeded from the home base too, marks every square whose unit is in no
 * such pocket. */
void ak_isolation_map(const struct ak_state *s, int side, uint8_t *open)
{
    lines_from(s, side, true, open);
}

bool ak_isolated(const struct ak_state *s, int u, const uint8_t *open)
{
    return ak_on_board(s, u) && !open[s->unit[u].hex];
}

void ak_battle_sides(const struct ak_state *s, int b, uint8_t *att, int *na, uint8_t *def, int *nd)
{
    *na = *nd = 0;
    for (int u = 0; u < s->units; u++) {
        if (!ak_on_board(s, u) || s->unit[u].battle != b + 1 || !ak_unit_is_combat(ak_def(u)))
            continue;
        if (ak_def(u)->side == s->side && *na < AK_GROUP_MAX)
            att[(*na)++] = (uint8_t)u;
        else if (ak_def(u)->side != s->side && *nd < AK_GROUP_MAX)
            def[(*nd)++] = (uint8_t)u;
    }
}
