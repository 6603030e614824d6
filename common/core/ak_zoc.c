/* ak_zoc: adjacency and zone of control queries over a state. */
#include "ak_zoc.h"

#include "ak_rules.h"

#include <string.h>

bool ak_enterable(ak_hex h)
{
    if (h < 0 || h >= AK_HEX_COUNT)
        return false;
    int t = ak_map()->terrain[h];
    return t != AK_TERRAIN_OFFBOARD && t != AK_TERRAIN_SEA && t != AK_TERRAIN_QATTARA;
}

bool ak_exerts_zoc(const struct ak_state *s, int u)
{
    const struct ak_unit *x = &s->unit[u];
    return x->where == AK_AT_BOARD && ak_unit_is_combat(ak_def(u)) &&
           !(x->flags & AK_U_ZOC_OFF) &&
           (ak_map()->terrain[x->hex] != AK_TERRAIN_FORTRESS || ak_ruleset_get(s->ruleset)->zoc_out_of_fortress);
}

bool ak_zoc_covers(const struct ak_state *s, int u, ak_hex h)
{
    return ak_map()->terrain[h] != AK_TERRAIN_FORTRESS && ak_adjacent(s->unit[u].hex, h);
}

bool ak_in_enemy_zoc(const struct ak_state *s, ak_hex h, int side)
{
    if (ak_map()->terrain[h] == AK_TERRAIN_FORTRESS)
        return false;
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side != side && ak_exerts_zoc(s, u) && ak_adjacent(s->unit[u].hex, h))
            return true;
    return false;
}

/* A zone an automatic victory switched off: the unit would exert one. */
static bool zoc_switched_off(const struct ak_state *s, int u)
{
    const struct ak_unit *x = &s->unit[u];
    return x->where == AK_AT_BOARD && ak_unit_is_combat(ak_def(u)) && (x->flags & AK_U_ZOC_OFF) &&
           (ak_map()->terrain[x->hex] != AK_TERRAIN_FORTRESS || ak_ruleset_get(s->ruleset)->zoc_out_of_fortress);
}

bool ak_attacks_from(const struct ak_state *s, ak_hex h, int side)
{
    if (ak_map()->terrain[h] == AK_TERRAIN_FORTRESS)
        return false;
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side != side && (ak_exerts_zoc(s, u) || zoc_switched_off(s, u)) &&
            ak_adjacent(s->unit[u].hex, h))
            return true;
    return false;
}

bool ak_same_enemy_zoc(const struct ak_state *s, ak_hex a, ak_hex b, int side)
{
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side != side && ak_exerts_zoc(s, u) &&
            ak_zoc_covers(s, u, a) && ak_zoc_covers(s, u, b))
            return true;
    return false;
}

bool ak_enemy_supply_near(const struct ak_state *s, ak_hex h, int side)
{
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit *x = &s->unit[u];
        if (x->where == AK_AT_BOARD && ak_def(u)->side != side &&
            ak_def(u)->type == AK_TYPE_SUPPLY && (x->hex == h || ak_adjacent(x->hex, h)))
            return true;
    }
    return false;
}

bool ak_enemy_unit_adjacent(const struct ak_state *s, ak_hex h, int side)
{
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit *x = &s->unit[u];
        if (x->where == AK_AT_BOARD && ak_def(u)->side != side &&
            ak_def(u)->type != AK_TYPE_HEADQUARTERS && ak_adjacent(x->hex, h))
            return true;
    }
    return false;
}

void ak_mark_near_enemy(const struct ak_state *s, int side, uint8_t *near)
{
    memset(near, 0, AK_HEX_COUNT);
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit *x = &s->unit[u];
        if (x->where != AK_AT_BOARD || ak_def(u)->side == side ||
            ak_def(u)->type == AK_TYPE_HEADQUARTERS)
            continue;
        for (int d = 0; d < AK_DIRS; d++) {
            ak_hex n = ak_hex_neighbor(x->hex, d);
            if (n != AK_HEX_NONE && ak_adjacent(x->hex, n))
                near[n] = 1;
        }
    }
}

static void enemy_zones_walk(const struct ak_state *s, int side, struct ak_hexset *zone)
{
    ak_hexset_clear(zone);
    for (int u = 0; u < s->units; u++) {
        if (ak_def(u)->side == side || !ak_exerts_zoc(s, u))
            continue;
        for (int d = 0; d < AK_DIRS; d++) {
            ak_hex n = ak_hex_neighbor(s->unit[u].hex, d);
            if (n != AK_HEX_NONE && ak_enterable(n) && ak_zoc_covers(s, u, n))
                ak_hexset_add(zone, n);
        }
    }
}

/* The last zones walked for each side, with the position (every byte of
 * it) they were walked in: one evaluation of the computer player asks a
 * side's zones for its zone map, its supply lines and its isolation
 * map, all of the same position. A position that differs in any byte,
 * padding included, is walked again (a comparison that stops at the
 * first difference, and a copy); a wrong answer is impossible. */
static struct {
    bool valid;
    struct ak_state s;
    struct ak_hexset zone;
} last_zones[AK_SIDES];

void ak_enemy_zones(const struct ak_state *s, int side, struct ak_hexset *zone)
{
    if (side < 0 || side >= AK_SIDES) {
        enemy_zones_walk(s, side, zone);
        return;
    }
    if (last_zones[side].valid && memcmp(&last_zones[side].s, s, sizeof *s) == 0) {
        *zone = last_zones[side].zone;
        return;
    }
    enemy_zones_walk(s, side, zone);
    last_zones[side].valid = true;
    memcpy(&last_zones[side].s, s, sizeof *s);    /* every byte: the key is compared by memcmp */
    last_zones[side].zone = *zone;
}
