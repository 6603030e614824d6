/* ak_units: parse common/data/units.txt, the 102 counters; their steps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ak_data.h"

static int type_parse(const char *w)
{
    for (int t = AK_TYPE_ARMOR; t <= AK_TYPE_HEADQUARTERS; t++)
        if (strcmp(w, ak_type_name(t)) == 0)
            return t;
    return -1;
}

static int factor(const char *w)
{
    char *end;
    long v = strtol(w, &end, 10);
    return (*end || v < 0 || v > 99) ? -1 : (int)v;
}

static bool exists(const struct ak_data *d, const char *name)
{
    for (int i = 0; i < d->units; i++)
        if (strcmp(d->unit[i].shortname, name) == 0)
            return true;
    return false;
}

const char *ak_units_parse(struct ak_data *d, const char *text, char *err, int errlen)
{
    struct ak_tokens t;
    ak_tokens_init(&t, text);
    d->units = 0;
    while (ak_tokens_next(&t)) {
        struct ak_unit_def *u = &d->unit[d->units];
        int side = t.n == 8 ? ak_side_parse(t.word[1]) : -1;
        int type = t.n == 8 ? type_parse(t.word[3]) : -1;
        int a = t.n == 8 ? factor(t.word[4]) : -1;
        int df = t.n == 8 ? factor(t.word[5]) : -1;
        int mv = t.n == 8 ? factor(t.word[6]) : -1;
        if (side < 0 || type < 0 || a < 0 || df < 0 || mv < 0 || !t.tail ||
            strlen(t.word[0]) >= sizeof u->shortname || d->units >= AK_UNIT_MAX ||
            exists(d, t.word[0])) {
            snprintf(err, errlen, "line %d: bad or duplicate counter", t.line);
            return err;
        }
        memset(u, 0, sizeof *u);
        snprintf(u->shortname, sizeof u->shortname, "%s", t.word[0]);
        snprintf(u->counter, sizeof u->counter, "%s", t.tail);
        snprintf(u->nationality, sizeof u->nationality, "%s", t.word[2]);
        u->side = (uint8_t)side;
        u->type = (uint8_t)type;
        u->attack = (uint8_t)a;
        u->defense = (uint8_t)df;
        u->movement = (uint8_t)mv;
        u->substitute = strcmp(t.word[7], "sub") == 0;
        u->captured_counter = strcmp(t.word[7], "cap") == 0;
        d->units++;
    }
    return NULL;
}

int ak_steps_of(int attack)
{
    return attack <= 2 ? 1 : 2;
}

int ak_reduced_factor(int factor)
{
    return (factor + 1) / 2;
}

int ak_unit_find(const struct ak_data *d, const char *name)
{
    size_t len = strlen(name);
    int found = AK_UNIT_NONE;
    if (len == 0)
        return AK_UNIT_NONE;
    for (int i = 0; i < d->units; i++) {
        if (strcasecmp(d->unit[i].shortname, name) == 0)
            return i;
        if (strncasecmp(d->unit[i].shortname, name, len) == 0)
            found = (found == AK_UNIT_NONE) ? i : -2;
    }
    return found;
}
