/* ak_updated_calendar: parse common/data/updated-1941.txt, the Updated
 * ruleset's monthly schedule (replacement points, the Axis convoy DRM),
 * onto the turns of the 1941 campaign: a month is the turns whose date
 * ends in "MONTH YEAR", and its first turn is where points arrive. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_data.h"

/* The first turn of "MONTH YEAR" in the campaign, or 0. */
static int month_turn(const struct ak_scenario *sc, const char *month, const char *year)
{
    char want[40];
    snprintf(want, sizeof want, "%s %s", month, year);
    for (int t = 1; t <= sc->turns; t++) {
        const char *space = strchr(sc->date[t], ' ');
        if (space && strcmp(space + 1, want) == 0)
            return t;
    }
    return 0;
}

static int last_turn_of(const struct ak_scenario *sc, int first)
{
    int t = first;
    const char *month = strchr(sc->date[first], ' ');
    while (t + 1 <= sc->turns && strcmp(strchr(sc->date[t + 1], ' '), month) == 0)
        t++;
    return t;
}

static int points_value(const char *w)
{
    char *end;
    long v = strtol(w, &end, 10);
    return *end || v < 0 || v > 9 ? -1 : (int)v;
}

const char *ak_updated_calendar_parse(struct ak_data *d, const char *text, char *err, int errlen)
{
    struct ak_updated_calendar *c = &d->updated;
    const struct ak_scenario *sc = &d->scenario;
    struct ak_tokens t;
    bool listed[AK_TURNS_MAX + 1] = {false};
    memset(c, 0, sizeof *c);
    for (int turn = 1; turn <= sc->turns; turn++) {
        const char *a = strchr(sc->date[turn], ' '), *b = turn > 1 ? strchr(sc->date[turn - 1], ' ') : NULL;
        c->month_start[turn] = a && (!b || strcmp(a, b) != 0);
    }
    ak_tokens_init(&t, text);
    while (ak_tokens_next(&t)) {
        if (strcmp(t.word[0], "points") == 0 && t.n == 7) {
            int turn = month_turn(sc, t.word[1], t.word[2]);
            int v[4];
            for (int i = 0; i < 4; i++)
                v[i] = points_value(t.word[3 + i]);
            if (turn == 0 || listed[turn] || v[0] < 0 || v[1] < 0 || v[2] < 0 || v[3] < 0) {
                snprintf(err, errlen, "line %d: points MONTH YEAR and four figures 0-9, once for each month of the campaign", t.line);
                return err;
            }
            listed[turn] = true;
            for (int i = 0; i < 4; i++)
                c->points[turn][i / 2][i % 2] = (uint8_t)v[i];
        } else if (strcmp(t.word[0], "axis-convoy-drm") == 0 && t.n == 5) {
            int first = month_turn(sc, t.word[1], t.word[2]), last = month_turn(sc, t.word[3], t.word[4]);
            if (first == 0 || last == 0 || last < first) {
                snprintf(err, errlen, "line %d: axis-convoy-drm FIRST-MONTH YEAR LAST-MONTH YEAR within the campaign", t.line);
                return err;
            }
            c->convoy_drm_first = first;
            c->convoy_drm_last = last_turn_of(sc, last);
        } else if (strcmp(t.word[0], "entry") == 0 && t.n >= 3 && t.n <= 6 && ak_side_parse(t.word[1]) >= 0) {
            int side = ak_side_parse(t.word[1]);
            for (int i = 2; i < t.n; i++) {
                ak_hex h = ak_hex_parse(t.word[i]);
                if (h == AK_HEX_NONE || d->map.terrain[h] == AK_TERRAIN_OFFBOARD || d->map.terrain[h] == AK_TERRAIN_SEA ||
                    d->map.terrain[h] == AK_TERRAIN_QATTARA || c->nentries[side] >= AK_ENTRY_MAX) {
                    snprintf(err, errlen, "line %d: entry SIDE SQUARE...: squares a unit may stand on", t.line);
                    return err;
                }
                c->entry[side][c->nentries[side]++] = h;
            }
        } else {
            snprintf(err, errlen, "line %d: unknown line", t.line);
            return err;
        }
    }
    for (int side = 0; side < AK_SIDES; side++)
        if (c->nentries[side] == 0) {
            snprintf(err, errlen, "no entry square for the %s side", ak_side_name(side));
            return err;
        }
    for (int turn = 1; turn <= sc->turns; turn++)
        if (c->month_start[turn] && !listed[turn]) {
            snprintf(err, errlen, "no points line for %s", strchr(sc->date[turn], ' ') + 1);
            return err;
        }
    return NULL;
}
