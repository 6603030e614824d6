/* test_loaders: every loader of outside states refuses what the engine
 * cannot safely index with, and accepts every state the engine makes.
 *
 * The states come from positions (`new` with allow_positions), records
 * (`akc verify --file`), snapshots stored in the database (a copy of the
 * struct) and scenario files. A unit "on the board" on no square, on a
 * square off the map, a turn past the table of dates, a battle or a
 * decision naming what does not exist: each once made the engine read or
 * write outside its arrays. Each case here takes a good state, breaks one
 * field, and expects a refusal with a sentence.
 */
#include <string.h>

#include "ak_check.h"
#include "ak_dice.h"
#include "ak_notation.h"
#include "ak_player.h"
#include "ak_updated.h"
#include "ak_record.h"

static json_t *start_json(void)
{
    struct ak_state s;
    ak_state_init(&s, 0, 5);
    return ak_state_to_json(&s);
}

static json_t *unit_of(json_t *state, const char *name)
{
    return json_object_get(json_object_get(state, "units"), name);
}

/* The state with one change refused by ak_state_from_json (and so by
 * ak_state_from_position); the refusal's text contains want. */
static void refused(json_t *j, const char *want)
{
    struct ak_state s;
    char err[200] = "";
    ck_assert_msg(!ak_state_from_json(j, &s, err, sizeof err), "accepted; wanted: %s", want);
    ck_assert_msg(strstr(err, want), "refused with '%s', wanted '%s'", err, want);
    ck_assert(!ak_state_from_position(j, 1, &s, err, sizeof err));
    json_decref(j);
}

START_TEST(unit_on_board_needs_a_square_of_the_map)
{
    const char *bad[] = {"Z99", "A0", "W70", "", "w6x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *j = start_json();
        json_object_set_new(unit_of(j, "21pz5"), "hex", json_string(bad[i]));
        refused(j, "21pz5");
    }
    json_t *j = start_json();
    json_object_del(unit_of(j, "21pz5"), "hex");
    refused(j, "21pz5");
    j = start_json();
    json_object_set_new(unit_of(j, "21pz5"), "hex", json_integer(300));
    refused(j, "21pz5");
}
END_TEST

START_TEST(unit_on_board_not_at_sea_or_in_the_depression)
{
    /* Find a sea square and a Qattara square from the map data. */
    const struct ak_map *m = ak_map();
    ak_hex sea = AK_HEX_NONE, qattara = AK_HEX_NONE;
    for (ak_hex h = 0; h < AK_HEX_COUNT; h++) {
        if (m->terrain[h] == AK_TERRAIN_SEA && sea == AK_HEX_NONE)
            sea = h;
        if (m->terrain[h] == AK_TERRAIN_QATTARA && qattara == AK_HEX_NONE)
            qattara = h;
    }
    ak_hex both[] = {sea, qattara};
    for (int i = 0; i < 2; i++) {
        if (both[i] == AK_HEX_NONE)
            continue;
        char name[8];
        json_t *j = start_json();
        json_object_set_new(unit_of(j, "ariete"), "hex", json_string(ak_hex_format(both[i], name)));
        refused(j, "ariete");
    }
}
END_TEST

START_TEST(numbers_out_of_range)
{
    struct { const char *key; json_int_t value; const char *want; } cases[] = {
        {"turn", 0, "turn 0"}, {"turn", 39, "turn 39"}, {"turn", 200, "turn 200"},
        {"turn", 257, "out of range"}, {"turn", -1, "out of range"},
        {"supply_roll", 7, "supply table roll"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *j = start_json();
        json_object_set_new(j, cases[i].key, json_integer(cases[i].value));
        refused(j, cases[i].want);
    }
    json_t *j = start_json();
    json_object_set_new(unit_of(j, "21pz5"), "isolated", json_integer(3));
    refused(j, "isolated");
    j = start_json();
    json_object_set_new(unit_of(j, "21pz5"), "mp", json_integer(1000));
    refused(j, "out of range");
    j = start_json();
    json_object_set_new(unit_of(j, "21pz5"), "battle", json_integer(4));
    refused(j, "battle 4 of 0");
    j = start_json();
    json_object_set_new(j, "turn", json_string("3"));
    refused(j, "out of range");
}
END_TEST

START_TEST(battles_and_decisions_must_exist)
{
    json_t *battle = json_pack("{s:b,s:i,s:i,s:s,s:i,s:i,s:[s]}", "resolved", 0, "column", 5, "roll", 0,
                               "result", "AE", "attack", 4, "defense", 4, "hexes", "Q99");
    json_t *j = start_json();
    json_object_set_new(j, "battles", json_pack("[O]", battle));
    refused(j, "battle 1");
    json_object_set_new(battle, "hexes", json_pack("[s,s,s,s,s,s,s]", "W6", "W6", "W6", "W6", "W6", "W6", "W6"));
    j = start_json();
    json_object_set_new(j, "battles", json_pack("[O]", battle));
    refused(j, "malformed battles");
    json_object_set_new(battle, "hexes", json_pack("[s]", "W6"));
    json_object_set_new(battle, "column", json_integer(12));
    j = start_json();
    json_object_set_new(j, "battles", json_pack("[O]", battle));
    refused(j, "odds, a die or a result out of range");
    /* A well-formed battle, but in the movement portion: battles and owed
     * decisions exist only in combat (else the side waited for could act
     * for the mover). */
    json_object_set_new(battle, "column", json_integer(5));
    j = start_json();
    json_object_set_new(j, "battles", json_pack("[O]", battle));
    refused(j, "outside the combat portion");
    json_decref(battle);
    j = start_json();
    json_object_set_new(j, "pending", json_pack("{s:s,s:s,s:i}", "decision", "retreat", "side", "axis", "battle", 3));
    refused(j, "malformed");
}
END_TEST

START_TEST(a_result_only_when_the_game_is_over)
{
    json_t *j = start_json();
    json_object_set_new(j, "result", json_string("axis_wins"));
    refused(j, "result");
    j = start_json();
    json_object_set_new(j, "side", json_null());
    refused(j, "side");
}
END_TEST

/* A stored snapshot is a copy of the struct: the same check guards it. */
START_TEST(snapshot_struct_checked)
{
    struct ak_state good, s;
    char err[200];
    ak_state_init(&good, 0, 9);
    ck_assert(ak_state_check(&good, err, sizeof err));
    int u = ak_unit_find(ak_data(), "21pz5");
    s = good; s.unit[u].hex = 30000;
    ck_assert(!ak_state_check(&s, err, sizeof err) && strstr(err, "21pz5"));
    s = good; s.unit[u].hex = AK_HEX_NONE;
    ck_assert(!ak_state_check(&s, err, sizeof err));
    s = good; s.unit[u].where = 9;
    ck_assert(!ak_state_check(&s, err, sizeof err));
    s = good; s.turn = 200;
    ck_assert(!ak_state_check(&s, err, sizeof err) && strstr(err, "turn 200"));
    s = good; s.units = 200;
    ck_assert(!ak_state_check(&s, err, sizeof err));
    s = good; s.ruleset = 9;
    ck_assert(!ak_state_check(&s, err, sizeof err));
    s = good; s.nbattles = 200;
    ck_assert(!ak_state_check(&s, err, sizeof err));
    s = good; s.phase = 7;
    ck_assert(!ak_state_check(&s, err, sizeof err));
    s = good; s.pending.kind = AK_PEND_RETREAT; s.pending.battle = 0;
    ck_assert(!ak_state_check(&s, err, sizeof err));
    s = good; s.control[1] = 2;
    ck_assert(!ak_state_check(&s, err, sizeof err));
}
END_TEST

/* The other way: every state random players reach passes the check and
 * survives the JSON round trip, so no real game is ever refused. */
START_TEST(every_state_of_real_games_accepted)
{
    static struct ak_player_game g;     /* zeroed: start allocates its log */
    for (uint64_t seed = 1; seed <= 3; seed++) {
        ak_player_start(&g, seed);
        struct ak_state replay;
        ak_state_init(&replay, 0, seed);
        ck_assert(ak_player_play(&g, 39));
        char err[200];
        for (int i = 0; i < g.n; i++) {
            ck_assert(ak_apply(&replay, &g.log[i], NULL, NULL));
            ck_assert_msg(ak_state_check(&replay, err, sizeof err), "action %d: %s", i + 1, err);
            if (i % 97 == 0 || i == g.n - 1) {
                json_t *j = ak_state_to_json(&replay);
                struct ak_state back;
                ck_assert_msg(ak_state_from_json(j, &back, err, sizeof err), "action %d: %s", i + 1, err);
                json_decref(j);
            }
        }
    }
    ak_player_free(&g);
}
END_TEST

/* The same for games of the Updated ruleset (on the table written for
 * testing): every state passes the check, and its public JSON, read
 * back, writes out the same JSON (steps, marks, pools, attack supply,
 * battles and owed decisions included). */
START_TEST(every_updated_state_reads_back)
{
    static struct ak_player_game g;
    g.ruleset = ak_ruleset_find("updated");
    g.toward_enemy = true;
    char err[200];
    int battles = 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        ak_player_start(&g, seed);
        struct ak_state replay;
        ak_player_init_state(&replay, g.ruleset, seed);
        ck_assert(ak_player_play(&g, 39));
        for (int i = 0; i < g.n; i++) {
            ck_assert(ak_apply(&replay, &g.log[i], NULL, NULL));
            ck_assert_msg(ak_state_check(&replay, err, sizeof err), "action %d: %s", i + 1, err);
            battles += replay.nbattles > 0;
            if (i % 7 == 0 || replay.nbattles > 0 || replay.pending.kind) {
                json_t *j = ak_state_to_json(&replay);
                struct ak_state back;
                ck_assert_msg(ak_state_from_json(j, &back, err, sizeof err), "action %d: %s", i + 1, err);
                ak_crt_attach(&back, ak_test_crt());    /* the table is not in the JSON: its odds are */
                json_t *again = ak_state_to_json(&back);
                ck_assert_msg(json_equal(j, again), "action %d: the state reads back to another JSON", i + 1);
                json_decref(j);
                json_decref(again);
            }
        }
    }
    ck_assert_int_gt(battles, 0);
    ak_player_free(&g);
}
END_TEST

/* A record whose position puts a unit off the map is refused in words. */
START_TEST(record_with_bad_position_refused)
{
    char secret[65], commit[65];
    struct ak_dice dice;
    ak_dice_new(&dice, secret, commit);
    json_t *pos = start_json();
    json_object_set_new(unit_of(pos, "21pz5"), "hex", json_string("A0"));
    json_t *rec = json_pack("{s:s,s:s,s:s,s:s,s:o,s:[],s:s}", "format", AK_RECORD_FORMAT, "ruleset", "classic",
                            "dice_commit", commit, "dice_secret", secret, "position", pos, "actions",
                            "result", "none");
    struct ak_verify_report r;
    ck_assert(!ak_record_verify(rec, &r));
    ck_assert_msg(strstr(r.error, "21pz5"), "%s", r.error);
    json_decref(rec);
}
END_TEST

/* Squares a position may not hold: combat units of both sides together;
 * a box (Updated ruleset) of one side where the other's combat units
 * stand, or two boxes on one square; supply spent on attacks outside the
 * combat phase. The other way: a captured supply counter among enemy
 * combat units, which a capture puts "on the spot" (CAPTURE 2). */
START_TEST(squares_consistent)
{
    json_t *j = start_json();
    json_object_set_new(unit_of(j, "7arm7"), "where", json_string("board"));
    json_object_set_new(unit_of(j, "7arm7"), "hex", json_string("W6"));
    refused(j, "W6 holds combat units of both sides");
    struct ak_state s;
    char err[200];
    ak_state_init(&s, ak_ruleset_find("updated"), 5);
    json_t *u = ak_state_to_json(&s);
    json_object_set_new(u, "boxes", json_pack("[{s:s,s:s}]", "hex", "W6", "side", "allied"));
    refused(u, "the box at W6 is held by the enemy");
    u = ak_state_to_json(&s);
    json_object_set_new(u, "boxes", json_pack("[{s:s,s:s},{s:s,s:s}]", "hex", "P40", "side", "axis", "hex", "P40",
                                              "side", "axis"));
    refused(u, "two boxes at P40");
    u = ak_state_to_json(&s);
    json_object_set_new(u, "attack_supply", json_pack("[s]", "P35"));
    refused(u, "supply spent on attacks outside the combat phase");
    j = start_json();
    json_object_set_new(unit_of(j, "acapx"), "where", json_string("board"));
    json_object_set_new(unit_of(j, "acapx"), "hex", json_string("W6"));
    struct ak_state back;
    ck_assert_msg(ak_state_from_json(j, &back, err, sizeof err), "%s", err);
    json_decref(j);
}
END_TEST

AK_CHECK_MAIN("loaders", unit_on_board_needs_a_square_of_the_map, unit_on_board_not_at_sea_or_in_the_depression,
              numbers_out_of_range, battles_and_decisions_must_exist, a_result_only_when_the_game_is_over,
              snapshot_struct_checked, every_state_of_real_games_accepted, every_updated_state_reads_back,
              record_with_bad_position_refused, squares_consistent)
