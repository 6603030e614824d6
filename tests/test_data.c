/* Hex maths and the game data: counts, the named squares of the rules,
 * neighbour chains, distance and blocked hexsides. */
#include "ak_check.h"
#include <stdlib.h>
#include <string.h>

#include "ak_data.h"
#include "ak_zoc.h"

static ak_hex H(const char *s) { return ak_hex_parse(s); }

START_TEST(parse_and_format)
{
    char b[8];
    ck_assert_int_ne(H("W6"), AK_HEX_NONE);
    ck_assert_str_eq(ak_hex_format(H("W6"), b), "W6");
    ck_assert_str_eq(ak_hex_format(H("w-6"), b), "W6");    /* the rules write W-6 */
    ck_assert_str_eq(ak_hex_format(H("J62"), b), "J62");
    ck_assert_int_eq(H("Y6"), AK_HEX_NONE);
    ck_assert_int_eq(H("W"), AK_HEX_NONE);
    ck_assert_int_eq(H("W6x"), AK_HEX_NONE);
    ck_assert_int_eq(H("W0"), AK_HEX_NONE);
    ck_assert_int_eq(H("W999"), AK_HEX_NONE);
    ck_assert_int_eq(H(""), AK_HEX_NONE);
}
END_TEST

static void chain(const char *const *names, int n)
{
    for (int i = 0; i + 1 < n; i++) {
        ck_assert_msg(ak_hex_dir(H(names[i]), H(names[i + 1])) >= 0, "%s-%s", names[i], names[i + 1]);
        ck_assert_int_eq(ak_hex_distance(H(names[i]), H(names[i + 1])), 1);
    }
}

START_TEST(neighbour_chains)
{
    static const char *const a[] = {"G25", "H26", "I27", "J27", "J28"};
    static const char *const b[] = {"G22", "H23", "H24", "H25", "H26", "H27"};
    chain(a, 5);
    chain(b, 6);
    ck_assert_int_lt(ak_hex_dir(H("G25"), H("I27")), 0);
    for (int d = 0; d < AK_DIRS; d++) {
        ak_hex n = ak_hex_neighbor(H("I26"), d);
        ck_assert_int_eq(ak_hex_dir(n, H("I26")) >= 0, 1);
    }
}
END_TEST

/* ak_hex_step, the searches' neighbour without a bounds check, is
 * ak_hex_neighbor wherever the map says a step is open. */
START_TEST(step_is_neighbour_where_open)
{
    const struct ak_map *m = &ak_data()->map;
    int open = 0;
    for (int h = 0; h < AK_HEX_COUNT; h++)
        for (int d = 0; d < AK_DIRS; d++)
            if (m->open[h] & (1u << d)) {
                open++;
                ck_assert_int_eq(ak_hex_step((ak_hex)h, d), ak_hex_neighbor((ak_hex)h, d));
                ck_assert_int_ne(ak_hex_step((ak_hex)h, d), AK_HEX_NONE);
            }
    ck_assert_int_gt(open, 1000);
}
END_TEST

START_TEST(distance)
{
    ck_assert_int_eq(ak_hex_distance(H("W6"), H("W6")), 0);
    ck_assert_int_eq(ak_hex_distance(H("G25"), H("J28")), 3);
    ck_assert_int_eq(ak_hex_distance(H("W6"), H("W16")), 10);
    ck_assert_int_eq(ak_hex_distance(H("A1"), H("X1")), 23);
    ck_assert_int_eq(ak_hex_distance(H("W3"), H("J62")), ak_hex_distance(H("J62"), H("W3")));
}
END_TEST

START_TEST(counts)
{
    const struct ak_data *d = ak_data();
    ck_assert_int_eq(d->map.hexes, 1385);
    ck_assert_int_eq(d->map.road_sides + d->map.water_sides + d->map.qattara_sides, 125);
    ck_assert_int_eq(d->map.road_sides, 99);
    ck_assert_int_eq(d->map.qattara_sides, 25);
    ck_assert_int_eq(d->map.water_sides, 1);
    ck_assert_int_eq(d->units, 102);
    ck_assert_int_eq(d->scenario.turns, 38);
    ck_assert_str_eq(d->scenario.date[1], "1 April 1941");
    ck_assert_str_eq(d->scenario.date[38], "15 October 1942");
    ck_assert_int_eq(d->scenario.setups, 23);
}
END_TEST

START_TEST(named_squares)
{
    const struct ak_map *m = &ak_data()->map;
    ck_assert_int_eq(m->homebase[AK_AXIS], H("W3"));
    ck_assert_int_eq(m->homebase[AK_ALLIED], H("J62"));
    ck_assert_int_eq(m->bengasi, H("H2"));
    ck_assert_int_eq(m->tobruch, H("G25"));
    ck_assert_int_eq(m->terrain[H("W6")], AK_TERRAIN_CLEAR);
    ck_assert_int_eq(m->terrain[H("L59")], AK_TERRAIN_CLEAR);
    ck_assert_int_eq(m->terrain[H("G25")], AK_TERRAIN_FORTRESS);
    ck_assert_int_eq(m->terrain[H("W3")], AK_TERRAIN_HOMEBASE);
}
END_TEST

START_TEST(blocked_hexsides)
{
    /* E18-F19 is all water, W62-X62 a Qattara hexside: no movement and
     * no zone of control across them. */
    ck_assert(ak_hex_dir(H("E18"), H("F19")) >= 0);
    ck_assert(!ak_adjacent(H("E18"), H("F19")));
    ck_assert(!ak_adjacent(H("F19"), H("E18")));
    ck_assert(!ak_adjacent(H("W62"), H("X62")));
    ck_assert(ak_adjacent(H("G25"), H("H26")));
    ck_assert(!ak_enterable(H("A1")));      /* sea */
    ck_assert(!ak_enterable(H("A40")));     /* no coordinate */
}
END_TEST

START_TEST(counters)
{
    const struct ak_data *d = ak_data();
    int u = ak_unit_find(d, "7arm7");
    ck_assert_int_ge(u, 0);
    /* The seed's example: the British 7th Armor Brigade is 3-3-7 and the
     * Italian Trenta 2-3-4. */
    ck_assert_int_eq(d->unit[u].attack, 3);
    ck_assert_int_eq(d->unit[u].defense, 3);
    ck_assert_int_eq(d->unit[u].movement, 7);
    u = ak_unit_find(d, "trenta");
    ck_assert_int_eq(d->unit[u].attack * 100 + d->unit[u].defense * 10 + d->unit[u].movement, 234);
    ck_assert_int_eq(d->unit[u].side, AK_AXIS);
    ck_assert_int_eq(ak_unit_find(d, "nonesuch"), AK_UNIT_NONE);
    ck_assert_int_eq(ak_unit_find(d, "21pz"), -2);          /* ambiguous */
    ck_assert_int_eq(ak_unit_find(d, "ROMMEL"), ak_unit_find(d, "rommel"));
    ck_assert_int_eq(d->unit[ak_unit_find(d, "15pz8")].arrival_turn, 3);
    ck_assert_int_eq(d->scenario.sunk[1], (1 << 1) | (1 << 2));
    ck_assert_int_eq(d->scenario.sunk[7], (1 << 1) | (1 << 2) | (1 << 3));
    ck_assert_int_eq(d->scenario.sunk[38], 1 << 1);
    ck_assert_int_eq(d->crt.result[0][5], AK_CRT_DE);      /* 1-1, roll 1 */
    ck_assert_int_eq(d->crt.result[4][5], AK_CRT_AE);      /* 1-1, roll 5 */
    ck_assert_str_eq(d->crt.column[0], "1-6");
}
END_TEST

/* REPLACEMENT RATES (seed 003): the year totals the seed gives, from
 * updated-1941.txt, with the November and December 1942 figures the seed
 * lists for those who play on (the campaign ends in October 1942). */
START_TEST(updated_replacement_rates)
{
    const struct ak_data *d = ak_data();
    int total[2][AK_SIDES][2] = {{{0}}};    /* [year 1941, 1942][side][infantry, armor] */
    int months = 0;
    for (int t = 1; t <= d->scenario.turns; t++) {
        ck_assert_msg(d->updated.month_start[t] == (strncmp(d->scenario.date[t], "1 ", 2) == 0), "turn %d", t);
        if (!d->updated.month_start[t])
            continue;
        months++;
        int year = strstr(d->scenario.date[t], "1942") != NULL;
        for (int side = 0; side < AK_SIDES; side++)
            for (int k = 0; k < 2; k++)
                total[year][side][k] += d->updated.points[t][side][k];
    }
    ck_assert_int_eq(months, 19);           /* April 1941 to October 1942 */
    /* Nov and Dec 1942: Axis infantry Nov, armor Dec; Allied infantry
     * both, armor Nov. */
    total[1][AK_AXIS][0] += 1;
    total[1][AK_AXIS][1] += 1;
    total[1][AK_ALLIED][0] += 2;
    total[1][AK_ALLIED][1] += 1;
    ck_assert_int_eq(total[0][AK_AXIS][0], 6);
    ck_assert_int_eq(total[0][AK_AXIS][1], 3);
    ck_assert_int_eq(total[1][AK_AXIS][0], 6);
    ck_assert_int_eq(total[1][AK_AXIS][1], 6);
    ck_assert_int_eq(total[0][AK_ALLIED][0], 9);
    ck_assert_int_eq(total[0][AK_ALLIED][1], 3);
    ck_assert_int_eq(total[1][AK_ALLIED][0], 12);
    ck_assert_int_eq(total[1][AK_ALLIED][1], 6);
    /* "1942 Axis armor replacements – 1 each February, April ...": not January. */
    ck_assert_int_eq(d->updated.points[19][AK_AXIS][1], 0);
    ck_assert_int_eq(d->updated.points[21][AK_AXIS][1], 1);
    /* The convoy +1: April (the campaign's first month) to November 1941. */
    ck_assert_int_eq(d->updated.convoy_drm_first, 1);
    ck_assert_int_eq(d->updated.convoy_drm_last, 16);
    ck_assert_int_eq(d->updated.nentries[AK_AXIS], 1);
    ck_assert_int_eq(d->updated.entry[AK_ALLIED][0], ak_hex_parse("J62"));
}
END_TEST

/* The calendar's parser refuses what it cannot place on the campaign. */
START_TEST(updated_calendar_errors)
{
    static struct ak_data d;
    char err[200];
    d.scenario = ak_data()->scenario;
    d.map = ak_data()->map;
    ck_assert_ptr_nonnull(ak_updated_calendar_parse(&d, "points Smarch 1941 1 0 1 0\n", err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "line 1"));
    ck_assert_ptr_nonnull(ak_updated_calendar_parse(&d, "points April 1941 1 0 1 x\n", err, sizeof err));
    ck_assert_ptr_nonnull(ak_updated_calendar_parse(&d, "entry axis W5\nentry allied J62\npoints April 1941 1 0 1 0\n", err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "no points line for May 1941"));
    ck_assert_ptr_nonnull(ak_updated_calendar_parse(&d, "entry allied J62\n", err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "no entry square for the Axis side"));
    ck_assert_ptr_nonnull(ak_updated_calendar_parse(&d, "entry axis A1\n", err, sizeof err));    /* sea */
    ck_assert_ptr_nonnull(strstr(err, "line 1"));
    ck_assert_ptr_nonnull(ak_updated_calendar_parse(&d, "bogus\n", err, sizeof err));
    ck_assert_ptr_nonnull(ak_updated_calendar_parse(&d, "axis-convoy-drm November 1941 April 1941\n", err, sizeof err));
}
END_TEST

AK_CHECK_MAIN("data", parse_and_format, neighbour_chains, step_is_neighbour_where_open, distance, counts, named_squares, blocked_hexsides, counters,
              updated_replacement_rates, updated_calendar_errors)
