/* The engine's memories of their last answer (issue 31: the computer
 * player's evaluation asks the same maps of the same or nearly the same
 * position many times): the enemy zones (common/core/ak_zoc.c), the 1964
 * supply lines and isolation map (common/core/ak_battle.c, kept with only
 * what they depend on) and the Updated supply trace
 * (common/rules/updated/ak_updated_supply.c) must answer exactly as if
 * they remembered nothing.
 *
 * Along random games of both rulesets, each position s is paired with a
 * copy t changed in one thing (a unit moved, put in the pool or on the
 * board, its zone switched off or on, the turn, the side): the maps of s
 * and of t asked one after the other, in both orders and twice, must
 * equal the maps of each asked after an unrelated position (an empty
 * board) has taken the memories' place. A memory that kept an answer for
 * a position whose answer differs fails here. */
#include "ak_check.h"

#include <string.h>

#include "ak_engine.h"
#include "ak_player.h"
#include "ak_zoc.h"

struct maps {
    uint8_t zone[AK_HEX_COUNT], supply[AK_HEX_COUNT], open[AK_HEX_COUNT];
    struct ak_hexset zones;
};

static struct ak_state empty;

static void ask(const struct ak_state *s, int side, struct maps *m)
{
    ak_overlay(s, side, m->zone, m->supply);
    ak_isolation_overlay(s, side, m->open);
    ak_enemy_zones(s, side, &m->zones);
}

/* The maps as if nothing were remembered: an empty board asked first. */
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
}

/* t: s changed in one thing, chosen by k. */
static void change(const struct ak_state *s, struct ak_state *t, uint64_t k)
{
    *t = *s;
    int u = (int)(k % t->units);
    struct ak_unit *x = &t->unit[u];
    switch ((k / t->units) % 5) {
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
    for (int k = 0; k < 6; k++) {
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
    for (int u = 0; u < empty.units; u++)
        empty.unit[u].where = AK_AT_POOL;
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
