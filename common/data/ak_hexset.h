/* ak_hexset: a set of squares of the grid as bits, and the fills that the
 * supply and isolation searches run (thousands of times a second in the
 * computer opponent's evaluation, once per phase in the engine).
 *
 * A row of the grid (72 numbers) is two 64-bit words: number n of row r is
 * bit n % 64 of row[r][n / 64]. A step from a square to its neighbour in
 * direction d is allowed only from the squares of open_to[d] (the map's
 * open sides, ak_map.open_to), so water and Qattara hexsides and the board's
 * edges are in the masks, not in the fills.
 *
 * Why bits: a square-by-square breadth-first search of the whole board
 * (about 1,100 squares) costs a queue entry and six branches a square; the
 * fill here works on a row at a time: the rows above and below feed a row,
 * then the row is closed along itself in seven shifts (a Kogge-Stone
 * occluded fill), sweeping down and up the board until a sweep adds
 * nothing. The result is the same set (tests/test_hexset.c checks it
 * against a plain search). */
#ifndef AK_HEXSET_H
#define AK_HEXSET_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ak_hex.h"

#define AK_HEXSET_WORDS 2   /* 72 numbers a row */

struct ak_hexset {
    uint64_t row[AK_ROWS][AK_HEXSET_WORDS];
};

static inline void ak_hexset_clear(struct ak_hexset *s)
{
    memset(s, 0, sizeof *s);
}
static inline void ak_hexset_add(struct ak_hexset *s, ak_hex h)
{
    int n = ak_hex_num(h);
    s->row[ak_hex_row(h)][n >> 6] |= (uint64_t)1 << (n & 63);
}
static inline void ak_hexset_remove(struct ak_hexset *s, ak_hex h)
{
    int n = ak_hex_num(h);
    s->row[ak_hex_row(h)][n >> 6] &= ~((uint64_t)1 << (n & 63));
}
static inline bool ak_hexset_has(const struct ak_hexset *s, ak_hex h)
{
    int n = ak_hex_num(h);
    return (s->row[ak_hex_row(h)][n >> 6] >> (n & 63)) & 1;
}

/* a = a or b */
static inline void ak_hexset_or(struct ak_hexset *a, const struct ak_hexset *b)
{
    for (int r = 0; r < AK_ROWS; r++)
        for (int w = 0; w < AK_HEXSET_WORDS; w++)
            a->row[r][w] |= b->row[r][w];
}

/* a = a and not b */
static inline void ak_hexset_and_not(struct ak_hexset *a, const struct ak_hexset *b)
{
    for (int r = 0; r < AK_ROWS; r++)
        for (int w = 0; w < AK_HEXSET_WORDS; w++)
            a->row[r][w] &= ~b->row[r][w];
}

/* out[h] = 1 for every square of s, 0 elsewhere (AK_HEX_COUNT bytes). */
void ak_hexset_to_bytes(const struct ak_hexset *s, uint8_t *out);

/* Every square reached from the squares already in reached (the seeds,
 * which all spread): a step goes through a side open in open_to into a
 * square of enter; the fill goes on from the squares of pass it reaches
 * and stops on the others (they are reached, not passed). */
void ak_hexset_flood(struct ak_hexset *reached, const struct ak_hexset *enter, const struct ak_hexset *pass,
                     const struct ak_hexset open_to[AK_DIRS]);

/* The same, at most steps steps from a seed (a breadth-first search by
 * layers, one layer a shift of every row). */
void ak_hexset_reach(struct ak_hexset *reached, const struct ak_hexset *enter, const struct ak_hexset *pass,
                     const struct ak_hexset open_to[AK_DIRS], int steps);

#endif
