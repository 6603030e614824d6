/* ak_crt_table: read and check a combat results table in the format of
 * docs/crt-format.md (ak_crt_table.h says why it is a file). The parser
 * takes the file's directives in any order but checks the whole at the
 * end: every column named once with rising odds, whose losses each column
 * counts, the die, and one row for every modified roll of the range. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_crt_table.h"
#include "ak_data.h"

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); memset(t, 0, sizeof *t); return err; } while (0)

/* A whole number from lo to hi, all of s. */
static bool whole(const char *s, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

static bool parse_odds(const char *s, uint8_t *a, uint8_t *d)
{
    char left[8], right[8];
    const char *dash = strchr(s, '-');
    int x, y;
    if (!dash || dash == s || (size_t)(dash - s) >= sizeof left || strlen(dash + 1) >= sizeof right)
        return false;
    memcpy(left, s, (size_t)(dash - s));
    left[dash - s] = '\0';
    snprintf(right, sizeof right, "%s", dash + 1);
    if (!whole(left, 1, 99, &x) || !whole(right, 1, 99, &y))
        return false;
    *a = (uint8_t)x;
    *d = (uint8_t)y;
    return true;
}

/* One part of a cell (AL2, DL50%, DR2, EX, HX); false if it is none. */
static bool parse_part(const char *p, struct ak_crt_effect *e, unsigned *seen)
{
    if (strcmp(p, "EX") == 0 || strcmp(p, "HX") == 0) {
        if (*seen & 1u)
            return false;
        *seen |= 1u;
        e->exchange = p[0] == 'E' ? AK_CRT_EXCHANGE : AK_CRT_HALF_EXCHANGE;
        return true;
    }
    if ((p[0] != 'A' && p[0] != 'D') || (p[1] != 'L' && p[1] != 'R'))
        return false;
    struct ak_crt_side_effect *s = p[0] == 'A' ? &e->attacker : &e->defender;
    unsigned bit = 1u << (1 + (p[0] == 'D') * 2 + (p[1] == 'R'));
    if (*seen & bit)
        return false;
    *seen |= bit;
    char num[8];
    size_t n = strlen(p + 2);
    bool percent = n > 0 && p[2 + n - 1] == '%';
    if (n == 0 || n >= sizeof num || (percent && p[1] == 'R'))
        return false;
    memcpy(num, p + 2, n + 1);
    if (percent)
        num[n - 1] = '\0';
    int v;
    if (p[1] == 'R') {
        if (!whole(num, 1, 9, &v))
            return false;
        s->retreat = (uint8_t)v;
    } else {
        if (!whole(num, 1, percent ? 100 : 99, &v))
            return false;
        s->loss = (uint8_t)v;
        s->loss_percent = percent;
    }
    return true;
}

/* A cell: "-", or parts joined by '/'. An exchange carries no losses of
 * its own (the exchange rule sets them). */
static bool parse_cell(const char *text, struct ak_crt_effect *e)
{
    memset(e, 0, sizeof *e);
    if (strcmp(text, "-") == 0)
        return true;
    char buf[64];
    size_t n = strlen(text);
    if (n == 0 || n >= sizeof buf || text[0] == '/' || text[n - 1] == '/' || strstr(text, "//"))
        return false;       /* no empty part */
    snprintf(buf, sizeof buf, "%s", text);
    unsigned seen = 0;
    for (char *save = NULL, *p = strtok_r(buf, "/", &save); p; p = strtok_r(NULL, "/", &save))
        if (!parse_part(p, e, &seen))
            return false;
    bool losses = e->attacker.loss || e->defender.loss;
    return seen != 0 && !(e->exchange && losses);
}

static const char *parse_columns(struct ak_crt_table *t, const struct ak_tokens *k, char *err, int errlen)
{
    if (t->ncolumns)
        FAIL("line %d: columns given twice", k->line);
    if (k->n < 2 || k->n - 1 > AK_CRT_TABLE_COLUMNS)
        FAIL("line %d: columns wants 1 to %d odds such as 1-2 or 3-1", k->line, AK_CRT_TABLE_COLUMNS);
    for (int i = 1; i < k->n; i++) {
        int c = i - 1;
        if (!parse_odds(k->word[i], &t->odds[c].attack, &t->odds[c].defense))
            FAIL("line %d: '%s' is not odds such as 1-2 or 3-1", k->line, k->word[i]);
        if (c > 0 && t->odds[c].attack * t->odds[c - 1].defense <= t->odds[c - 1].attack * t->odds[c].defense)
            FAIL("line %d: the odds must rise from column to column (%s after %s)", k->line, k->word[i], k->word[i - 1]);
    }
    t->ncolumns = k->n - 1;
    return NULL;
}

static const char *parse_row(struct ak_crt_table *t, const struct ak_tokens *k, bool *have_row, char *err, int errlen)
{
    int roll;
    if (!t->ncolumns || !t->row_max)
        FAIL("line %d: columns and rows come before the first roll", k->line);
    if (k->n < 2 || !whole(k->word[1], t->row_min, t->row_max, &roll))
        FAIL("line %d: roll wants a modified roll from %d to %d (rows)", k->line, t->row_min, t->row_max);
    if (have_row[roll - t->row_min])
        FAIL("line %d: roll %d given twice", k->line, roll);
    if (k->n - 2 != t->ncolumns)
        FAIL("line %d: roll %d has %d cells for %d columns", k->line, roll, k->n - 2, t->ncolumns);
    for (int c = 0; c < t->ncolumns; c++)
        if (!parse_cell(k->word[c + 2], &t->cell[roll - t->row_min][c]))
            FAIL("line %d: '%s' (column %d-%d) is not a result: '-', or AL/DL with strength points or a percentage, "
                 "AR/DR with hexes, EX or HX, joined by '/'", k->line, k->word[c + 2],
                 t->odds[c].attack, t->odds[c].defense);
    have_row[roll - t->row_min] = true;
    return NULL;
}

static const char *parse_line(struct ak_crt_table *t, const struct ak_tokens *k, bool *have_row, bool *seen,
                              char *err, int errlen)
{
    const char *w = k->word[0];
    if (strcmp(w, "format") == 0) {
        if (k->n != 3 || strcmp(k->word[1], "akd-crt") != 0 || strcmp(k->word[2], "1") != 0)
            FAIL("line %d: this reads 'format akd-crt 1' tables only", k->line);
        seen[0] = true;
    } else if (strcmp(w, "name") == 0) {
        size_t used = 0;
        for (int i = 1; i < k->n && used + 1 < sizeof t->name; i++)
            used += (size_t)snprintf(t->name + used, sizeof t->name - used, "%s%s", i > 1 ? " " : "", k->word[i]);
    } else if (strcmp(w, "columns") == 0) {
        return parse_columns(t, k, err, errlen);
    } else if (strcmp(w, "losses") == 0) {
        if (!t->ncolumns || k->n - 1 != t->ncolumns)
            FAIL("line %d: losses names attacker or defender for each column, after columns", k->line);
        for (int c = 0; c < t->ncolumns; c++) {
            if (strcmp(k->word[c + 1], "attacker") != 0 && strcmp(k->word[c + 1], "defender") != 0)
                FAIL("line %d: '%s' is neither attacker nor defender", k->line, k->word[c + 1]);
            t->attacker_counts[c] = k->word[c + 1][0] == 'a';
        }
        seen[1] = true;
    } else if (strcmp(w, "below-first") == 0) {
        if (k->n != 2 || (strcmp(k->word[1], "forbidden") != 0 && strcmp(k->word[1], "first") != 0))
            FAIL("line %d: below-first is forbidden (no attack) or first (read as the first column)", k->line);
        t->below_first_forbidden = k->word[1][0] == 'f' && k->word[1][1] == 'o';
        seen[2] = true;
    } else if (strcmp(w, "die") == 0) {
        if (k->n != 3 || !whole(k->word[1], 1, 2, &t->die_min) || !whole(k->word[2], 6, 12, &t->die_max) ||
            !((t->die_min == 1 && t->die_max == 6) || (t->die_min == 2 && t->die_max == 12)))
            FAIL("line %d: die is 1 6 (one die) or 2 12 (two dice)", k->line);
    } else if (strcmp(w, "rows") == 0) {
        if (t->row_max || k->n != 3 || !whole(k->word[1], -9, 20, &t->row_min) ||
            !whole(k->word[2], t->row_min, 20, &t->row_max) || t->row_max - t->row_min + 1 > AK_CRT_TABLE_ROWS)
            FAIL("line %d: rows wants the lowest and highest modified roll (-9 to 20, at most %d rows), once",
                 k->line, AK_CRT_TABLE_ROWS);
    } else if (strcmp(w, "roll") == 0) {
        return parse_row(t, k, have_row, err, errlen);
    } else {
        FAIL("line %d: unknown directive '%s' (format, name, columns, losses, below-first, die, rows, roll)",
             k->line, w);
    }
    return NULL;
}

const char *ak_crt_table_parse(struct ak_crt_table *t, const char *text, char *err, int errlen)
{
    struct ak_tokens k;
    bool have_row[AK_CRT_TABLE_ROWS] = {false};
    bool seen[3] = {false, false, false};      /* format, losses, below-first */
    memset(t, 0, sizeof *t);
    ak_tokens_init(&k, text);
    while (ak_tokens_next(&k))
        if (parse_line(t, &k, have_row, seen, err, errlen))
            return err;
    if (!seen[0])
        FAIL("the table does not say 'format akd-crt 1'");
    if (!t->ncolumns || !seen[1] || !seen[2] || !t->die_max || !t->row_max)
        FAIL("the table needs columns, losses, below-first, die and rows");
    if (t->row_min > t->die_min || t->row_max < t->die_max)
        FAIL("rows %d to %d do not cover the unmodified die (%d to %d)", t->row_min, t->row_max, t->die_min, t->die_max);
    for (int r = t->row_min; r <= t->row_max; r++)
        if (!have_row[r - t->row_min])
            FAIL("no row for the modified roll %d", r);
    if (!t->name[0])
        snprintf(t->name, sizeof t->name, "(unnamed table)");
    return NULL;
}

int ak_crt_table_column(const struct ak_crt_table *t, int attack, int defense)
{
    if (defense <= 0)
        return t->ncolumns - 1;
    int col = -1;
    for (int c = 0; c < t->ncolumns; c++)
        if (attack * t->odds[c].defense >= t->odds[c].attack * defense)
            col = c;
    if (col < 0 && !t->below_first_forbidden)
        col = 0;
    return col;
}

const struct ak_crt_effect *ak_crt_table_result(const struct ak_crt_table *t, int column, int modified_roll)
{
    if (column < 0 || column >= t->ncolumns)
        return NULL;
    int r = modified_roll < t->row_min ? t->row_min : modified_roll > t->row_max ? t->row_max : modified_roll;
    return &t->cell[r - t->row_min][column];
}

void ak_crt_effect_format(const struct ak_crt_effect *e, char *buf, int len)
{
    char parts[5][12];
    int n = 0;
    if (e->exchange)
        snprintf(parts[n++], sizeof parts[0], "%s", e->exchange == AK_CRT_EXCHANGE ? "EX" : "HX");
    const struct ak_crt_side_effect *side[2] = {&e->attacker, &e->defender};
    for (int i = 0; i < 2; i++) {
        if (side[i]->loss)
            snprintf(parts[n++], sizeof parts[0], "%cL%d%s", "AD"[i], side[i]->loss, side[i]->loss_percent ? "%" : "");
        if (side[i]->retreat)
            snprintf(parts[n++], sizeof parts[0], "%cR%d", "AD"[i], side[i]->retreat);
    }
    int used = snprintf(buf, (size_t)len, "%s", n ? "" : "-");
    for (int i = 0; i < n && used < len; i++)
        used += snprintf(buf + used, (size_t)(len - used), "%s%s", i ? "/" : "", parts[i]);
}
