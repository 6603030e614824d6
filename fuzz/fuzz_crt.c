/* fuzz_crt: the combat results table loader of the Updated ruleset.
 *
 * What it fuzzes: ak_crt_table_parse (common/data/ak_crt_table.h), which akd
 * runs at start on the operator's updated_crt file (docs/crt-format.md).
 *
 * Input: the text of a table file.
 *
 * What it asserts:
 *   - a refused table says why (a non-empty error) and leaves nothing
 *     behind (the table is all zero);
 *   - an accepted one is whole: 1 to 16 columns with rising odds, rows
 *     covering the die, no more than the table holds;
 *   - every column and every modified roll (clamped, even far outside the
 *     rows) reads a cell; the columns for any odds are in range (-1 only
 *     where odds under the first column are forbidden);
 *   - each cell written back in the file's notation (ak_crt_effect_format)
 *     reads again to the same cell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_crt_table.h"

#define AK_FUZZ_NAME "fuzz_crt"
#include "ak_fuzz.h"

static void check_round_trip(const struct ak_crt_effect *e)
{
    char cell[64], text[512], err[256];
    ak_crt_effect_format(e, cell, sizeof cell);
    snprintf(text, sizeof text,
             "format akd-crt 1\ncolumns 1-1\nlosses defender\nbelow-first first\ndie 1 6\nrows 1 6\n"
             "roll 1 %s\nroll 2 -\nroll 3 -\nroll 4 -\nroll 5 -\nroll 6 -\n", cell);
    static struct ak_crt_table again;
    if (ak_crt_table_parse(&again, text, err, sizeof err))
        fail("the cell '%s' does not read again: %s", cell, err);
    if (memcmp(&again.cell[0][0], e, sizeof *e) != 0)
        fail("the cell '%s' reads again as another", cell);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char text[1 << 16];
    static struct ak_crt_table t;
    static const struct ak_crt_table zero;
    char err[256] = "";
    if (size >= sizeof text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    if (ak_crt_table_parse(&t, text, err, sizeof err)) {
        if (!err[0])
            fail("a table was refused without a reason");
        if (memcmp(&t, &zero, sizeof t) != 0)
            fail("a refused table left something behind");
        return 0;
    }
    if (t.ncolumns < 1 || t.ncolumns > AK_CRT_TABLE_COLUMNS)
        fail("%d columns accepted", t.ncolumns);
    for (int c = 1; c < t.ncolumns; c++)
        if (t.odds[c].attack * t.odds[c - 1].defense <= t.odds[c - 1].attack * t.odds[c].defense)
            fail("column %d's odds do not rise", c);
    if (t.row_min > t.die_min || t.row_max < t.die_max || t.row_max - t.row_min + 1 > AK_CRT_TABLE_ROWS)
        fail("rows %d..%d accepted for a die %d..%d", t.row_min, t.row_max, t.die_min, t.die_max);
    for (int c = 0; c < t.ncolumns; c++)
        for (int r = t.row_min - 3; r <= t.row_max + 3; r++) {
            const struct ak_crt_effect *e = ak_crt_table_result(&t, c, r);
            if (!e)
                fail("no cell for column %d, roll %d", c, r);
            if (r >= t.row_min && r <= t.row_max)
                check_round_trip(e);
        }
    for (int a = 0; a <= 30; a += 3)
        for (int d = 0; d <= 30; d += 4) {
            int col = ak_crt_table_column(&t, a, d);
            if (col >= t.ncolumns || col < -1 || (col == -1 && !t.below_first_forbidden))
                fail("%d against %d reads column %d of %d", a, d, col, t.ncolumns);
        }
    return 0;
}
