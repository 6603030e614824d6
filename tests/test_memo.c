/* The engine's memories of their last answer (issue 31: the computer
 * player's evaluation asks the same maps of the same or nearly the same
 * position many times): the enemy zones (common/core/ak_zoc.c), the 1964
 * supply lines and isolation map (common/core/ak_battle.c, kept with only
 * what they depend on), the Updated supply trace
 * (common/rules/updated/ak_updated_supply.c) and the enemy's part of the
 * mover's board (common/core/ak_move_board.c: routes of a few units of
 * each side) must answer exactly as if they remembered nothing.
 *
 * Along random games of both rulesets, each position s is paired with a
 * copy t changed in one thing (a unit moved, moved next to an enemy
 * unit, put in the pool or on the board, swapped with another or
 * replaced on its square by another, its zone switched off or on, the
 * turn, the side): the maps of s and of t asked
 * one after the other, in both orders and twice, must equal the maps of
 * each asked after an unrelated position (a board empty but for one unit
 * a side) has taken the memories' place. A memory that kept an answer
 * for a position whose answer differs fails here. */
#include "ak_check.h"

#include <string.h>

#include "ak_engine.h"
#include "ak_player.h"
#include "ak_move.h"
#include "ak_zoc.h"

#define ROUTED 2           /* units whose routes are asked, per side */
#define AROUND 2           /* to every square this near it */
#define ROUTES (ROUTED * 19)    /* its square and the 18 around it */

/* Routes, like destinations, are searched on the mover's board
 * (common/core/ak_move_board.c: group_init and stack_init mark it);
 * routes to a few squares are asked because they are targeted and cheap. */
struct route {
    int8_t ok;
    uint8_t npath;
    ak_hex path[AK_PATH_MAX];
    char code[16];
};

struct maps {
    uint8_t zone[AK_HEX_COUNT], supply[AK_HEX_COUNT], open[AK_HEX_COUNT];
    struct ak_hexset zones;
    struct route route[ROUTES];
};

/* The routes of side's first units on the board to the squares around
 * them, in s with side to move and its units fresh (not yet moved), so
 * that the route is searched and meets the zones and stacks of the enemy
 * units next to it (the change below puts one there). */
static void ask_routes(const struct ak_state *s, int side, struct route *out)
{
    static struct ak_state fresh;
    fresh = *s;
    fresh.side = (uint8_t)side;
    memset(out, 0, sizeof(struct route) * ROUTES);
    int n = 0;
    for (int u = 0, k = 0; u < fresh.units && k < ROUTED; u++) {
        struct ak_unit *x = &fresh.unit[u];
        if (ak_def(u)->side != side || !ak_on_board(&fresh, u))
            continue;
        x->flags &= (uint8_t)~(AK_U_MOVED | AK_U_HALTED | AK_U_NO_MOVE);
        x->mp_spent = x->road_spent = x->rommel_spent = 0;
        x->start_hex = x->hex;
        uint8_t one = (uint8_t)u;
        k++;
        for (ak_hex h = 0; h < AK_HEX_COUNT && n < ROUTES; h++) {
            if (ak_hex_distance(h, x->hex) > AROUND)
                continue;
            struct ak_dest r;
            struct ak_reject rej = {0};
            struct route *o = &out[n++];
            o->ok = ak_move_route(&fresh, side, &one, 1, h, &r, &rej);
            if (o->ok) {
                o->npath = (uint8_t)r.npath;
                memcpy(o->path, r.path, sizeof r.path[0] * (size_t)r.npath);
            } else if (rej.code) {
                strncpy(o->code, rej.code, sizeof o->code - 1);
            }
        }
    }
}

static struct ak_state empty;

static void ask(const struct ak_state *s, int side, struct maps *m)
{
    ask_routes(s, side, m->route);     /* first: before the maps, which may mark a board of their own */
    ak_overlay(s, side, m->zone, m->supply);
    ak_isolation_overlay(s, side, m->open);
    ak_enemy_zones(s, side, &m->zones);
}

/* The maps as if nothing were remembered: the unrelated board asked first. */
static void ask_fresh(const struct ak_state *s, int side, struct maps *m)
{
    static struct maps scratch;
    ask(&empty, side, &scratch);
    ask(s, side, m);
}

static void expect_same(const struct maps *a, const struct maps *b, const char *what)
{
    ck_assert_msg(memcmp(a->zone, b->zone, sizeof a->zone) == 0, "zone map: %s", what);
    ck_assert_msg(memcmp(a->supply, b->supply, sizeof a->supply) == 0, "supply map: %s", what);
    ck_assert_msg(memcmp(a->open, b->open, sizeof a->open) == 0, "isolation map: %s", what);
    ck_assert_msg(memcmp(&a->zones, &b->zones, sizeof a->zones) == 0, "enemy zones: %s", what);
    ck_assert_msg(memcmp(a->route, b->route, sizeof a->route) == 0, "routes: %s", what);
}

/* The first unit on the board from u on (u itself when none is). */
static int on_board_from(const struct ak_state *t, int u)
{
    for (int n = 0; n < t->units && !ak_on_board(t, u); n++)
        u = (u + 1) % t->units;
    return u;
}

/* The first unit of u's side that is `where` (on the board: on another
 * square), a combat unit if u is none and none if u is one; -1 if none. */
static int other_kind(const struct ak_state *t, int u, int where)
{
    for (int v = 0; v < t->units; v++)
        if (ak_def(v)->side == ak_def(u)->side && t->unit[v].where == where &&
            ak_unit_is_combat(ak_def(v)) != ak_unit_is_combat(ak_def(u)) &&
            (where != AK_AT_BOARD || t->unit[v].hex != t->unit[u].hex))
            return v;
    return -1;
}

/* t: s changed in one thing, chosen by k. */
static void change(const struct ak_state *s, struct ak_state *t, uint64_t k)
{
    *t = *s;
    int u = (int)((k / 8) % t->units);
    struct ak_unit *x = &t->unit[u];
    switch (k % 8) {
    case 7: {   /* a unit on the board replaced on its square by one of its side of the other kind from the pool
                 * (a captured supply unit's counter, a substitute): the same squares held, by other units */
        u = on_board_from(t, u);
        x = &t->unit[u];
        int v = other_kind(t, u, AK_AT_POOL);
        if (v >= 0) {
            t->unit[v].where = AK_AT_BOARD;
            t->unit[v].hex = x->hex;
            x->where = AK_AT_POOL;
        }
        break;
    }
    case 6: {   /* a unit on the board swapped with one of its side of the other kind (the same squares held) */
        u = on_board_from(t, u);
        x = &t->unit[u];
        int v = other_kind(t, u, AK_AT_BOARD);
        if (v >= 0) {
            ak_hex h = x->hex;
            x->hex = t->unit[v].hex;
            t->unit[v].hex = h;
        }
        break;
    }
    case 5:     /* a unit on the board moved next to the first enemy unit on it (whose routes are asked) */
        u = on_board_from(t, u);
        x = &t->unit[u];
        for (int v = 0; v < t->units; v++)
            if (ak_def(v)->side != ak_def(u)->side && ak_on_board(t, v)) {
                for (int d = 0; d < AK_DIRS; d++) {
                    ak_hex h = ak_hex_neighbor(t->unit[v].hex, (int)((k + (uint64_t)d) % AK_DIRS));
                    if (h != AK_HEX_NONE && ak_enterable(h) && ak_adjacent(t->unit[v].hex, h)) {
                        x->where = AK_AT_BOARD;
                        x->hex = h;
                        break;
                    }
                }
                break;
            }
        break;
    case 0:     /* moved to a square a unit may stand on */
        for (ak_hex h = (ak_hex)((k * 7919) % AK_HEX_COUNT), n = 0; n < AK_HEX_COUNT;
             n++, h = (ak_hex)((h + 1) % AK_HEX_COUNT))
            if (ak_enterable(h)) {
                x->where = AK_AT_BOARD;
                x->hex = h;
                break;
            }
        break;
    case 1:     /* off the board, or onto its start square */
        if (x->where == AK_AT_BOARD)
            x->where = AK_AT_POOL;
        else if (x->start_hex != AK_HEX_NONE && ak_enterable(x->start_hex)) {
            x->where = AK_AT_BOARD;
            x->hex = x->start_hex;
        }
        break;
    case 2:
        x->flags ^= AK_U_ZOC_OFF;
        break;
    case 3:
        t->turn = (uint8_t)(t->turn % 30 + 1);
        break;
    default:
        t->side = (uint8_t)!t->side;
        break;
    }
}

static void check_pairs(const struct ak_state *s, uint64_t seed)
{
    static struct ak_state t;
    static struct maps fs, ft, got;
    for (int k = 0; k < 10; k++) {
        change(s, &t, seed * 131 + (uint64_t)k * 977);
        for (int side = 0; side < AK_SIDES; side++) {
            ask_fresh(s, side, &fs);
            ask_fresh(&t, side, &ft);
            for (int round = 0; round < 2; round++) {
                ask(s, side, &got);
                expect_same(&got, &fs, "s after t");
                ask(&t, side, &got);
                expect_same(&got, &ft, "t after s");
            }
            ask(&t, !side, &got);       /* the other side between */
            ask(s, side, &got);
            expect_same(&got, &fs, "s after the other side's t");
        }
    }
}

static void play(int ruleset)
{
    static struct ak_player_game g;
    ak_player_init_state(&empty, ruleset, 1);
    bool kept[AK_SIDES] = {false};
    for (int u = 0; u < empty.units; u++) {     /* but one unit a side, whose routes mark a board */
        int side = ak_def(u)->side;
        if (kept[side] || !ak_on_board(&empty, u))
            empty.unit[u].where = AK_AT_POOL;
        else
            kept[side] = true;
    }
    for (uint64_t seed = 1; seed <= 3; seed++) {
        memset(&g, 0, sizeof g);
        g.ruleset = ruleset;
        g.toward_enemy = true;
        ak_player_start(&g, seed);
        for (int turn = 2; turn <= 14; turn += 4) {
            ck_assert(ak_player_play(&g, turn));
            check_pairs(&g.s, seed * 100 + (uint64_t)turn);
        }
        ak_player_free(&g);
    }
}

START_TEST(classic_maps_as_if_nothing_were_remembered)
{
    play(ak_ruleset_find("classic"));
}
END_TEST

START_TEST(updated_maps_as_if_nothing_were_remembered)
{
    play(ak_ruleset_find("updated"));
}
END_TEST

AK_CHECK_MAIN("memo", classic_maps_as_if_nothing_were_remembered, updated_maps_as_if_nothing_were_remembered)
