/* The combat results table file of the Updated ruleset (ak_crt_table.h,
 * docs/crt-format.md), read from tests/data/crt-test.txt, a table written
 * for testing (its header says so; the published table is not in any
 * material this project can reach: NEW COMBAT SYSTEM 1, reading A-1 of
 * docs/updated-rules-cases.md). Each directive both ways: what a good
 * table gives, and each kind of bad table refused with its line. */
#include <stdio.h>
#include <string.h>

#include "ak_check.h"
#include "ak_crt_table.h"

static char *read_test_table(void)
{
    const char *dir = getenv("AK_TEST_DATA");
    char path[512];
    snprintf(path, sizeof path, "%s/crt-test.txt", dir ? dir : "tests/data");
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    static char text[16384];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}

static struct ak_crt_table table;

static void load(void)
{
    char err[256];
    const char *e = ak_crt_table_parse(&table, read_test_table(), err, sizeof err);
    ck_assert_msg(e == NULL, "the test table is refused: %s", e);
}

static const char *cell(int column, int roll)
{
    static char buf[64];
    ak_crt_effect_format(ak_crt_table_result(&table, column, roll), buf, sizeof buf);
    return buf;
}

START_TEST(reads_the_test_table)
{
    load();
    ck_assert_str_eq(table.name, "TEST TABLE (not the published New Europa CRT)");
    ck_assert_int_eq(table.ncolumns, 10);
    ck_assert_int_eq(table.row_min, -1);
    ck_assert_int_eq(table.row_max, 8);
    /* NEW COMBAT SYSTEM 4: the attacker's strength counts in 1-4, 1-3, 1-2 */
    ck_assert(table.attacker_counts[0] && table.attacker_counts[2] && !table.attacker_counts[3]);
    ck_assert(table.below_first_forbidden);
    ck_assert_str_eq(cell(9, 1), "DL50%/DR2");
    ck_assert_str_eq(cell(0, -1), "AL2");
    ck_assert_str_eq(cell(3, 5), "EX");
    ck_assert_str_eq(cell(2, 5), "HX");
    ck_assert_str_eq(cell(2, 4), "AR2");
    ck_assert_str_eq(cell(6, -1), "-");
    const struct ak_crt_effect *e = ak_crt_table_result(&table, 9, 1);
    ck_assert(e->defender.loss == 50 && e->defender.loss_percent && e->defender.retreat == 2);
    ck_assert(e->attacker.loss == 0 && e->exchange == AK_CRT_NO_EXCHANGE);
}
END_TEST

/* The modified die range with clamping: rolls past the rows read the last. */
START_TEST(modified_rolls_are_clamped)
{
    load();
    ck_assert_str_eq(cell(9, 8), "DL4/DR3");
    ck_assert_str_eq(cell(9, 12), "DL4/DR3");
    ck_assert_str_eq(cell(0, -1), "AL2");
    ck_assert_str_eq(cell(0, -5), "AL2");
    ck_assert_ptr_null(ak_crt_table_result(&table, 10, 3));
    ck_assert_ptr_null(ak_crt_table_result(&table, -1, 3));
}
END_TEST

/* Odds rounded in the defender's favour to the highest column they reach. */
START_TEST(odds_columns)
{
    load();
    ck_assert_int_eq(ak_crt_table_column(&table, 1, 4), 0);     /* 1-4 */
    ck_assert_int_eq(ak_crt_table_column(&table, 2, 7), 0);     /* 1-3.5: 1-4 */
    ck_assert_int_eq(ak_crt_table_column(&table, 1, 5), -1);    /* under 1-4: forbidden here */
    ck_assert_int_eq(ak_crt_table_column(&table, 7, 4), 4);     /* 1.75: 3-2 */
    ck_assert_int_eq(ak_crt_table_column(&table, 5, 2), 5);     /* 2.5: 2-1 */
    ck_assert_int_eq(ak_crt_table_column(&table, 6, 2), 6);     /* 3-1 */
    ck_assert_int_eq(ak_crt_table_column(&table, 40, 2), 9);    /* 20-1: the last column */
    ck_assert_int_eq(ak_crt_table_column(&table, 3, 0), 9);     /* nothing defends */
    /* ... and with below-first first, odds under the first read it */
    char text[1024], err[256];
    struct ak_crt_table t;
    snprintf(text, sizeof text, "format akd-crt 1\ncolumns 1-2 1-1\nlosses attacker defender\nbelow-first first\n"
                                "die 1 6\nrows 1 6\nroll 1 AL1 -\nroll 2 - -\nroll 3 - -\nroll 4 - -\nroll 5 - -\nroll 6 - DL1\n");
    ck_assert_ptr_null(ak_crt_table_parse(&t, text, err, sizeof err));
    ck_assert_int_eq(ak_crt_table_column(&t, 1, 9), 0);
    ck_assert_str_eq(t.name, "(unnamed table)");
}
END_TEST

/* Replace line `line` (1-based) of the test table with `with` ("" drops it). */
static const char *refuse(int line, const char *with, char *err, int errlen)
{
    static char text[16384];
    const char *src = read_test_table();
    size_t used = 0;
    int n = 1;
    for (const char *p = src; *p; n++) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (n == line)
            used += (size_t)snprintf(text + used, sizeof text - used, "%s\n", with);
        else
            used += (size_t)snprintf(text + used, sizeof text - used, "%.*s\n", (int)len, p);
        p += len + (nl != NULL);
    }
    struct ak_crt_table t;
    const char *e = ak_crt_table_parse(&t, text, err, errlen);
    ck_assert_msg(e != NULL, "line %d as '%s' was accepted", line, with);
    static const struct ak_crt_table zero;
    ck_assert_msg(memcmp(&t, &zero, sizeof t) == 0, "a refused table left something behind");
    return e;
}

/* Every kind of bad table is refused, and the error names its line. */
START_TEST(bad_tables_name_their_line)
{
    char err[256];
    /* lines of crt-test.txt: 6 format, 8 columns, 9 losses, 10 below-first,
     * 11 die, 12 rows, 13..22 rolls -1..8 */
    ck_assert_str_eq(refuse(6, "format akd-crt 2", err, sizeof err), "line 6: this reads 'format akd-crt 1' tables only");
    ck_assert(strstr(refuse(6, "", err, sizeof err), "format akd-crt 1") != NULL);
    ck_assert(strstr(refuse(8, "columns 1-4 1-3 1-2 1-1 3-2 2-1 3-1 4-1 6-1 5-1", err, sizeof err),
                     "line 8: the odds must rise") != NULL);
    ck_assert(strstr(refuse(8, "columns 1-4 1-3 1-2 1-1 3-2 2-1 3-1 4-1 5-1 x-1", err, sizeof err),
                     "line 8: 'x-1' is not odds") != NULL);
    ck_assert(strstr(refuse(9, "losses attacker attacker", err, sizeof err), "line 9: losses") != NULL);
    ck_assert(strstr(refuse(9, "losses attacker attacker attacker defender defender defender defender defender defender nobody",
                            err, sizeof err), "line 9: 'nobody'") != NULL);
    ck_assert(strstr(refuse(10, "below-first maybe", err, sizeof err), "line 10:") != NULL);
    ck_assert(strstr(refuse(11, "die 1 8", err, sizeof err), "line 11: die") != NULL);
    ck_assert(strstr(refuse(12, "rows 2 8", err, sizeof err), "line 13: roll wants") != NULL);  /* -1 no longer a row */
    ck_assert(strstr(refuse(13, "", err, sizeof err), "no row for the modified roll -1") != NULL);
    ck_assert(strstr(refuse(14, "roll -1 AL2 AL2 AL1 AL1 AL1 AL50% - - DL1 DL1", err, sizeof err),
                     "line 14: roll -1 given twice") != NULL);
    ck_assert(strstr(refuse(15, "roll 1 AL1 AL1", err, sizeof err), "line 15: roll 1 has 2 cells for 10 columns") != NULL);
    ck_assert(strstr(refuse(15, "roll 1 AL1 AL1 AL50% AL50% - DR2 DL1 DL1 DL50% XX", err, sizeof err),
                     "line 15: 'XX' (column 6-1) is not a result") != NULL);
    /* cells: a percentage retreat, an exchange with losses of its own, a
     * part twice, a loss over the limit, an empty part */
    static const char *const bad_cells[] = {"DR50%", "EX/DL1", "DL1/DL2", "AL100", "DL0", "DL101%", "DL1/", "AR0", "EX/HX"};
    for (size_t i = 0; i < sizeof bad_cells / sizeof bad_cells[0]; i++) {
        char row[200];
        snprintf(row, sizeof row, "roll 1 AL1 AL1 AL50%% AL50%% - DR2 DL1 DL1 DL50%% %s", bad_cells[i]);
        ck_assert_msg(strstr(refuse(15, row, err, sizeof err), "line 15:") != NULL, "%s: %s", bad_cells[i], err);
    }
    ck_assert(strstr(refuse(16, "teleport 3", err, sizeof err), "line 16: unknown directive 'teleport'") != NULL);
    ck_assert(strstr(refuse(11, "rows -1 8", err, sizeof err), "line 12: rows wants") != NULL);    /* twice: the second refused */
}
END_TEST

/* A roll line before the columns and rows are known is refused. */
START_TEST(order_of_directives)
{
    char err[256];
    struct ak_crt_table t;
    ck_assert_str_eq(ak_crt_table_parse(&t, "format akd-crt 1\nroll 1 -\n", err, sizeof err),
                     "line 2: columns and rows come before the first roll");
    ck_assert(strstr(ak_crt_table_parse(&t, "format akd-crt 1\ncolumns 1-1\nlosses defender\nbelow-first first\n"
                                            "die 1 6\nrows 2 6\nroll 2 -\nroll 3 -\nroll 4 -\nroll 5 -\nroll 6 -\n",
                                        err, sizeof err), "do not cover the unmodified die") != NULL);
    ck_assert(strstr(ak_crt_table_parse(&t, "", err, sizeof err), "format akd-crt 1") != NULL);
}
END_TEST

AK_CHECK_MAIN("crt_table", reads_the_test_table, modified_rolls_are_clamped, odds_columns, bad_tables_name_their_line,
              order_of_directives)
