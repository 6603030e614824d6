/* ak_odds_json: the exact chances of the declared battles (ak_odds.h) as
 * JSON, sent by akd beside the hazards so that the page can show its odds
 * panel without an engine of its own (PROTOCOL.md, "odds"). */
#include "ak_notation.h"

#include "ak_battle.h"
#include "ak_engine.h"
#include "ak_odds.h"

static json_t *chance_json(const struct ak_chance *c)
{
    json_t *j = json_pack("{s:f}", "p", c->p);
    if (c->den > 0) {
        json_object_set_new(j, "num", json_integer((json_int_t)c->num));
        json_object_set_new(j, "den", json_integer((json_int_t)c->den));
    }
    return j;
}

static json_t *battle_json(const struct ak_state *s, const struct ak_odds_battle *ob)
{
    char sq[8];
    uint8_t att[AK_GROUP_MAX], def[AK_GROUP_MAX];
    int na, nd;
    ak_battle_sides(s, ob->battle, att, &na, def, &nd);
    json_t *attackers = json_array(), *defenders = json_array(), *results = json_array(), *squares = json_array();
    for (int i = 0; i < na; i++)
        json_array_append_new(attackers, json_string(ak_def(att[i])->shortname));
    for (int i = 0; i < nd; i++)
        json_array_append_new(defenders, json_string(ak_def(def[i])->shortname));
    json_t *j = json_pack("{s:i,s:s,s:o,s:o,s:b}", "battle", ob->battle + 1, "odds", ob->preview.odds,
                          "attackers", attackers, "defenders", defenders, "fightable", ob->fightable);
    if (!ob->fightable) {
        json_object_set_new(j, "why", json_string(ob->why));
        json_decref(results);
        json_decref(squares);
        return j;
    }
    for (int i = 0; i < ob->preview.nresults; i++)
        json_array_append_new(results, json_pack("{s:s,s:i}", "result", ob->preview.result[i].name, "faces",
                                                 ob->preview.result[i].chances));
    for (int h = 0; h < ob->nhex; h++)
        json_array_append_new(squares, json_pack("{s:s,s:i}", "square", ak_hex_format(ob->hex[h], sq), "taken",
                                                 ob->hex_vacated[h]));
    json_object_set_new(j, "faces", json_integer(ob->faces));
    json_object_set_new(j, "results", results);
    json_object_set_new(j, "eliminated", json_integer(ob->eliminated));
    json_object_set_new(j, "taken", json_integer(ob->vacated));
    json_object_set_new(j, "attackers_hit", json_integer(ob->attackers_hit));
    json_object_set_new(j, "attackers_eliminated", json_integer(ob->attackers_eliminated));
    json_object_set_new(j, "squares", squares);
    return j;
}

json_t *ak_odds_to_json(const struct ak_state *s, int max_resolutions)
{
    static struct ak_odds o;
    if (s->phase == AK_PHASE_OVER || s->pending.kind || ak_waiting_for(s) != s->side ||
        ak_battle_odds(s, max_resolutions, &o) == 0)
        return NULL;
    char sq[8];
    json_t *battles = json_array(), *squares = json_array();
    for (int i = 0; i < o.nbattles; i++)
        json_array_append_new(battles, battle_json(s, &o.battle[i]));
    for (int i = 0; i < o.nsquares; i++)
        json_array_append_new(squares, json_pack("{s:s,s:o}", "square", ak_hex_format(o.square[i].hex, sq), "taken",
                                                 chance_json(&o.square[i].taken)));
    json_t *j = json_pack("{s:o,s:o,s:i}", "battles", battles, "squares", squares, "fightable", o.fightable);
    if (o.fightable) {
        json_object_set_new(j, "all_eliminated", chance_json(&o.all_eliminated));
        json_object_set_new(j, "all_taken", chance_json(&o.all_taken));
        json_object_set_new(j, "none_lost", chance_json(&o.none_lost));
    }
    return j;
}
