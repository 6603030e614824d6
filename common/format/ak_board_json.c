/* ak_board_json: the board as data for a client that draws it (the
 * browser client; the `map` command): every playable square with its
 * terrain, the hexsides the Coast Road crosses and those no unit crosses
 * (water, Qattara), the names printed on the map, the home bases and
 * fortresses, and the counters with their factors. The grid is axial
 * (ak_hex.h): a client places square (row, number) itself, and the
 * neighbour steps are given so that it need not know them. With them the
 * campaign's charts, as the printed game has them beside the map: the
 * turn track's dates, each counter's turn of arrival, the supply table
 * (how many, and which Axis rolls are SUNK each turn), replacements, and
 * the 1964 combat results table (a game of a ruleset fought on its own
 * table carries that table itself). Pure data: the same answer for the
 * whole life of the process. */
#include "ak_notation.h"

#include "ak_data.h"

static json_t *hexsides(const uint8_t *bits)
{
    json_t *list = json_array();
    char a[8], b[8];
    for (ak_hex h = 0; h < AK_HEX_COUNT; h++)
        for (int d = 0; d < AK_DIRS; d++) {
            ak_hex n = ak_hex_neighbor(h, d);
            /* each side once: from the square with the smaller index */
            if ((bits[h] & (1u << d)) && n != AK_HEX_NONE && n > h)
                json_array_append_new(list, json_pack("[s,s]", ak_hex_format(h, a), ak_hex_format(n, b)));
        }
    return list;
}

static json_t *squares(const struct ak_map *m)
{
    json_t *list = json_array();
    char t[8];
    for (ak_hex h = 0; h < AK_HEX_COUNT; h++)
        if (m->terrain[h] != AK_TERRAIN_OFFBOARD)
            json_array_append_new(list, json_pack("{s:s,s:i,s:i,s:s}", "hex", ak_hex_format(h, t), "row",
                                                  ak_hex_row(h), "number", ak_hex_num(h), "terrain",
                                                  ak_terrain_name(m->terrain[h])));
    return list;
}

static json_t *counters(const struct ak_data *d)
{
    json_t *list = json_array();
    for (int u = 0; u < d->units; u++) {
        const struct ak_unit_def *x = &d->unit[u];
        json_array_append_new(list, json_pack("{s:s,s:s,s:s,s:s,s:s,s:i,s:i,s:i,s:b}", "unit", x->shortname,
                                              "counter", x->counter, "nationality", x->nationality, "side",
                                              x->side == AK_AXIS ? "axis" : "allied", "type",
                                              ak_type_name(x->type), "attack", x->attack, "defense", x->defense,
                                              "movement", x->movement, "substitute", x->substitute));
        json_object_set_new(json_array_get(list, json_array_size(list) - 1), "arrives", json_integer(x->arrival_turn));
    }
    return list;
}

static json_t *calendar(const struct ak_scenario *sc)
{
    json_t *list = json_array();
    for (int t = 1; t <= sc->turns; t++)
        json_array_append_new(list, json_pack("{s:i,s:s}", "turn", t, "date", sc->date[t]));
    return list;
}

/* Per turn, the Axis supply rolls that are SUNK (none: the turn is left out). */
static json_t *supply_table(const struct ak_scenario *sc)
{
    json_t *sunk = json_array();
    for (int t = 1; t <= sc->turns; t++) {
        if (!sc->sunk[t])
            continue;
        json_t *rolls = json_array();
        for (int r = 1; r <= 6; r++)
            if (sc->sunk[t] & (1u << r))
                json_array_append_new(rolls, json_integer(r));
        json_array_append_new(sunk, json_pack("{s:i,s:o}", "turn", t, "rolls", rolls));
    }
    return json_pack("{s:{s:i,s:i},s:{s:i,s:i},s:o,s:i,s:{s:[i,i],s:[i,i]}}",
                     "max", "axis", sc->supply_max[AK_AXIS], "allied", sc->supply_max[AK_ALLIED],
                     "per_turn", "axis", sc->supply_per_turn[AK_AXIS], "allied", sc->supply_per_turn[AK_ALLIED],
                     "sunk", sunk, "replacements_from", sc->replace_from,
                     "replacements", "axis", sc->replace_rate[AK_AXIS][0], sc->replace_rate[AK_AXIS][1],
                     "allied", sc->replace_rate[AK_ALLIED][0], sc->replace_rate[AK_ALLIED][1]);
}

static json_t *crt_1964(const struct ak_crt *crt)
{
    json_t *columns = json_array(), *rows = json_array();
    for (int c = 0; c < AK_CRT_COLUMNS; c++)
        json_array_append_new(columns, json_string(crt->column[c]));
    for (int r = 0; r < 6; r++) {
        json_t *row = json_array();
        for (int c = 0; c < AK_CRT_COLUMNS; c++)
            json_array_append_new(row, json_string(ak_crt_result_name(crt->result[r][c])));
        json_array_append_new(rows, row);
    }
    return json_pack("{s:o,s:o}", "columns", columns, "rolls", rows);
}

json_t *ak_board_to_json(void)
{
    const struct ak_data *d = ak_data();
    const struct ak_map *m = &d->map;
    char a[8], axis[8], allied[8], tobruch[8], bengasi[8];    /* one buffer per text: all are read at once */
    json_t *steps = json_array(), *names = json_array();
    for (int dir = 0; dir < AK_DIRS; dir++)
        json_array_append_new(steps, json_pack("[i,i]", ak_hex_drow[dir], ak_hex_dnum[dir]));
    for (int i = 0; i < m->names; i++)
        json_array_append_new(names, json_pack("{s:s,s:s}", "hex", ak_hex_format(m->name[i].hex, a), "name",
                                               m->name[i].text));
    return json_pack("{s:{s:i,s:i,s:o},s:o,s:o,s:o,s:o,s:{s:s,s:s},s:[s,s],s:o,s:o,s:o,s:o}",
                     "grid", "rows", AK_ROWS, "numbers", AK_NUMS, "neighbour_steps", steps,
                     "squares", squares(m), "road", hexsides(m->road), "blocked", hexsides(m->blocked),
                     "names", names, "home_bases", "axis", ak_hex_format(m->homebase[AK_AXIS], axis), "allied",
                     ak_hex_format(m->homebase[AK_ALLIED], allied), "fortresses", ak_hex_format(m->tobruch, tobruch),
                     ak_hex_format(m->bengasi, bengasi), "counters", counters(d), "calendar",
                     calendar(&d->scenario), "supply", supply_table(&d->scenario), "crt_1964", crt_1964(&d->crt));
}
