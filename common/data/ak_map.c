/* ak_map: parse common/data/map.txt into the per-hex terrain and hexside
 * tables of struct ak_map. */
#include <stdio.h>
#include <string.h>

#include "ak_data.h"

static int terrain_parse(const char *w)
{
    for (int t = AK_TERRAIN_CLEAR; t <= AK_TERRAIN_HOMEBASE; t++)
        if (strcmp(w, ak_terrain_name(t)) == 0)
            return t;
    return -1;
}

static const char *bad(char *err, int errlen, int line, const char *what)
{
    snprintf(err, errlen, "line %d: %s", line, what);
    return err;
}

static const char *parse_side(struct ak_map *m, struct ak_tokens *t, char *err, int errlen)
{
    ak_hex a = ak_hex_parse(t->word[1]), b = ak_hex_parse(t->word[2]);
    int d = ak_hex_dir(a, b);
    if (t->n != 4 || d < 0)
        return bad(err, errlen, t->line, "side needs two neighbouring hexes and a kind");
    int back = ak_hex_dir(b, a);
    if (strcmp(t->word[3], "road") == 0) {
        m->road[a] |= 1u << d;
        m->road[b] |= 1u << back;
        m->road_sides++;
    } else if (strcmp(t->word[3], "water") == 0 || strcmp(t->word[3], "qattara") == 0) {
        m->blocked[a] |= 1u << d;
        m->blocked[b] |= 1u << back;
        if (t->word[3][0] == 'w')
            m->water_sides++;
        else
            m->qattara_sides++;
    } else {
        return bad(err, errlen, t->line, "unknown hexside kind");
    }
    return NULL;
}

static const char *parse_name(struct ak_map *m, struct ak_tokens *t, char *err, int errlen)
{
    ak_hex h = ak_hex_parse(t->word[1]);
    if (t->n < 3 || h == AK_HEX_NONE || m->names >= 16)
        return bad(err, errlen, t->line, "name needs a hex and a text");
    m->name[m->names].hex = h;
    char *text = m->name[m->names].text;
    text[0] = '\0';
    for (int i = 2; i < t->n; i++) {
        if (i > 2)
            strncat(text, " ", 39 - strlen(text));
        strncat(text, t->word[i], 39 - strlen(text));
    }
    m->names++;
    return NULL;
}

static const char *parse_junction(struct ak_map *m, struct ak_tokens *t, char *err, int errlen)
{
    if (t->n != 4 || m->junctions >= AK_JUNCTION_MAX)
        return bad(err, errlen, t->line, "noroad needs three hexes");
    ak_hex a = ak_hex_parse(t->word[1]), b = ak_hex_parse(t->word[2]), c = ak_hex_parse(t->word[3]);
    if (ak_hex_dir(a, b) < 0 || ak_hex_dir(b, c) < 0)
        return bad(err, errlen, t->line, "noroad hexes must be a chain of neighbours");
    m->junction[m->junctions].a = a;
    m->junction[m->junctions].b = b;
    m->junction[m->junctions].c = c;
    m->junctions++;
    m->is_junction[b] = 1;
    return NULL;
}

static void find_landmarks(struct ak_map *m)
{
    m->homebase[AK_AXIS] = m->homebase[AK_ALLIED] = AK_HEX_NONE;
    m->tobruch = m->bengasi = AK_HEX_NONE;
    for (ak_hex h = 0; h < AK_HEX_COUNT; h++) {
        /* The German base is in the west, the Allied one in the east. */
        if (m->terrain[h] == AK_TERRAIN_HOMEBASE)
            m->homebase[ak_hex_num(h) < 30 ? AK_AXIS : AK_ALLIED] = h;
        if (m->terrain[h] == AK_TERRAIN_FORTRESS) {
            if (ak_hex_num(h) < 10)
                m->bengasi = h;
            else
                m->tobruch = h;
        }
    }
}

static bool playable(const struct ak_map *m, ak_hex h)
{
    return h != AK_HEX_NONE && m->terrain[h] != AK_TERRAIN_OFFBOARD &&
           m->terrain[h] != AK_TERRAIN_SEA && m->terrain[h] != AK_TERRAIN_QATTARA;
}

/* open[h] bit d: a unit on h may step to its neighbour d (for the
 * searches, which ask millions of times). */
static void find_open_sides(struct ak_map *m)
{
    for (int d = 0; d < AK_DIRS; d++)
        ak_hexset_clear(&m->open_to[d]);
    ak_hexset_clear(&m->playable);
    for (ak_hex h = 0; h < AK_HEX_COUNT; h++) {
        m->open[h] = 0;
        if (playable(m, h))
            ak_hexset_add(&m->playable, h);
        for (int d = 0; d < AK_DIRS; d++)
            if (playable(m, ak_hex_neighbor(h, d)) && !(m->blocked[h] & (1u << d))) {
                m->open[h] |= (uint8_t)(1u << d);
                ak_hexset_add(&m->open_to[d], h);
            }
    }
}

const char *ak_map_parse(struct ak_map *m, const char *text, char *err, int errlen)
{
    struct ak_tokens t;
    const char *e = NULL;
    memset(m, 0, sizeof *m);
    ak_tokens_init(&t, text);
    while (!e && ak_tokens_next(&t)) {
        if (strcmp(t.word[0], "hex") == 0) {
            ak_hex h = t.n == 3 ? ak_hex_parse(t.word[1]) : AK_HEX_NONE;
            int terrain = t.n == 3 ? terrain_parse(t.word[2]) : -1;
            if (h == AK_HEX_NONE || terrain < 0 || m->terrain[h] != AK_TERRAIN_OFFBOARD)
                return bad(err, errlen, t.line, "hex needs a new coordinate and a terrain");
            m->terrain[h] = (uint8_t)terrain;
            m->hexes++;
        } else if (strcmp(t.word[0], "side") == 0) {
            e = parse_side(m, &t, err, errlen);
        } else if (strcmp(t.word[0], "name") == 0) {
            e = parse_name(m, &t, err, errlen);
        } else if (strcmp(t.word[0], "noroad") == 0) {
            e = parse_junction(m, &t, err, errlen);
        } else {
            return bad(err, errlen, t.line, "unknown record");
        }
    }
    if (!e) {
        find_landmarks(m);
        find_open_sides(m);
    }
    return e;
}
