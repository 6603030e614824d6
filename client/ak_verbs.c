/* ak_verbs: akc's play verbs, both ways.
 *
 * A verb and its words ("battle 7arm7 trenta asup1") become the action JSON
 * of the protocol; a legal action listed by the server's `options` becomes
 * the akc command line that would send it, so a player can copy it. Kept
 * apart from akc.c, which deals with the connection and the output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_client.h"
#include "ak_dice.h"
#include "ak_notation.h"

json_t *ak_act_request(long long game, json_t *action, const char *nonce)
{
    return json_pack("{s:s,s:I,s:o,s:s}", "cmd", "act", "game", (json_int_t)game, "action", action,
                     "nonce", nonce);
}

json_t *ak_verb_names(const char *list)
{
    json_t *units = json_array();
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ","))
        json_array_append_new(units, json_string(t));
    return units;
}

static json_t *battle_number(const char *kind, const char *word, char *err, int errlen)
{
    char *end;
    long b = strtol(word, &end, 10);
    if (*end || b < 1 || b > AK_BATTLE_MAX) {
        snprintf(err, (size_t)errlen, "battle numbers run from 1 (got '%s')", word);
        return NULL;
    }
    return json_pack("{s:s,s:i}", "action", kind, "battle", (int)b);
}

/* argv[0] is the verb; the game number has been taken off. */
json_t *ak_verb_action(int argc, char **argv, char *err, int errlen)
{
    const char *v = argv[0];
    snprintf(err, (size_t)errlen, "wrong arguments for %s (see akc help)", v);
    if (strcmp(v, "move") == 0 && argc == 3) {
        json_t *a = json_pack("{s:s,s:o}", "action", "move", "units", ak_verb_names(argv[1]));
        json_object_set_new(a, strchr(argv[2], ',') ? "path" : "to",
                            strchr(argv[2], ',') ? ak_verb_names(argv[2]) : json_string(argv[2]));
        return a;
    }
    if (strcmp(v, "place") == 0 && argc == 3)
        return json_pack("{s:s,s:s,s:s}", "action", "place", "unit", argv[1], "at", argv[2]);
    if ((strcmp(v, "embark") == 0 || strcmp(v, "abandon") == 0 || strcmp(v, "exchange") == 0) &&
        argc == 2)
        return json_pack("{s:s,s:o}", "action", v, "units", ak_verb_names(argv[1]));
    if (strcmp(v, "destroy") == 0 && argc == 2)
        return json_pack("{s:s,s:o}", "action", "destroy_supply", "units", ak_verb_names(argv[1]));
    if (strcmp(v, "end-movement") == 0 && argc == 1)
        return json_pack("{s:s}", "action", "end_movement");
    if (strcmp(v, "end-turn") == 0 && argc == 1)
        return json_pack("{s:s}", "action", "end_turn");
    if (strcmp(v, "supply-attacks") == 0 && argc == 2)
        return json_pack("{s:s,s:o}", "action", "supply_attacks", "units", ak_verb_names(argv[1]));
    if (strcmp(v, "losses") == 0 && argc == 3) {
        /* losses REDUCED ELIMINATED, either - for none */
        json_t *a = json_pack("{s:s}", "action", "losses");
        if (strcmp(argv[1], "-") != 0)
            json_object_set_new(a, "reduce", ak_verb_names(argv[1]));
        if (strcmp(argv[2], "-") != 0)
            json_object_set_new(a, "eliminate", ak_verb_names(argv[2]));
        return a;
    }
    if (strcmp(v, "port-move") == 0 && argc == 3) {
        /* port-move UNIT G25|box */
        json_t *a = json_pack("{s:s,s:o}", "action", "port_move", "units", ak_verb_names(argv[1]));
        if (strcmp(argv[2], "box") != 0)
            json_object_set_new(a, "to", json_string(argv[2]));
        return a;
    }
    if (strcmp(v, "fortify") == 0 && argc == 3)
        return json_pack("{s:s,s:o,s:s}", "action", "fortify", "units", ak_verb_names(argv[1]), "supply", argv[2]);
    if (strcmp(v, "break-out") == 0 && argc == 2)
        return json_pack("{s:s,s:s}", "action", "break_out", "at", argv[1]);
    if (strcmp(v, "rebuild") == 0 && argc == 2)
        return json_pack("{s:s,s:o}", "action", "rebuild", "units", ak_verb_names(argv[1]));
    if (strcmp(v, "burn") == 0 && argc == 2)
        return json_pack("{s:s,s:o}", "action", "burn_supply", "units", ak_verb_names(argv[1]));
    if (strcmp(v, "end-phase") == 0 && argc == 1)
        return json_pack("{s:s}", "action", "end_phase");
    if (strcmp(v, "resign") == 0 && argc == 1)
        return json_pack("{s:s}", "action", "resign");
    if (strcmp(v, "battle") == 0 && (argc == 3 || argc == 4)) {
        json_t *a = json_pack("{s:s,s:o,s:o}", "action", "battle", "attackers", ak_verb_names(argv[1]),
                              "defenders", ak_verb_names(argv[2]));
        if (argc == 4)
            json_object_set_new(a, "supply", json_string(argv[3]));
        return a;
    }
    if ((strcmp(v, "cancel") == 0 || strcmp(v, "resolve") == 0) && argc == 2)
        return battle_number(v, argv[1], err, errlen);
    if (strcmp(v, "retreat") == 0 && argc == 3)
        return json_pack("{s:s,s:o,s:o}", "action", "retreat", "units", ak_verb_names(argv[1]), "path",
                         ak_verb_names(argv[2]));
    if (strcmp(v, "advance") == 0 && argc == 1)
        return json_pack("{s:s}", "action", "advance");
    if (strcmp(v, "advance") == 0 && argc == 3)
        return json_pack("{s:s,s:o,s:s}", "action", "advance", "units", ak_verb_names(argv[1]), "to", argv[2]);
    if (strcmp(v, "substitute") == 0 && argc == 3)
        return json_pack("{s:s,s:o,s:o}", "action", "substitute", "out", ak_verb_names(argv[1]), "in",
                         ak_verb_names(argv[2]));
    return NULL;
}

/* The play verbs and the actions they send. */
static const struct {
    const char *verb;
    int kind;
} verb_kinds[] = {
    {"move", AK_ACT_MOVE}, {"place", AK_ACT_PLACE}, {"embark", AK_ACT_EMBARK}, {"abandon", AK_ACT_ABANDON},
    {"exchange", AK_ACT_EXCHANGE}, {"destroy", AK_ACT_DESTROY_SUPPLY}, {"end-movement", AK_ACT_END_MOVEMENT},
    {"end-turn", AK_ACT_END_TURN}, {"end-phase", AK_ACT_END_PHASE}, {"burn", AK_ACT_BURN_SUPPLY},
    {"supply-attacks", AK_ACT_SUPPLY_ATTACKS}, {"losses", AK_ACT_LOSSES}, {"break-out", AK_ACT_BREAK_OUT},
    {"rebuild", AK_ACT_REBUILD}, {"fortify", AK_ACT_FORTIFY}, {"port-move", AK_ACT_PORT_MOVE},
    {"battle", AK_ACT_BATTLE}, {"cancel", AK_ACT_CANCEL}, {"resolve", AK_ACT_RESOLVE}, {"retreat", AK_ACT_RETREAT},
    {"advance", AK_ACT_ADVANCE}, {"substitute", AK_ACT_SUBSTITUTE}, {"resign", AK_ACT_RESIGN},
};

int ak_verb_kind(const char *verb)
{
    for (size_t i = 0; i < sizeof verb_kinds / sizeof verb_kinds[0]; i++)
        if (strcmp(verb, verb_kinds[i].verb) == 0)
            return verb_kinds[i].kind;
    return -1;
}

bool ak_verb_is_action(const char *verb)
{
    return ak_verb_kind(verb) >= 0;
}

const char *ak_verb_of_ruleset(int ruleset, int i)
{
    const struct ak_ruleset *r = ak_ruleset_get(ruleset);
    for (size_t k = 0, seen = 0; k < sizeof verb_kinds / sizeof verb_kinds[0]; k++)
        if (r->apply[verb_kinds[k].kind] && (int)seen++ == i)
            return verb_kinds[k].verb;
    return NULL;
}

static void join_names(const json_t *list, char *buf, size_t cap)
{
    size_t i, len = 0;
    json_t *x;
    buf[0] = '\0';
    json_array_foreach(list, i, x)
        len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0, "%s%s", i ? "," : "",
                                json_string_value(x));
}

void ak_verb_format(long game, const json_t *a, char *buf, size_t cap)
{
    const char *kind = json_string_value(json_object_get(a, "action"));
    char u[256], d[256];
    join_names(json_object_get(a, "units"), u, sizeof u);
    if (!kind) {
        snprintf(buf, cap, "?");
    } else if (strcmp(kind, "battle") == 0) {
        join_names(json_object_get(a, "attackers"), u, sizeof u);
        join_names(json_object_get(a, "defenders"), d, sizeof d);
        const char *sup = json_string_value(json_object_get(a, "supply"));
        snprintf(buf, cap, "akc battle %ld %s %s%s%s", game, u, d, sup ? " " : "", sup ? sup : "");
    } else if (strcmp(kind, "cancel") == 0 || strcmp(kind, "resolve") == 0) {
        snprintf(buf, cap, "akc %s %ld %lld", kind, game,
                 (long long)json_integer_value(json_object_get(a, "battle")));
    } else if (strcmp(kind, "retreat") == 0) {
        join_names(json_object_get(a, "path"), d, sizeof d);
        snprintf(buf, cap, "akc retreat %ld %s %s", game, u, d);
    } else if (strcmp(kind, "advance") == 0) {
        const char *to = json_string_value(json_object_get(a, "to"));
        snprintf(buf, cap, "akc advance %ld%s%s%s%s", game, to ? " " : "", to ? u : "",
                 to ? " " : "", to ? to : "");
    } else if (strcmp(kind, "move") == 0) {
        const char *to = json_string_value(json_object_get(a, "to"));
        join_names(json_object_get(a, "path"), d, sizeof d);
        snprintf(buf, cap, "akc move %ld %s %s", game, u, to ? to : d);
    } else if (strcmp(kind, "port_move") == 0) {
        const char *to = json_string_value(json_object_get(a, "to"));
        snprintf(buf, cap, "akc port-move %ld %s %s", game, u, to ? to : "box");
    } else if (strcmp(kind, "fortify") == 0) {
        snprintf(buf, cap, "akc fortify %ld %s %s", game, u, json_string_value(json_object_get(a, "supply")));
    } else if (strcmp(kind, "break_out") == 0) {
        snprintf(buf, cap, "akc break-out %ld %s", game, json_string_value(json_object_get(a, "at")));
    } else if (strcmp(kind, "place") == 0) {
        snprintf(buf, cap, "akc place %ld %s %s", game, u, json_string_value(json_object_get(a, "at")));
    } else if (strcmp(kind, "losses") == 0) {
        join_names(json_object_get(a, "reduce"), u, sizeof u);
        join_names(json_object_get(a, "eliminate"), d, sizeof d);
        snprintf(buf, cap, "akc losses %ld %s %s", game, u[0] ? u : "-", d[0] ? d : "-");
    } else if (strcmp(kind, "substitute") == 0) {
        join_names(json_object_get(a, "out"), u, sizeof u);
        join_names(json_object_get(a, "in"), d, sizeof d);
        snprintf(buf, cap, "akc substitute %ld %s %s", game, u, d);
    } else {
        const char *verb = strcmp(kind, "end_movement") == 0 ? "end-movement"
                           : strcmp(kind, "end_turn") == 0 ? "end-turn"
                           : strcmp(kind, "end_phase") == 0 ? "end-phase"
                           : strcmp(kind, "burn_supply") == 0 ? "burn"
                           : strcmp(kind, "supply_attacks") == 0 ? "supply-attacks"
                           : strcmp(kind, "break_out") == 0 ? "break-out"
                           : strcmp(kind, "destroy_supply") == 0 ? "destroy" : kind;
        snprintf(buf, cap, "akc %s %ld%s%s", verb, game, u[0] ? " " : "", u);
    }
}

void ak_verb_describe(const json_t *action, char *buf, size_t cap)
{
    char line[600];
    ak_verb_format(0, action, line, sizeof line);
    /* "akc move 0 21pz5 R35" -> "move 21pz5 R35" */
    const char *verb = strncmp(line, "akc ", 4) == 0 ? line + 4 : line;
    const char *game = strchr(verb, ' ');
    const char *rest = game ? strchr(game + 1, ' ') : NULL;
    snprintf(buf, cap, "%.*s%s", (int)(game ? game - verb : (long)strlen(verb)), verb, rest ? rest : "");
}

const char *ak_push_side(const json_t *by)
{
    int side = ak_side_parse(json_string_value(by) ? json_string_value(by) : "");
    return side >= 0 && side < AK_SIDES ? ak_side_name(side) : "?";
}
