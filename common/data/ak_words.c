/* ak_words: the tokenizer every loader reads its file with (lines of
 * words, whole-line # comments, a free text after |) and the small name
 * tables of sides, terrain and unit types. Below the loaders, so none of
 * them needs another. */
#include "ak_data.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

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
