/* ak_hexset's fills against a plain square-by-square breadth-first
 * search on the real map (its water and Qattara hexsides, its edges), over
 * random sets of squares to enter and to pass: the flood the supply and
 * isolation maps use, the fill limited in steps, and the conversion to
 * one byte a square; and the direction between two squares. */
#include "ak_check.h"

#include <string.h>

#include "ak_hexset.h"
#include "ak_state.h"

/* A small generator of its own: the test must not depend on the engine's. */
static uint64_t seed_state = 0x9e3779b97f4a7c15ULL;
static uint32_t next_random(void)
{
    seed_state ^= seed_state << 13;
    seed_state ^= seed_state >> 7;
    seed_state ^= seed_state << 17;
    return (uint32_t)(seed_state >> 11);
}

static ak_hex random_playable(void)
{
    for (;;) {
        ak_hex h = (ak_hex)(next_random() % AK_HEX_COUNT);
        if (ak_hexset_has(&ak_map()->playable, h))
            return h;
    }
}

/* May a step leave c by side d: the map's own open sides (bytes, not the
 * sets the fills use) or, for the made-up boards, the sets given. */
static bool side_open(const struct ak_hexset *open_to, ak_hex c, int d)
{
    return open_to ? ak_hexset_has(&open_to[d], c) : (ak_map()->open[c] >> d) & 1;
}

/* The reference: breadth first from the seeds; a step through an open
 * side into a square of enter; onward only from seeds and squares of pass;
 * at most limit steps. */
static void reference(const uint8_t *seed, const struct ak_hexset *enter, const struct ak_hexset *pass, int limit,
                      const struct ak_hexset *open_to, uint8_t *reached)
{
    static ak_hex queue[AK_HEX_COUNT];
    static int depth[AK_HEX_COUNT];
    int head = 0, tail = 0;
    memset(reached, 0, AK_HEX_COUNT);
    for (ak_hex h = 0; h < AK_HEX_COUNT; h++)
        if (seed[h]) {
            reached[h] = 1;
            depth[h] = 0;
            queue[tail++] = h;
        }
    while (head < tail) {
        ak_hex c = queue[head++];
        if (depth[c] >= limit)
            continue;
        for (int d = 0; d < AK_DIRS; d++) {
            ak_hex n = ak_hex_neighbor(c, d);
            if (n == AK_HEX_NONE || !side_open(open_to, c, d) || reached[n] || !ak_hexset_has(enter, n))
                continue;
            reached[n] = 1;
            depth[n] = depth[c] + 1;
            if (ak_hexset_has(pass, n))
                queue[tail++] = n;
        }
    }
}

/* Random masks: enter drops one playable square in `hole`, pass drops one
 * more in `zone` (a zone of control: reached, not passed). */
static void random_case(struct ak_hexset *enter, struct ak_hexset *pass, uint8_t *seed, struct ak_hexset *seeds,
                        int hole, int zone)
{
    *enter = ak_map()->playable;
    *pass = *enter;
    for (ak_hex h = 0; h < AK_HEX_COUNT; h++) {
        if (!ak_hexset_has(enter, h))
            continue;
        if ((int)(next_random() % 100) < hole) {
            ak_hexset_remove(enter, h);
            ak_hexset_remove(pass, h);
        } else if ((int)(next_random() % 100) < zone) {
            ak_hexset_remove(pass, h);
        }
    }
    memset(seed, 0, AK_HEX_COUNT);
    ak_hexset_clear(seeds);
    int n = 1 + (int)(next_random() % 5);
    for (int i = 0; i < n; i++) {
        ak_hex h = random_playable();
        seed[h] = 1;
        ak_hexset_add(seeds, h);
    }
}

static void check_same(const struct ak_hexset *got, const uint8_t *want, int trial)
{
    for (ak_hex h = 0; h < AK_HEX_COUNT; h++)
        if (ak_hexset_has(got, h) != (want[h] != 0)) {
            char a[8];
            ck_abort_msg("trial %d: %s %s by the fill, %s by the reference", trial, ak_hex_format(h, a),
                         ak_hexset_has(got, h) ? "reached" : "not reached", want[h] ? "reached" : "not reached");
        }
}

START_TEST(flood_reaches_what_a_search_reaches)
{
    static uint8_t seed[AK_HEX_COUNT], want[AK_HEX_COUNT];
    struct ak_hexset enter, pass, got;
    /* from an open desert (every square passable) to a board cut in
     * pieces by holes and zones */
    static const int holes[] = {0, 2, 10, 25, 40}, zones[] = {0, 5, 20, 35, 60};
    int trial = 0;
    for (int k = 0; k < 5; k++)
        for (int j = 0; j < 5; j++)
            for (int t = 0; t < 40; t++, trial++) {
                random_case(&enter, &pass, seed, &got, holes[k], zones[j]);
                reference(seed, &enter, &pass, AK_HEX_COUNT, NULL, want);
                ak_hexset_flood(&got, &enter, &pass, ak_map()->open_to);
                check_same(&got, want, trial);
            }
}
END_TEST

START_TEST(reach_stops_after_its_steps)
{
    static uint8_t seed[AK_HEX_COUNT], want[AK_HEX_COUNT];
    struct ak_hexset enter, pass, got;
    for (int trial = 0; trial < 600; trial++) {
        int steps = trial % 12;
        random_case(&enter, &pass, seed, &got, (trial / 12) % 30, (trial / 7) % 40);
        reference(seed, &enter, &pass, steps, NULL, want);
        ak_hexset_reach(&got, &enter, &pass, ak_map()->open_to, steps);
        check_same(&got, want, trial);
    }
}
END_TEST

/* Made-up boards where the real map's rows never test the fill along a
 * row: the whole grid (numbers 0 to 71, every row), sides blocked one way
 * at random, and corridors of one to three rows, so that a run along a
 * row cannot be reached round through the rows beside it; seeds near the
 * ends of a row. The fills must find what the plain search finds, and
 * set no bit beyond the row's last number. */
START_TEST(corridors_along_whole_rows)
{
    static uint8_t seed[AK_HEX_COUNT], want[AK_HEX_COUNT];
    struct ak_hexset open_to[AK_DIRS], enter, pass, got;
    for (int trial = 0; trial < 2000; trial++) {
        int blocked = trial % 4 == 0 ? 0 : (int)(next_random() % 8);
        for (int d = 0; d < AK_DIRS; d++) {
            ak_hexset_clear(&open_to[d]);
            for (ak_hex h = 0; h < AK_HEX_COUNT; h++)
                if (ak_hex_neighbor(h, d) != AK_HEX_NONE && (int)(next_random() % 100) >= blocked)
                    ak_hexset_add(&open_to[d], h);
        }
        int first = (int)(next_random() % AK_ROWS), rows = 1 + (int)(next_random() % 3);
        ak_hexset_clear(&enter);
        for (int r = first; r < first + rows && r < AK_ROWS; r++)
            for (int n = 0; n < AK_NUMS; n++)
                if ((int)(next_random() % 100) >= (trial % 3 == 0 ? 0 : 3))
                    ak_hexset_add(&enter, ak_hex_make(r, n));
        pass = enter;
        for (ak_hex h = 0; h < AK_HEX_COUNT; h++)
            if (ak_hexset_has(&pass, h) && (int)(next_random() % 100) < (trial % 5 == 0 ? 10 : 0))
                ak_hexset_remove(&pass, h);
        memset(seed, 0, sizeof seed);
        ak_hexset_clear(&got);
        int n = next_random() % 2 ? 0 + (int)(next_random() % 4) : AK_NUMS - 1 - (int)(next_random() % 4);
        ak_hex h = ak_hex_make(first, n);
        seed[h] = 1;
        ak_hexset_add(&got, h);
        bool limited = trial % 2;
        int steps = limited ? (int)(next_random() % 80) : AK_HEX_COUNT;
        reference(seed, &enter, &pass, steps, open_to, want);
        if (limited)
            ak_hexset_reach(&got, &enter, &pass, open_to, steps);
        else
            ak_hexset_flood(&got, &enter, &pass, open_to);
        check_same(&got, want, trial);
        for (int r = 0; r < AK_ROWS; r++)
            ck_assert_msg((got.row[r][1] >> (AK_NUMS - 64)) == 0, "trial %d: bits beyond number %d in row %d", trial,
                          AK_NUMS - 1, r);
    }
}
END_TEST

/* Water: the hexsides the map blocks are never crossed, though both
 * squares are open desert. Every blocked side of the map, from each of
 * its two squares, one step. */
START_TEST(blocked_sides_are_not_crossed)
{
    const struct ak_map *m = ak_map();
    struct ak_hexset all = m->playable, got;
    int sides = 0;
    for (ak_hex h = 0; h < AK_HEX_COUNT; h++)
        for (int d = 0; d < AK_DIRS; d++) {
            ak_hex n = ak_hex_neighbor(h, d);
            if (!(m->blocked[h] & (1u << d)) || n == AK_HEX_NONE || !ak_hexset_has(&all, h) ||
                !ak_hexset_has(&all, n))
                continue;
            ak_hexset_clear(&got);
            ak_hexset_add(&got, h);
            ak_hexset_reach(&got, &all, &all, m->open_to, 1);
            ck_assert(!ak_hexset_has(&got, n));
            sides++;
        }
    ck_assert_int_gt(sides, 0);
}
END_TEST

START_TEST(bytes_are_the_set)
{
    static uint8_t out[AK_HEX_COUNT];
    struct ak_hexset s;
    for (int trial = 0; trial < 50; trial++) {
        ak_hexset_clear(&s);
        for (ak_hex h = 0; h < AK_HEX_COUNT; h++)
            if ((int)(next_random() % 100) < trial * 2)
                ak_hexset_add(&s, h);
        memset(out, 7, sizeof out);
        ak_hexset_to_bytes(&s, out);
        for (ak_hex h = 0; h < AK_HEX_COUNT; h++)
            ck_assert_int_eq(out[h], ak_hexset_has(&s, h));
    }
}
END_TEST

/* ak_hex_dir is the inverse of ak_hex_neighbor, and -1 for every square
 * that does not touch (its 3 by 3 table against the printed steps). */
START_TEST(directions_invert_neighbours)
{
    for (ak_hex a = 0; a < AK_HEX_COUNT; a++) {
        int touching = 0;
        for (int d = 0; d < AK_DIRS; d++) {
            ak_hex n = ak_hex_neighbor(a, d);
            if (n != AK_HEX_NONE)
                ck_assert_int_eq(ak_hex_dir(a, n), d);
        }
        for (int dr = -2; dr <= 2; dr++)
            for (int dn = -2; dn <= 2; dn++) {
                ak_hex b = ak_hex_make(ak_hex_row(a) + dr, ak_hex_num(a) + dn);
                if (b != AK_HEX_NONE && ak_hex_dir(a, b) >= 0) {
                    ck_assert_int_eq(ak_hex_distance(a, b), 1);
                    touching++;
                }
            }
        ck_assert_int_le(touching, AK_DIRS);
    }
    ck_assert_int_eq(ak_hex_dir(0, AK_HEX_NONE), -1);
}
END_TEST

AK_CHECK_MAIN("hexset", flood_reaches_what_a_search_reaches, reach_stops_after_its_steps,
              corridors_along_whole_rows, blocked_sides_are_not_crossed, bytes_are_the_set,
              directions_invert_neighbours)
