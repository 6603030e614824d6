/* ak_move_board: the mover's view of the board and the step checks that
 * both ways of moving share (ak_move_internal.h). */
#include <stddef.h>
#include <string.h>

#include "ak_move_internal.h"
#include "ak_stacking.h"
#include "ak_zoc.h"

/* What the enemy's part of the mover's board (zoc[], enemy[]) depends
 * on, and nothing else: the ruleset (zones out of fortresses), the side,
 * and the enemy units on the board, each with its square and whether its
 * zone is switched off (ak_exerts_zoc; the kind of unit comes with its
 * index). */
struct enemy_key {
    uint8_t ruleset, side;
    uint16_t n;
    struct {
        uint8_t unit, zoc_off;
        ak_hex hex;
    } at[AK_UNIT_MAX];
};

/* The key of s's enemy units for side, and side's own combat units per
 * square in own_combat, in one pass over the units. */
static void enemy_key(const struct ak_state *s, int side, struct enemy_key *k, uint8_t *own_combat)
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

static void mark_enemy(const struct ak_state *s, int side, struct ak_move_board *b)
{
    const struct ak_map *m = ak_map();
    memset(b->zoc, 0, sizeof b->zoc);
    memset(b->enemy, 0, sizeof b->enemy);
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit *x = &s->unit[u];
        const struct ak_unit_def *d = ak_def(u);
        if (x->where != AK_AT_BOARD || d->side == side)
            continue;
        if (ak_unit_is_combat(d))
            b->enemy[x->hex] |= (x->flags & AK_U_ZOC_OFF) ? ENEMY_PASSABLE : ENEMY_COMBAT;
        else
            b->enemy[x->hex] |= ENEMY_OTHER;
        if (d->type == AK_TYPE_SUPPLY)
            b->enemy[x->hex] |= ENEMY_SUPPLY_NEAR;
        bool supply = d->type == AK_TYPE_SUPPLY, exerts = ak_exerts_zoc(s, u);
        if (!supply && !exerts)
            continue;
        unsigned blocked = m->blocked[x->hex];
        for (int dir = 0; dir < AK_DIRS; dir++) {
            ak_hex h = ak_hex_neighbor(x->hex, dir);
            if (h == AK_HEX_NONE || (blocked & (1u << dir)))
                continue;
            if (supply)
                b->enemy[h] |= ENEMY_SUPPLY_NEAR;
            if (exerts && m->terrain[h] != AK_TERRAIN_FORTRESS)    /* ak_zoc_covers */
                b->zoc[h] = 1;
        }
    }
}

/* The enemy's part of the last board marked, with its key: a side's
 * moves in one movement part leave the enemy where it stands, so each
 * move checked after the first (a playout checks every move it makes,
 * ai/ak_ai_rollout.c) copies it instead of marking it again. A key that
 * differs in anything the marks read marks again; a wrong hit is
 * impossible. Not reentrant, like the engine's other memos. */
static struct {
    bool valid;
    struct enemy_key key;
    uint8_t zoc[AK_HEX_COUNT], enemy[AK_HEX_COUNT];
} last_board;

void ak_move_board_mark(const struct ak_state *s, int side, struct ak_move_board *b)
{
    static struct enemy_key key;
    memset(b->own_combat, 0, sizeof b->own_combat);
    enemy_key(s, side, &key, b->own_combat);
    size_t size = offsetof(struct enemy_key, at) + sizeof key.at[0] * key.n;
    if (last_board.valid && last_board.key.n == key.n && memcmp(&last_board.key, &key, size) == 0) {
        memcpy(b->zoc, last_board.zoc, sizeof b->zoc);
        memcpy(b->enemy, last_board.enemy, sizeof b->enemy);
        return;
    }
    mark_enemy(s, side, b);
    last_board.valid = true;
    memcpy(&last_board.key, &key, size);
    memcpy(last_board.zoc, b->zoc, sizeof b->zoc);
    memcpy(last_board.enemy, b->enemy, sizeof b->enemy);
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
