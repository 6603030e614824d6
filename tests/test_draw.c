/* Golden-output tests of akc's drawing: the map with and without colour,
 * narrow and wide, legal-move and zone highlighting, and the battle and
 * decision lines under the map. The expected screens are files in
 * tests/golden/; AK_GOLDEN_UPDATE=1 rewrites them (then read the diff). */
#include "ak_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_client.h"
#include "ak_engine.h"
#include "ak_updated.h"

static char *render(void (*draw)(FILE *, void *), void *arg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    draw(f, arg);
    fclose(f);
    return buf;
}

static void golden(const char *name, const char *got)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", getenv("AK_GOLDEN_DIR") ? getenv("AK_GOLDEN_DIR") : "golden", name);
    if (getenv("AK_GOLDEN_UPDATE")) {
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fputs(got, f);
        fclose(f);
        return;
    }
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "no golden file %s (AK_GOLDEN_UPDATE=1 makes it)", path);
    static char want[1 << 17];
    size_t n = fread(want, 1, sizeof want - 1, f);
    want[n] = '\0';
    fclose(f);
    ck_assert_msg(strcmp(want, got) == 0, "%s differs from the drawing:\n%s", name, got);
}

struct board_case {
    struct ak_state *s;
    struct ak_draw_opts o;
};

static void draw_board(FILE *f, void *arg)
{
    struct board_case *c = arg;
    ak_draw_board(f, c->s, &c->o);
    ak_draw_combat(f, c->s);
}

static void combat_only(FILE *f, void *arg)
{
    ak_draw_combat(f, arg);
}

static void check_board(const char *name, struct ak_state *s, struct ak_draw_opts o)
{
    struct board_case c = {s, o};
    char *got = render(draw_board, &c);
    golden(name, got);
    free(got);
}

static struct ak_state opening(void)
{
    struct ak_state s;
    ak_state_init(&s, 0, 1);
    return s;
}

START_TEST(map_narrow_wide_colour)
{
    struct ak_state s = opening();
    check_board("opening-80.txt", &s, (struct ak_draw_opts){.width = 80, .at = AK_HEX_NONE});
    check_board("opening-wide.txt", &s, (struct ak_draw_opts){.wide = true, .width = 80, .at = AK_HEX_NONE});
    check_board("opening-80-colour.txt", &s,
                (struct ak_draw_opts){.color = true, .width = 80, .at = ak_hex_parse("G25")});
    check_board("tobruch-radius-4.txt", &s,
                (struct ak_draw_opts){.width = 80, .radius = 4, .at = ak_hex_parse("G25")});
    check_board("opening-80x24.txt", &s,
                (struct ak_draw_opts){.width = 80, .height = 24, .at = ak_hex_parse("W6")});
}
END_TEST

START_TEST(highlights)
{
    struct ak_state s = opening();
    static uint8_t mark[AK_HEX_COUNT];
    struct ak_draw_opts o = {.width = 80, .at = AK_HEX_NONE};
    ck_assert_int_eq(ak_draw_highlight(&s, "21pz5", mark, &o), 0);
    check_board("dests-21pz5.txt", &s, o);
    s.side = AK_ALLIED;
    o = (struct ak_draw_opts){.width = 80, .at = ak_hex_parse("H15")};
    ck_assert_int_eq(ak_draw_highlight(&s, "supply", mark, &o), 0);
    check_board("supply-allied.txt", &s, o);
}
END_TEST

/* A battle, thrown back, and the decision owed by the defender. */
START_TEST(battle_and_decision)
{
    struct ak_state s = opening();
    for (int u = 0; u < s.units; u++)
        if (ak_on_board(&s, u))
            s.unit[u] = (struct ak_unit){.where = AK_AT_POOL, .hex = AK_HEX_NONE};
    static const char *const put[][2] = {{"folgere", "P35"}, {"gsup1", "P33"}, {"bologna", "W6"},
                                         {"7arm7", "P36"}, {"22gdsinf", "L59"}, {"asup1", "L59"}};
    for (size_t i = 0; i < sizeof put / sizeof put[0]; i++) {
        int u = ak_unit_find(ak_data(), put[i][0]);
        s.unit[u] = (struct ak_unit){.where = AK_AT_BOARD, .hex = ak_hex_parse(put[i][1])};
        s.unit[u].start_hex = s.unit[u].hex;
    }
    s.phase = AK_PHASE_COMBAT;
    static uint8_t mark[AK_HEX_COUNT];
    struct ak_draw_opts o = {.width = 80, .at = ak_hex_parse("P35")};
    ck_assert_int_eq(ak_draw_highlight(&s, "zoc", mark, &o), 0);
    check_board("zoc-must-attack.txt", &s, o);
    struct ak_action a = {.kind = AK_ACT_BATTLE, .side = AK_AXIS, .nunits = 2, .hex = AK_HEX_NONE,
                          .supply = AK_UNIT_NONE};
    a.units[0] = (uint8_t)ak_unit_find(ak_data(), "folgere");
    a.units[1] = (uint8_t)ak_unit_find(ak_data(), "7arm7");
    struct ak_reject rej;
    ck_assert_msg(ak_apply(&s, &a, NULL, &rej), "%s", rej.text);
    /* Find a seed whose first roll at 1-3 throws the attacker back. */
    struct ak_action r = {.kind = AK_ACT_RESOLVE, .side = AK_AXIS, .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
    struct ak_state t;
    for (uint64_t seed = 1;; seed++) {
        t = s;
        ak_rng_seed(&t.rng, seed);
        ck_assert(ak_apply(&t, &r, NULL, &rej));
        if (t.pending.kind == AK_PEND_RETREAT)
            break;
    }
    check_board("retreat-decision.txt", &t, (struct ak_draw_opts){.width = 80, .at = ak_hex_parse("P35")});
    /* The other decisions, as the lines under the map put them. */
    t.pending.kind = AK_PEND_EXCHANGE;
    t.pending.side = AK_AXIS;
    t.pending.need = 3;
    char *got = render(combat_only, &t);
    golden("exchange-decision.txt", got);
    free(got);
    t.pending.kind = AK_PEND_ADVANCE;
    got = render(combat_only, &t);
    golden("advance-decision.txt", got);
    free(got);
}
END_TEST

static void hazards_all(FILE *f, void *arg)
{
    ak_draw_hazards(f, arg, 0);
}

static void hazards_at_end_movement(FILE *f, void *arg)
{
    ak_draw_hazards(f, arg, AK_ACT_END_MOVEMENT);
}

/* The dangers shown before they bite (akc show, akc play before every
 * prompt, and the question before an end-movement that throws something
 * away): the opening leaves W3 empty; two turns later the Axis, who used
 * his only supply unit against Bengasi, has none on board, a supply unit
 * due that cannot come, and every unit at stake. */
START_TEST(hazards_shown)
{
    struct ak_state s = opening();
    char *got = render(hazards_all, &s);
    golden("hazards-opening.txt", got);
    free(got);
    s.turn = 3;
    int gsup1 = ak_unit_find(ak_data(), "gsup1");
    s.unit[gsup1] = (struct ak_unit){.where = AK_AT_POOL, .hex = AK_HEX_NONE};
    s.no_supply_turns[AK_AXIS] = 1;
    s.supply_due = 1;
    s.control[AK_KEY_AXIS_BASE] = AK_NOBODY;
    got = render(hazards_all, &s);
    golden("hazards-no-supply.txt", got);
    free(got);
    got = render(hazards_at_end_movement, &s);
    golden("hazards-confirm-end-movement.txt", got);
    free(got);
}
END_TEST

/* The Updated ruleset: a reduced unit shows its halved factors with an r,
 * out of supply an o, isolated an i; the marks are listed under the map;
 * nobody "must attack". */
START_TEST(updated_steps_and_marks)
{
    struct ak_state s;
    ak_state_init(&s, ak_ruleset_find("updated"), 1);
    int pz = ak_unit_find(ak_data(), "21pz5"), it = ak_unit_find(ak_data(), "ariete");
    s.unit[pz].reduced = 1;
    s.unit[pz].marks = AK_MARK_OOS;
    s.unit[it].marks = AK_MARK_OOS | AK_MARK_ISOLATED;
    struct board_case c = {&s, {.width = 80, .at = ak_hex_parse("W6")}};
    char *got = render(draw_board, &c);
    ck_assert_msg(strstr(got, "21pz5 4-4-10ro"), "reduced, out of supply:\n%s", got);
    ck_assert_msg(strstr(got, "ariete 4-5-6i"), "isolated:\n%s", got);
    ck_assert_msg(strstr(got, "Isolated: ariete"), "listed isolated:\n%s", got);
    ck_assert_msg(strstr(got, "Out of supply: 21pz5"), "listed out of supply:\n%s", got);
    ck_assert_msg(!strstr(got, "Must attack"), "no compulsory attacks:\n%s", got);
    free(got);
}
END_TEST

/* The Updated ruleset's battle as the game's table gives it (the cell,
 * not a 1964 result), and the loss assignment it owes. */
START_TEST(updated_battle_and_losses)
{
    static const char table_text[] =
        "format akd-crt 1\nname ALWAYS DL1 (a table for this test)\ncolumns 1-1\nlosses defender\n"
        "below-first first\ndie 1 6\nrows 1 6\nroll 1 DL1\nroll 2 DL1\nroll 3 DL1\nroll 4 DL1\nroll 5 DL1\nroll 6 DL1\n";
    static struct ak_crt_table table;
    char err[200];
    ck_assert_msg(!ak_crt_table_parse(&table, table_text, err, sizeof err), "%s", err);
    struct ak_state s;
    ak_state_init(&s, ak_ruleset_find("updated"), 1);
    for (int u = 0; u < s.units; u++)
        if (ak_on_board(&s, u))
            s.unit[u] = (struct ak_unit){.where = AK_AT_POOL, .hex = AK_HEX_NONE};
    static const char *const put[][2] = {{"21pz5", "P39"}, {"gsup1", "P35"}, {"2arm3", "P40"}};
    uint8_t id[3];
    for (int i = 0; i < 3; i++) {
        id[i] = (uint8_t)ak_unit_find(ak_data(), put[i][0]);
        s.unit[id[i]] = (struct ak_unit){.where = AK_AT_BOARD, .hex = ak_hex_parse(put[i][1])};
        s.unit[id[i]].start_hex = s.unit[id[i]].hex;
    }
    s.phase = AK_PHASE_COMBAT;
    ak_crt_attach(&s, &table);
    struct ak_reject rej;
    struct ak_action a = {.kind = AK_ACT_SUPPLY_ATTACKS, .side = AK_AXIS, .nunits = 1, .units = {id[1]},
                          .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
    ck_assert_msg(ak_apply(&s, &a, NULL, &rej), "%s", rej.text);
    a = (struct ak_action){.kind = AK_ACT_BATTLE, .side = AK_AXIS, .nunits = 2, .units = {id[0], id[2]},
                           .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
    ck_assert_msg(ak_apply(&s, &a, NULL, &rej), "%s", rej.text);
    a = (struct ak_action){.kind = AK_ACT_RESOLVE, .side = AK_AXIS, .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
    ck_assert_msg(ak_apply(&s, &a, NULL, &rej), "%s", rej.text);
    ck_assert_int_eq(s.pending.kind, AK_PEND_LOSSES);
    char *got = render(combat_only, &s);
    ck_assert_msg(strstr(got, "on the table), DL1"), "the table's cell:\n%s", got);
    ck_assert_msg(!strstr(got, "eliminated"), "no 1964 result:\n%s", got);
    ck_assert_msg(strstr(got, "Waiting for the Allied player to assign the losses owed"), "the decision:\n%s", got);
    free(got);
}
END_TEST

AK_CHECK_MAIN("draw", map_narrow_wide_colour, highlights, battle_and_decision, hazards_shown, updated_steps_and_marks,
              updated_battle_and_losses)
