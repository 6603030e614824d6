/* ak_scenario: parse common/data/scenario-1941.txt, the campaign game's
 * turn record, opening situation, order of appearance and schedules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_data.h"

static int number(const char *w, int lo, int hi)
{
    char *end;
    long v = strtol(w, &end, 10);
    return (*end || v < lo || v > hi) ? -1 : (int)v;
}

static const char *bad(char *err, int errlen, int line, const char *what)
{
    snprintf(err, errlen, "line %d: %s", line, what);
    return err;
}

static const char *parse_turn(struct ak_scenario *s, struct ak_tokens *t)
{
    int n = t->n >= 3 ? number(t->word[1], 1, AK_TURNS_MAX) : -1;
    if (n < 0 || n != s->turns + 1)
        return "turns must be numbered 1, 2, 3...";
    char *date = s->date[n];
    date[0] = '\0';
    for (int i = 2; i < t->n; i++) {
        if (i > 2)
            strncat(date, " ", 19 - strlen(date));
        strncat(date, t->word[i], 19 - strlen(date));
    }
    s->turns = n;
    return NULL;
}

static const char *parse_setup(struct ak_data *d, struct ak_tokens *t)
{
    struct ak_scenario *s = &d->scenario;
    int u = t->n == 3 ? ak_unit_find(d, t->word[1]) : AK_UNIT_NONE;
    ak_hex h = t->n == 3 ? ak_hex_parse(t->word[2]) : AK_HEX_NONE;
    if (u < 0 || u == AK_UNIT_NONE || h == AK_HEX_NONE || s->setups >= AK_SETUP_MAX)
        return "setup needs a known unit and a hex";
    s->setup[s->setups].unit = (uint8_t)u;
    s->setup[s->setups].hex = h;
    s->setups++;
    return NULL;
}

static const char *parse_arrive(struct ak_data *d, struct ak_tokens *t)
{
    int turn = t->n >= 3 ? number(t->word[1], 1, AK_TURNS_MAX) : -1;
    if (turn < 0)
        return "arrive needs a turn and units";
    for (int i = 2; i < t->n; i++) {
        int u = ak_unit_find(d, t->word[i]);
        if (u < 0 || u == AK_UNIT_NONE || strcmp(d->unit[u].shortname, t->word[i]) != 0)
            return "arrive names an unknown unit";
        d->unit[u].arrival_turn = (uint8_t)turn;
    }
    return NULL;
}

static const char *parse_supply(struct ak_scenario *s, struct ak_tokens *t)
{
    int side = t->n >= 4 ? ak_side_parse(t->word[1]) : -1;
    if (side < 0)
        return "supply needs a side";
    if (strcmp(t->word[2], "max") == 0) {
        s->supply_max[side] = number(t->word[3], 0, 9);
    } else if (strcmp(t->word[2], "per-turn") == 0) {
        s->supply_per_turn[side] = number(t->word[3], 0, 9);
    } else if (strcmp(t->word[2], "roll") == 0 && t->n >= 5) {
        int from = number(t->word[3], 1, AK_TURNS_MAX), to = number(t->word[4], 1, AK_TURNS_MAX);
        if (from < 0 || to < from)
            return "supply roll needs a turn range";
        for (int i = 5; i < t->n; i++) {
            int r = number(t->word[i], 1, 6);
            if (r < 0)
                return "supply roll results are die rolls 1-6";
            for (int turn = from; turn <= to; turn++)
                s->sunk[turn] |= (uint8_t)(1u << r);
        }
    } else {
        return "unknown supply record";
    }
    return NULL;
}

const char *ak_scenario_parse(struct ak_data *d, const char *text, char *err, int errlen)
{
    struct ak_scenario *s = &d->scenario;
    struct ak_tokens t;
    memset(s, 0, sizeof *s);
    ak_tokens_init(&t, text);
    while (ak_tokens_next(&t)) {
        const char *e = NULL;
        const char *w = t.word[0];
        if (strcmp(w, "turn") == 0)
            e = parse_turn(s, &t);
        else if (strcmp(w, "setup") == 0)
            e = parse_setup(d, &t);
        else if (strcmp(w, "arrive") == 0)
            e = parse_arrive(d, &t);
        else if (strcmp(w, "supply") == 0)
            e = parse_supply(s, &t);
        else if (strcmp(w, "replace") == 0 && t.n == 5 && ak_side_parse(t.word[2]) >= 0) {
            int side = ak_side_parse(t.word[2]);
            s->replace_from = number(t.word[1], 1, AK_TURNS_MAX);
            s->replace_rate[side][0] = number(t.word[3], 0, 9);
            s->replace_rate[side][1] = number(t.word[4], 0, 9);
        } else if (strcmp(w, "substitute") == 0 && t.n == 2)
            s->substitute_from = number(t.word[1], 1, AK_TURNS_MAX);
        else
            e = "unknown record";
        if (e)
            return bad(err, errlen, t.line, e);
    }
    if (s->turns != AK_TURNS_MAX || s->replace_from < 0 || s->substitute_from < 0)
        return bad(err, errlen, t.line, "incomplete scenario");
    return NULL;
}
