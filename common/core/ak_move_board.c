/* ak_move_board: the mover's view of the board and the step checks that
 * both ways of moving share (ak_move_internal.h). The enemy's part of the
 * view is kept between calls with what it depends on (last_marks). */
#include <stddef.h>
#include <string.h>

#include "ak_move_internal.h"
#include "ak_stacking.h"
#include "ak_zoc.h"

/* What the enemy's part of the mover's board (zoc[], enemy[]) depends
 * on, and nothing else: the ruleset (zones out of fortresses), the side,
 * and the enemy units on the board, each with its square and whether its
 * zone is switched off (ak_exerts_zoc; the kind of unit comes with its
 * index). The marks are made from the key alone (mark_enemies), so that
 * they cannot read anything it leaves out. */
struct enemy_key {
    uint8_t ruleset, side;
    uint16_t n;
    struct {
        uint8_t unit, zoc_off;
        ak_hex hex;
    } at[AK_UNIT_MAX];
};

/* s's enemy units for side into k, and side's own combat units per
 * square into own_combat, in one pass over the units. */
static void key_and_own(const struct ak_state *s, int side, struct enemy_key *k, uint8_t *own_combat)
{
    k->ruleset = s->ruleset;
    k->side = (uint8_t)side;
    k->n = 0;
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit *x = &s->unit[u];
        if (x->where != AK_AT_BOARD)
            continue;
        if (ak_def(u)->side == side) {
            own_combat[x->hex] += ak_unit_is_combat(ak_def(u));
            continue;
        }
        k->at[k->n].unit = (uint8_t)u;
        k->at[k->n].zoc_off = (x->flags & AK_U_ZOC_OFF) != 0;
        k->at[k->n].hex = x->hex;
        k->n++;
    }
}

/* Whether an enemy unit exerts a zone: ak_exerts_zoc, from the key. */
static bool key_exerts(const struct enemy_key *k, int i)
{
    const struct ak_unit_def *d = ak_def(k->at[i].unit);
    return ak_unit_is_combat(d) && !k->at[i].zoc_off &&
           (ak_map()->terrain[k->at[i].hex] != AK_TERRAIN_FORTRESS || ak_ruleset_get(k->ruleset)->zoc_out_of_fortress);
}

static void mark_enemies(const struct enemy_key *k, uint8_t *zoc, uint8_t *enemy)
{
    const struct ak_map *m = ak_map();
    memset(zoc, 0, AK_HEX_COUNT);
    memset(enemy, 0, AK_HEX_COUNT);
    for (int i = 0; i < k->n; i++) {
        const struct ak_unit_def *d = ak_def(k->at[i].unit);
        ak_hex at = k->at[i].hex;
        if (ak_unit_is_combat(d))
            enemy[at] |= k->at[i].zoc_off ? ENEMY_PASSABLE : ENEMY_COMBAT;
        else
            enemy[at] |= ENEMY_OTHER;
        bool supply = d->type == AK_TYPE_SUPPLY, exerts = key_exerts(k, i);
        if (supply)
            enemy[at] |= ENEMY_SUPPLY_NEAR;
        if (!supply && !exerts)
            continue;
        unsigned blocked = m->blocked[at];
        for (int dir = 0; dir < AK_DIRS; dir++) {
            ak_hex h = ak_hex_neighbor(at, dir);
            if (h == AK_HEX_NONE || (blocked & (1u << dir)))
                continue;
            if (supply)
                enemy[h] |= ENEMY_SUPPLY_NEAR;
            if (exerts && m->terrain[h] != AK_TERRAIN_FORTRESS)    /* ak_zoc_covers */
                zoc[h] = 1;
        }
    }
}

/* Each side's last enemy marks, with their key: a side's moves in one
 * movement part leave the enemy where it stands, so each move checked
 * after the first (a playout checks every move it makes,
 * ai/ak_ai_rollout.c) copies them instead of marking them again, and the
 * computer player's reply, which asks the other side's moves in between,
 * keeps its own. A key that differs in anything the marks read marks
 * again; a wrong hit is impossible. Not reentrant, like the engine's
 * other memories (ak_move_internal.h). */
static struct {
    bool valid;
    struct enemy_key key;
    uint8_t zoc[AK_HEX_COUNT], enemy[AK_HEX_COUNT];
} last_marks[AK_SIDES];

void ak_move_board_mark(const struct ak_state *s, int side, struct ak_move_board *b)
{
    static struct enemy_key key;
    memset(b->own_combat, 0, sizeof b->own_combat);
    key_and_own(s, side, &key, b->own_combat);
    if (side < 0 || side >= AK_SIDES) {
        mark_enemies(&key, b->zoc, b->enemy);
        return;
    }
    size_t size = offsetof(struct enemy_key, at) + sizeof key.at[0] * key.n;
    if (!last_marks[side].valid || memcmp(&last_marks[side].key, &key, size) != 0) {
        mark_enemies(&key, last_marks[side].zoc, last_marks[side].enemy);
        last_marks[side].valid = true;
        memcpy(&last_marks[side].key, &key, size);
    }
    memcpy(b->zoc, last_marks[side].zoc, sizeof b->zoc);
    memcpy(b->enemy, last_marks[side].enemy, sizeof b->enemy);
}

static const char *why_not_enterable(const struct ak_map *m, ak_hex from, int dir, ak_hex to)
{
    if (from != AK_HEX_NONE && (m->blocked[from] & (1u << dir)))
        return "the hexside between them is water or Qattara";
    return m->terrain[to] == AK_TERRAIN_QATTARA ? "it is in the Qattara Depression"
           : m->terrain[to] == AK_TERRAIN_SEA   ? "it is sea"
                                                : "it is off the board";
}

bool ak_move_step_basic(const struct ak_move_board *b, bool combat, ak_hex from, ak_hex to,
                        struct ak_reject *rej)
{
    char x[8], y[8];
    int dir = ak_hex_dir(from, to);
    if (dir < 0)
        return rej && ak_reject(rej, "MOVE-4", "%s and %s are not adjacent squares", ak_hex_format(from, x),
                                ak_hex_format(to, y));
    const struct ak_map *m = ak_map();
    int terrain = m->terrain[to];
    if (terrain == AK_TERRAIN_OFFBOARD || terrain == AK_TERRAIN_SEA || terrain == AK_TERRAIN_QATTARA ||
        (m->blocked[from] & (1u << dir)))
        return rej && ak_reject(rej, "MOVE-8", "%s cannot be entered from %s: %s", ak_hex_format(to, x),
                                ak_hex_format(from, y), why_not_enterable(m, from, dir, to));
    uint8_t e = b->enemy[to];
    if (e & ENEMY_COMBAT)
        return rej && ak_reject(rej, "MOVE-6", "%s is held by enemy combat units; no unit moves onto or over them",
                                ak_hex_format(to, x));
    if (!combat && (e & (ENEMY_OTHER | ENEMY_PASSABLE)))
        return rej && ak_reject(rej, "MOVE-6", "%s holds enemy units; without combat units the stack cannot move onto them",
                                ak_hex_format(to, x));
    if (!combat && (e & ENEMY_SUPPLY_NEAR))
        return rej && ak_reject(rej, "CAPTURE-5", "supply units without combat units may not move next to enemy supply at %s",
                                ak_hex_format(to, x));
    return true;
}

bool ak_move_dest_basic(const struct ak_move_board *b, bool combat, ak_hex dest, struct ak_reject *rej)
{
    char a[8];
    if (!ak_enterable(dest))
        return ak_reject(rej, "MOVE-8", "%s cannot be entered: %s", ak_hex_format(dest, a),
                         why_not_enterable(ak_map(), AK_HEX_NONE, 0, dest));
    if (b->enemy[dest] & ENEMY_COMBAT)
        return ak_reject(rej, "MOVE-6", "%s is held by enemy combat units", ak_hex_format(dest, a));
    if (!combat && (b->enemy[dest] & (ENEMY_OTHER | ENEMY_SUPPLY_NEAR)))
        return ak_reject(rej, b->enemy[dest] & ENEMY_OTHER ? "MOVE-6" : "CAPTURE-5",
                         "supply units without combat units may not move onto or next to enemy supply at %s",
                         ak_hex_format(dest, a));
    return true;
}

bool ak_move_junction_breaks(ak_hex a, ak_hex b, ak_hex c)
{
    const struct ak_map *m = ak_map();
    if (!m->is_junction[b])     /* most road squares: no list to scan */
        return false;
    for (int j = 0; j < m->junctions; j++)
        if (m->junction[j].b == b &&
            ((m->junction[j].a == a && m->junction[j].c == c) || (m->junction[j].c == a && m->junction[j].a == c)))
            return true;
    return false;
}

int ak_move_combat_count(const uint8_t *units, int n)
{
    int combat = 0;
    for (int i = 0; i < n; i++)
        combat += ak_unit_is_combat(ak_def(units[i]));
    return combat;
}

bool ak_move_can_stop(const struct ak_ruleset *r, const struct ak_state *s, const struct ak_move_board *b,
                      int side, const uint8_t *units, int n, int combat, ak_hex h, struct ak_reject *rej)
{
    char a[8];
    if (b->enemy[h] & (ENEMY_PASSABLE | ENEMY_COMBAT))
        return ak_reject(rej, "MOVE-6", "the stack may pass over the beaten enemy at %s but not stop on it",
                         ak_hex_format(h, a));
    if (n > 0 && s->unit[units[0]].hex == h)
        return true;
    /* The common case from the board's counts; the Italian limit looks at
     * who is there (the search asks this for every square it reaches). */
    if (combat == 0 || (b->own_combat[h] + combat <= r->stack_limit &&
                        (r->italian_stack_limit <= 0 || b->own_combat[h] + combat <= r->italian_stack_limit)))
        return true;
    return ak_stack_room(r, s, h, side, units, n, rej);
}
