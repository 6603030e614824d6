/* A battle before it is declared (ak_battle_preview, the rulesets'
 * battle_preview): the figures each edition's table is read with and
 * every result with its chance, checked against the seeds' tables.
 *
 * 1964 rules (seed 001): HOW TO HAVE COMBAT and the COMBAT RESULTS
 * TABLE (one die, six rows), DEFENDING 2 (a defender on an escarpment or
 * a fortress doubled), MULTIPLE UNIT BATTLES 6 (nothing worse than 1 to 6)
 * and 7 (7 to 1, 5 to 1 surrounded: automatic victory), SUSTAIN ATTACKS 1
 * and 7 (1 to 2 or better needs a supply unit within 5 squares).
 * Updated rules (seed 003): NEW COMBAT SYSTEM, on the game's own table
 * (tests/data/crt-test.txt, written for testing).
 * And the map overlay a player asks for (ak_overlay): the enemy's zones
 * of control (ZONES OF CONTROL 1: the six squares around a combat unit)
 * and where a unit would be in supply (ISOLATION 1964: a line free of
 * enemy zones to a supply unit; SUPPLY PHASE, Updated: traced to a
 * source).
 * And the exact chances of declared battles (ak_battle_odds): the bound on
 * the work that akd relies on (PROTOCOL.md, "Odds"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_check.h"
#include "ak_crt_table.h"
#include "ak_engine.h"
#include "ak_odds.h"
#include "ak_query.h"
#include "ak_zoc.h"

static struct ak_state s;

static int unit(const char *name)
{
    int u = ak_unit_find(ak_data(), name);
    ck_assert_msg(u >= 0 && u != AK_UNIT_NONE, "no unit %s", name);
    return u;
}

/* An empty board of ruleset r: every counter off it. */
static void empty_board(int ruleset)
{
    ak_state_init(&s, ruleset, 7);
    for (int u = 0; u < s.units; u++) {
        s.unit[u].where = AK_AT_POOL;
        s.unit[u].hex = AK_HEX_NONE;
    }
}

static void put(const char *name, ak_hex h)
{
    int u = unit(name);
    s.unit[u].where = AK_AT_BOARD;
    s.unit[u].hex = h;
}

static bool clear(ak_hex h)
{
    return h != AK_HEX_NONE && ak_map()->terrain[h] == AK_TERRAIN_CLEAR;
}

/* A square of open desert whose six neighbours are open desert too, so
 * that nothing doubles a defender and nobody is surrounded. */
static ak_hex open_desert(void)
{
    for (int h = 0; h < AK_HEX_COUNT; h++) {
        bool all = clear((ak_hex)h);
        for (int d = 0; all && d < AK_DIRS; d++)
            all = clear(ak_hex_neighbor((ak_hex)h, d)) && ak_adjacent((ak_hex)h, ak_hex_neighbor((ak_hex)h, d));
        if (all)
            return (ak_hex)h;
    }
    ck_abort_msg("no open desert on the map");
    return AK_HEX_NONE;
}

static void preview(const char *att, const char *def, struct ak_battle_preview *p)
{
    uint8_t a[1] = {(uint8_t)unit(att)}, d[1] = {(uint8_t)unit(def)};
    ak_battle_preview(&s, a, 1, d, 1, AK_UNIT_NONE, p);
}

static int chances_of(const struct ak_battle_preview *p, const char *result)
{
    for (int i = 0; i < p->nresults; i++)
        if (strcmp(p->result[i].name, result) == 0)
            return p->result[i].chances;
    return 0;
}

static int chances_in_all(const struct ak_battle_preview *p)
{
    int n = 0;
    for (int i = 0; i < p->nresults; i++)
        n += p->result[i].chances;
    return n;
}

/* 21pz5 (7) against 1arm (2) in the open: 3 to 1 (odds rounded in the
 * defender's favour), read on the table's 3-1 column: DE on 1 and 6, EX on
 * 2 and 5, DB2 on 3 and 4. A supply unit must sustain it, and none is on
 * the board. */
START_TEST(classic_three_to_one)
{
    empty_board(0);
    ak_hex h = open_desert();
    put("1arm", h);
    put("21pz5", ak_hex_neighbor(h, 0));
    struct ak_battle_preview p;
    preview("21pz5", "1arm", &p);
    ck_assert(p.known && p.allowed);
    ck_assert_int_eq(p.attack, 7);
    ck_assert_int_eq(p.defense, 2);
    ck_assert_str_eq(p.odds, "3-1");
    ck_assert_int_eq(p.faces, 6);
    ck_assert_int_eq(chances_of(&p, "DE"), 2);
    ck_assert_int_eq(chances_of(&p, "EX"), 2);
    ck_assert_int_eq(chances_of(&p, "DB2"), 2);
    ck_assert_int_eq(chances_in_all(&p), 6);
    ck_assert(p.needs_supply);
    ck_assert_int_eq(p.supply, AK_UNIT_NONE);
    /* a supply unit next to the attacker can sustain it; one far off cannot */
    put("gsup1", ak_hex_neighbor(ak_hex_neighbor(h, 0), 0));
    preview("21pz5", "1arm", &p);
    ck_assert_int_eq(p.supply, unit("gsup1"));
    ck_assert_int_eq(p.nsustain, 1);
    /* a second one within reach is offered too, the first still chosen */
    put("gsup2", ak_hex_neighbor(ak_hex_neighbor(ak_hex_neighbor(h, 0), 0), 0));
    preview("21pz5", "1arm", &p);
    ck_assert_int_eq(p.nsustain, 2);
    ck_assert_int_eq(p.supply, unit("gsup1"));
}
END_TEST

/* DEFENDING 2: the same defender on an escarpment counts 4: 7 to 4 is
 * 1 to 1 (DE, EX, DB2, AB2, AE, AE). */
START_TEST(classic_escarpment_doubles)
{
    empty_board(0);
    ak_hex esc = AK_HEX_NONE;
    for (int h = 0; h < AK_HEX_COUNT && esc == AK_HEX_NONE; h++)
        if (ak_map()->terrain[h] == AK_TERRAIN_ESCARPMENT)
            for (int d = 0; d < AK_DIRS; d++)
                if (clear(ak_hex_neighbor((ak_hex)h, d)) && ak_adjacent((ak_hex)h, ak_hex_neighbor((ak_hex)h, d))) {
                    esc = (ak_hex)h;
                    put("21pz5", ak_hex_neighbor(esc, d));
                    break;
                }
    ck_assert(esc != AK_HEX_NONE);
    put("1arm", esc);
    struct ak_battle_preview p;
    preview("21pz5", "1arm", &p);
    ck_assert_int_eq(p.defense, 4);
    ck_assert_str_eq(p.odds, "1-1");
    ck_assert_int_eq(chances_of(&p, "DE"), 1);
    ck_assert_int_eq(chances_of(&p, "EX"), 1);
    ck_assert_int_eq(chances_of(&p, "DB2"), 1);
    ck_assert_int_eq(chances_of(&p, "AB2"), 1);
    ck_assert_int_eq(chances_of(&p, "AE"), 2);
}
END_TEST

/* MULTIPLE UNIT BATTLES 6 and 7, both ways: 1 to 7 is no battle (no
 * result listed); 7 to 1 eliminates the defender whatever the die. */
START_TEST(classic_outside_the_table)
{
    empty_board(0);
    ak_hex h = open_desert();
    put("21pz5", h);
    put("1sainf1", ak_hex_neighbor(h, 0));
    struct ak_battle_preview p;
    preview("1sainf1", "21pz5", &p);
    ck_assert(!p.allowed);
    ck_assert_int_eq(p.nresults, 0);
    preview("21pz5", "1sainf1", &p);
    ck_assert(p.allowed);
    ck_assert_int_eq(chances_of(&p, "DE"), 6);
    ck_assert_int_eq(p.nresults, 1);
}
END_TEST

/* SUSTAIN ATTACKS 7, both ways: 1 to 3 needs no supply unit, 1 to 2 does. */
START_TEST(classic_supply_threshold)
{
    empty_board(0);
    ak_hex h = open_desert();
    put("1sainf1", h);
    put("10arm23", ak_hex_neighbor(h, 0));  /* defense 3 */
    put("1arm", ak_hex_neighbor(h, 3));     /* defense 2 */
    struct ak_battle_preview p;
    preview("1sainf1", "10arm23", &p);
    ck_assert_str_eq(p.odds, "1-3");
    ck_assert(!p.needs_supply);
    preview("1sainf1", "1arm", &p);
    ck_assert_str_eq(p.odds, "1-2");
    ck_assert(p.needs_supply);
}
END_TEST

/* Only combat units fight (HOW TO HAVE COMBAT): a supply unit named among
 * the attackers adds nothing, and a battle with no defender shows nothing. */
START_TEST(classic_only_combat_units)
{
    empty_board(0);
    ak_hex h = open_desert();
    put("1arm", h);
    put("21pz5", ak_hex_neighbor(h, 0));
    put("gsup1", ak_hex_neighbor(h, 1));
    uint8_t att[2] = {(uint8_t)unit("21pz5"), (uint8_t)unit("gsup1")}, def[1] = {(uint8_t)unit("1arm")};
    struct ak_battle_preview p;
    ak_battle_preview(&s, att, 2, def, 1, AK_UNIT_NONE, &p);
    ck_assert_int_eq(p.attack, 7);
    ak_battle_preview(&s, att, 2, att + 1, 1, AK_UNIT_NONE, &p);
    ck_assert_int_eq(p.nresults, 0);
    ck_assert(!p.allowed);
}
END_TEST

static struct ak_crt_table table;

static void load_table(void)
{
    const char *dir = getenv("AK_TEST_DATA");
    char path[512], err[200];
    static char text[16384];
    snprintf(path, sizeof path, "%s/crt-test.txt", dir ? dir : "tests/data");
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    ck_assert_msg(ak_crt_table_parse(&table, text, err, sizeof err) == NULL, "%s", err);
}

/* The Updated rules on the game's table: one die (die 1 6), each roll
 * read on the column with the die modifier, clamped to the table's rows;
 * every face counted once. Without a table nothing is known. */
START_TEST(updated_on_the_table)
{
    load_table();
    empty_board(1);
    ak_hex h = open_desert();
    put("1arm", h);
    put("21pz5", ak_hex_neighbor(h, 0));
    struct ak_battle_preview p;
    preview("21pz5", "1arm", &p);
    ck_assert(!p.known);
    ck_assert_int_eq(p.nresults, 0);
    ck_assert_int_eq(ak_crt_attach(&s, &table), 0);
    preview("21pz5", "1arm", &p);
    ck_assert(p.known && p.allowed);
    ck_assert_int_eq(p.faces, 6);
    ck_assert_int_eq(chances_in_all(&p), 6);
    ck_assert_int_gt(p.column, 0);
    for (int roll = 1; roll <= 6; roll++) {
        char name[24];
        ak_crt_effect_format(ak_crt_table_result(&table, p.column, roll + p.drm), name, sizeof name);
        ck_assert_msg(chances_of(&p, name) > 0, "roll %d (%s) is missing", roll, name);
    }
    /* a weak attack below the first column (1-4) is no battle: forbidden by the table */
    put("1sainf1", ak_hex_neighbor(h, 3));
    put("21pz104", ak_hex_neighbor(ak_hex_neighbor(h, 3), 3));
    preview("1sainf1", "21pz5", &p);
    ck_assert(!p.allowed);
    ck_assert_str_eq(p.odds, "below the table");
}
END_TEST

/* ZONES OF CONTROL 1: an Allied combat unit's zone is the six squares
 * around it, not its own and not two squares off; the Axis has none on
 * the board, so the Allied player sees no zone. A supply line (ISOLATION,
 * 1964) runs from the Axis supply unit through open desert, into the
 * enemy's zone but not through it, never onto the enemy's square; with no
 * supply unit on board there is none. */
START_TEST(overlay_zones_and_supply_lines)
{
    static uint8_t zone[AK_HEX_COUNT], supply[AK_HEX_COUNT];
    empty_board(0);
    ak_hex h = open_desert(), far = ak_hex_neighbor(ak_hex_neighbor(h, 0), 0);
    put("1arm", h);
    ak_overlay(&s, AK_AXIS, zone, supply);
    ck_assert(!zone[h]);
    for (int d = 0; d < AK_DIRS; d++)
        ck_assert_msg(zone[ak_hex_neighbor(h, d)], "ZONES OF CONTROL 1: side %d of 1arm's square is in its zone", d);
    ck_assert(!zone[far]);
    for (int x = 0; x < AK_HEX_COUNT; x++)
        ck_assert_msg(!supply[x], "no Axis supply unit on board: no supply line anywhere (%d)", x);
    ak_overlay(&s, AK_ALLIED, zone, NULL);
    for (int d = 0; d < AK_DIRS; d++)
        ck_assert(!zone[ak_hex_neighbor(h, d)]);
    /* the opening position: the overlay's zones are the squares the rules
     * engine itself finds in an enemy zone (ak_in_enemy_zoc), both sides */
    ak_state_init(&s, 0, 7);
    for (int side = 0; side < AK_SIDES; side++) {
        ak_overlay(&s, side, zone, NULL);
        for (ak_hex x = 0; x < AK_HEX_COUNT; x++)
            ck_assert_int_eq(zone[x], ak_enterable(x) && ak_in_enemy_zoc(&s, x, side));
    }
    empty_board(0);
    put("1arm", h);
    put("gsup1", far);
    ak_overlay(&s, AK_AXIS, NULL, supply);
    ck_assert(supply[far]);
    ck_assert_msg(supply[ak_hex_neighbor(h, 0)], "a line may end in the enemy's zone");
    ck_assert_msg(!supply[h], "... never on the enemy's own square");
}
END_TEST

/* SUPPLY PHASE (Updated): a unit on its own home base is in supply from
 * the source there; in the 1964 rules only a supply unit gives a line. */
START_TEST(overlay_supply_by_ruleset)
{
    static uint8_t supply[AK_HEX_COUNT];
    empty_board(1);
    ak_hex base = ak_map()->homebase[AK_AXIS];
    ak_overlay(&s, AK_AXIS, NULL, supply);
    ck_assert_msg(supply[base], "Updated: the Axis home base is a supply source");
    empty_board(0);
    ak_overlay(&s, AK_AXIS, NULL, supply);
    ck_assert_msg(!supply[base], "1964: no supply unit on board, no supply line, even at the home base");
}
END_TEST

/* The work bound: a front of six battles, 6 faces each; a bound of 12
 * faces works out the first two and names the others, in words, without
 * fighting them; no bound works out all six. The state is untouched. */
START_TEST(odds_within_their_bound)
{
    static const char *att[] = {"21pz5", "15pz8", "ariete", "littorio", "trieste", "90inf361"};
    static const char *def[] = {"22gdsinf", "1arm2", "1arm22", "2arm3", "10arm23", "10arm8"};
    static struct ak_odds o;
    static struct ak_action offer[64];
    empty_board(0);
    char h[8];
    for (int i = 0; i < 6; i++) {
        snprintf(h, sizeof h, "P%d", 30 + 4 * i);
        put(att[i], ak_hex_parse(h));
        snprintf(h, sizeof h, "P%d", 31 + 4 * i);
        put(def[i], ak_hex_parse(h));
    }
    put("gsup1", ak_hex_parse("N32"));
    put("gsup2", ak_hex_parse("N40"));
    put("gsup3", ak_hex_parse("N48"));
    s.phase = AK_PHASE_COMBAT;
    for (int declared = 0; declared < 6; declared++) {
        int n = ak_query_battles(&s, offer, 64), i = 0;
        while (i < n && !ak_apply(&s, &offer[i], NULL, NULL))
            i++;
        ck_assert_msg(i < n, "battle %d declared", declared + 1);
    }
    struct ak_state before = s;
    ck_assert_int_eq(ak_battle_odds(&s, 12, &o), 6);
    ck_assert_int_eq(o.fightable, 2);
    ck_assert_int_eq(o.resolutions, 12);
    for (int b = 2; b < 6; b++)
        ck_assert_msg(!o.battle[b].fightable && strstr(o.battle[b].why, "too many battles"), "battle %d: %s", b + 1,
                      o.battle[b].why);
    ck_assert_int_eq(ak_battle_odds(&s, 0, &o), 6);
    ck_assert_int_eq(o.fightable, 6);
    ck_assert_int_eq(o.resolutions, 36);
    ck_assert_msg(memcmp(&before, &s, sizeof s) == 0, "the query leaves the state as it was");
}
END_TEST

AK_CHECK_MAIN("preview", classic_three_to_one, classic_escarpment_doubles, classic_outside_the_table,
              classic_supply_threshold, classic_only_combat_units, updated_on_the_table, overlay_zones_and_supply_lines,
              overlay_supply_by_ruleset, odds_within_their_bound)
