/* ak_data: one-time parse of the embedded data files, the shared tokenizer
 * and the small name tables. */
#include "ak_data.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern const char ak_data_map_txt[];
extern const char ak_data_units_txt[];
extern const char ak_data_scenario_txt[];
extern const char ak_data_crt_txt[];
extern const char ak_data_updated_txt[];

static struct ak_data data;
static bool loaded;

static void must(const char *what, const char *err)
{
    if (err) {
        fprintf(stderr, "afrika korps data (%s): %s\n", what, err);
        abort();
    }
}

const struct ak_data *ak_data_loaded;

const struct ak_data *ak_data_load(void)
{
    if (loaded)
        return &data;
    char err[200];
    must("map.txt", ak_map_parse(&data.map, ak_data_map_txt, err, sizeof err));
    must("units.txt", ak_units_parse(&data, ak_data_units_txt, err, sizeof err));
    must("scenario-1941.txt", ak_scenario_parse(&data, ak_data_scenario_txt, err, sizeof err));
    must("crt.txt", ak_crt_parse(&data.crt, ak_data_crt_txt, err, sizeof err));
    must("updated-1941.txt", ak_updated_calendar_parse(&data, ak_data_updated_txt, err, sizeof err));
    loaded = true;
    ak_data_loaded = &data;
    return &data;
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

const char *ak_side_name(int side)
{
    return side == AK_AXIS ? "Axis" : side == AK_ALLIED ? "Allied" : "nobody";
}

int ak_side_parse(const char *text)
{
    if (!strcasecmp(text, "axis") || !strcasecmp(text, "german"))
        return AK_AXIS;
    if (!strcasecmp(text, "allied") || !strcasecmp(text, "allies"))
        return AK_ALLIED;
    return -1;
}

static const char *const terrain_names[] = {
    "offboard", "clear", "escarpment", "qattara-partial", "qattara", "sea",
    "fortress", "homebase",
};

const char *ak_terrain_name(int terrain)
{
    if (terrain < 0 || terrain > AK_TERRAIN_HOMEBASE)
        return "?";
    return terrain_names[terrain];
}

static const char *const type_names[] = {
    "armor", "armored_infantry", "infantry", "recce", "supply", "headquarters",
};

const char *ak_type_name(int type)
{
    if (type < 0 || type > AK_TYPE_HEADQUARTERS)
        return "?";
    return type_names[type];
}

void ak_tokens_init(struct ak_tokens *t, const char *text)
{
    memset(t, 0, sizeof *t);
    t->rest = text;
}

bool ak_tokens_next(struct ak_tokens *t)
{
    while (*t->rest) {
        const char *end = strchr(t->rest, '\n');
        size_t len = end ? (size_t)(end - t->rest) : strlen(t->rest);
        t->line++;
        if (len >= sizeof t->buf)
            len = sizeof t->buf - 1;
        memcpy(t->buf, t->rest, len);
        t->buf[len] = '\0';
        t->rest = end ? end + 1 : t->rest + strlen(t->rest);
        const char *first = t->buf + strspn(t->buf, " \t\r");
        if (*first == '#')      /* comments take whole lines only */
            continue;
        t->tail = NULL;
        char *bar = strchr(t->buf, '|');
        if (bar) {
            *bar = '\0';
            t->tail = bar + 1;
            while (isspace((unsigned char)*t->tail))
                t->tail++;
        }
        t->n = 0;
        for (char *w = strtok(t->buf, " \t\r"); w && t->n < AK_WORDS_MAX;
             w = strtok(NULL, " \t\r"))
            t->word[t->n++] = w;
        if (t->n > 0)
            return true;
    }
    return false;
}
