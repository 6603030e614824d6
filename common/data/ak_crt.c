/* ak_crt: parse common/data/crt.txt, the combat results table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_data.h"

static const char *const result_names[] = {"AE", "AB2", "EX", "DB2", "DE"};

const char *ak_crt_result_name(int result)
{
    return result >= 0 && result < (int)(sizeof result_names / sizeof result_names[0]) ? result_names[result] : "";
}

const char *ak_crt_parse(struct ak_crt *c, const char *text, char *err, int errlen)
{
    struct ak_tokens t;
    int rows = 0;
    bool have_columns = false;
    memset(c, 0, sizeof *c);
    ak_tokens_init(&t, text);
    while (ak_tokens_next(&t)) {
        if (strcmp(t.word[0], "columns") == 0 && t.n == AK_CRT_COLUMNS + 1) {
            for (int i = 0; i < AK_CRT_COLUMNS; i++)
                snprintf(c->column[i], sizeof c->column[i], "%s", t.word[i + 1]);
            have_columns = true;
            continue;
        }
        int roll = t.n == AK_CRT_COLUMNS + 2 ? atoi(t.word[1]) : 0;
        if (strcmp(t.word[0], "roll") != 0 || roll < 1 || roll > 6) {
            snprintf(err, errlen, "line %d: expected columns or roll", t.line);
            return err;
        }
        for (int i = 0; i < AK_CRT_COLUMNS; i++) {
            int r = -1;
            for (int k = 0; k < 5; k++)
                if (strcmp(t.word[i + 2], result_names[k]) == 0)
                    r = k;
            if (r < 0) {
                snprintf(err, errlen, "line %d: unknown result %s", t.line, t.word[i + 2]);
                return err;
            }
            c->result[roll - 1][i] = (uint8_t)r;
        }
        rows++;
    }
    if (!have_columns || rows != 6) {
        snprintf(err, errlen, "the table needs its columns and six rows");
        return err;
    }
    return NULL;
}
