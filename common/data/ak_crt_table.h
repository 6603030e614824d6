/* ak_crt_table: a combat results table read from a data file at run
 * time, in the format of docs/crt-format.md: odds columns, a modified die
 * range with clamping, and cells of loss requirements (in strength points
 * or a percentage of the weaker side's strength, for either side),
 * retreats and exchanges.
 *
 * It is the Updated Afrika Korps ruleset's table (seed 003, NEW COMBAT
 * SYSTEM 1): the seed shows it only as an image that is not in any public
 * material this project can reach, so its cells are not invented here.
 * The operator enters the published table in a file (akd's updated_crt),
 * which is parsed and validated whole before anything uses it; every
 * error names its line. Pure: text in, a table out; no files. */
#ifndef AK_CRT_TABLE_H
#define AK_CRT_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#define AK_CRT_TABLE_COLUMNS 16
#define AK_CRT_TABLE_ROWS 24
#define AK_CRT_TABLE_NAME 120

/* One side's part of a result. */
struct ak_crt_side_effect {
    uint8_t loss;           /* the loss requirement ... */
    bool loss_percent;      /* ... in percent of the weaker side's strength, else in strength points */
    uint8_t retreat;        /* hexes to retreat, 0: none */
};

/* What one cell says. */
struct ak_crt_effect {
    struct ak_crt_side_effect attacker, defender;
    enum { AK_CRT_NO_EXCHANGE, AK_CRT_EXCHANGE, AK_CRT_HALF_EXCHANGE } exchange;
};

struct ak_crt_table {
    char name[AK_CRT_TABLE_NAME];
    int ncolumns;
    struct { uint8_t attack, defense; } odds[AK_CRT_TABLE_COLUMNS];     /* 1-4 ... 9-1, rising */
    bool attacker_counts[AK_CRT_TABLE_COLUMNS];     /* losses in the attacker's strength (else the defender's) */
    bool below_first_forbidden;     /* odds under the first column: no attack, else read as the first */
    int die_min, die_max;           /* the die itself */
    int row_min, row_max;           /* modified rolls: outside, clamped to these */
    struct ak_crt_effect cell[AK_CRT_TABLE_ROWS][AK_CRT_TABLE_COLUMNS];
};

/* Parse and validate text; NULL on success, else err ("line N: ...").
 * Nothing of a bad table is kept: *t is left zeroed. */
const char *ak_crt_table_parse(struct ak_crt_table *t, const char *text, char *err, int errlen);

/* The column for attack against defense strength: the highest column whose
 * odds do not exceed them (odds are rounded in the defender's favour); -1
 * below the first when the table forbids such attacks. */
int ak_crt_table_column(const struct ak_crt_table *t, int attack, int defense);

/* The result of a modified roll (clamped to the table's rows) in column. */
const struct ak_crt_effect *ak_crt_table_result(const struct ak_crt_table *t, int column, int modified_roll);

/* A cell in the file's notation ("DL2/DR2"), for messages and tests. */
void ak_crt_effect_format(const struct ak_crt_effect *e, char *buf, int len);

#endif
