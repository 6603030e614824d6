/* ak_notation: JSON spelling of actions, state and events. */
#include "ak_notation.h"

#include "ak_hazards.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ak_battle.h"
#include "ak_patch.h"
#include "ak_updated.h"
#include "ak_victory.h"

static const char *const crt_names[] = {"AE", "AB2", "EX", "DB2", "DE"};
static const char *const pending_names[] = {"none", "retreat", "exchange", "advance", "losses"};

static const char *const kind_names[AK_ACT_KINDS] = {
    "move", "place", "embark", "end_movement", "destroy_supply", "end_turn",
    "battle", "cancel", "abandon", "resolve", "retreat", "exchange", "advance", "substitute",
    "resign", "timeout", "adjudicate", "end_phase", "burn_supply", "supply_attacks", "losses", "rebuild", "break_out",
    "fortify", "port_move",
};

const char *ak_action_kind_name(int kind)
{
    return kind >= 0 && kind < AK_ACT_KINDS ? kind_names[kind] : "?";
}

const char *ak_phase_name(int phase)
{
    static const char *const n[] = {"movement", "combat", "over", "mech", "supply", "replacement"};
    return phase >= 0 && phase < AK_PHASES ? n[phase] : "?";
}

const char *ak_where_name(int where)
{
    static const char *const n[] = {"pool", "board", "sea", "dead", "withdrawn"};
    return where >= 0 && where <= AK_AT_WITHDRAWN ? n[where] : "?";
}

const char *ak_result_name(int result)
{
    static const char *const n[] = {"none", "axis_wins", "allied_wins", "draw"};
    return result >= 0 && result <= AK_RESULT_DRAW ? n[result] : "?";
}

static bool fail(char *err, int errlen, const char *fmt, const char *arg)
{
    snprintf(err, errlen, fmt, arg);
    return false;
}

static bool unit_of(const json_t *j, uint8_t *out, char *err, int errlen)
{
    if (!json_is_string(j))
        return fail(err, errlen, "%s", "unit names are strings");
    int u = ak_unit_find(ak_data(), json_string_value(j));
    if (u == -2) {
        /* Name the candidates, so the player can pick one. */
        const char *name = json_string_value(j);
        int at = snprintf(err, errlen, "ambiguous unit name '%.40s': ", name), shown = 0;
        for (int i = 0; i < ak_data()->units && at > 0 && at < errlen; i++)
            if (strncasecmp(ak_data()->unit[i].shortname, name, strlen(name)) == 0) {
                at += shown++ < 8 ? snprintf(err + at, (size_t)(errlen - at), "%s%s", shown > 1 ? ", " : "",
                                             ak_data()->unit[i].shortname)
                                  : shown == 9 ? snprintf(err + at, (size_t)(errlen - at), " ...") : 0;
            }
        return false;
    }
    if (u == AK_UNIT_NONE)
        return fail(err, errlen, "unknown unit '%s'", json_string_value(j));
    *out = (uint8_t)u;
    return true;
}

static bool hex_of(const json_t *j, ak_hex *out, char *err, int errlen)
{
    if (!json_is_string(j))
        return fail(err, errlen, "%s", "squares are strings such as \"W6\"");
    *out = ak_hex_parse(json_string_value(j));
    if (*out == AK_HEX_NONE)
        return fail(err, errlen, "'%s' is not a square of the map", json_string_value(j));
    return true;
}

static bool units_of(const json_t *j, struct ak_action *a, char *err, int errlen)
{
    const json_t *list = json_object_get(j, "units");
    const json_t *one = json_object_get(j, "unit");
    if (one && !list)
        return (a->nunits = 1), unit_of(one, &a->units[0], err, errlen);
    if (!json_is_array(list) || json_array_size(list) < 1 || json_array_size(list) > AK_GROUP_MAX)
        return fail(err, errlen, "%s", "\"units\" must be a list of 1 to 24 unit names");
    a->nunits = (uint8_t)json_array_size(list);
    for (size_t i = 0; i < json_array_size(list); i++)
        if (!unit_of(json_array_get(list, i), &a->units[i], err, errlen))
            return false;
    return true;
}

/* Append the unit names of list `key` (which may be absent if optional). */
static bool append_units(const json_t *j, const char *key, bool optional, struct ak_action *a,
                         char *err, int errlen)
{
    const json_t *list = json_object_get(j, key);
    if (optional && (!list || (json_is_array(list) && json_array_size(list) == 0)))
        return true;    /* an optional list may be left out or empty */
    if (!json_is_array(list) || json_array_size(list) < 1 ||
        a->nunits + json_array_size(list) > AK_GROUP_MAX) {
        snprintf(err, errlen, "\"%s\" must be a list of unit names (at most %d units in all)", key,
                 AK_GROUP_MAX);
        return false;
    }
    for (size_t i = 0; i < json_array_size(list); i++)
        if (!unit_of(json_array_get(list, i), &a->units[a->nunits++], err, errlen))
            return false;
    return true;
}

static bool battle_of(const json_t *j, struct ak_action *a, char *err, int errlen)
{
    json_int_t b = json_integer_value(json_object_get(j, "battle"));
    if (!json_is_integer(json_object_get(j, "battle")) || b < 1 || b > AK_BATTLE_MAX)
        return fail(err, errlen, "%s", "\"battle\" is a battle number from 1");
    a->battle = (uint8_t)(b - 1);
    return true;
}

static bool path_of(const json_t *j, struct ak_action *a, char *err, int errlen)
{
    const json_t *path = json_object_get(j, "path");
    if (!json_is_array(path) || json_array_size(path) < 1 || json_array_size(path) > AK_PATH_MAX)
        return fail(err, errlen, "%s", "\"path\" must list 1 to 48 squares");
    a->npath = (uint8_t)json_array_size(path);
    for (size_t i = 0; i < json_array_size(path); i++)
        if (!hex_of(json_array_get(path, i), &a->path[i], err, errlen))
            return false;
    return true;
}

static bool combat_action_from_json(const json_t *j, struct ak_action *a, char *err, int errlen)
{
    switch (a->kind) {
    case AK_ACT_BATTLE: {
        if (!append_units(j, "attackers", false, a, err, errlen))
            return false;
        int nattackers = a->nunits;
        if (!append_units(j, "defenders", false, a, err, errlen))
            return false;
        /* Each list is one side's: the sender's units attack, the enemy's
         * defend (the action keeps them in one list, split by side). */
        for (int i = 0; i < a->nunits; i++)
            if ((ak_def(a->units[i])->side == a->side) != (i < nattackers)) {
                snprintf(err, errlen, "%s is %s", ak_def(a->units[i])->shortname,
                         i < nattackers ? "not your unit: it cannot attack" : "your own unit: it cannot defend");
                return false;
            }
        const json_t *sup = json_object_get(j, "supply");
        return !sup || json_is_null(sup) || unit_of(sup, &a->supply, err, errlen);
    }
    case AK_ACT_CANCEL:
    case AK_ACT_RESOLVE:
        return battle_of(j, a, err, errlen);
    case AK_ACT_RETREAT:
        return units_of(j, a, err, errlen) && path_of(j, a, err, errlen);
    case AK_ACT_ADVANCE:
        if (!json_object_get(j, "units") && !json_object_get(j, "unit"))
            return true;    /* declined */
        return units_of(j, a, err, errlen) && hex_of(json_object_get(j, "to"), &a->hex, err, errlen);
    case AK_ACT_SUBSTITUTE:
        return append_units(j, "out", false, a, err, errlen) &&
               append_units(j, "in", false, a, err, errlen);
    default:    /* abandon, exchange */
        return units_of(j, a, err, errlen);
    }
}

bool ak_action_from_json(const json_t *j, int side, struct ak_action *a, char *err, int errlen)
{
    memset(a, 0, sizeof *a);
    a->side = (uint8_t)side;
    a->hex = AK_HEX_NONE;
    a->supply = AK_UNIT_NONE;
    const char *kind = json_string_value(json_object_get(j, "action"));
    if (!json_is_object(j) || !kind)
        return fail(err, errlen, "%s", "an action is an object with an \"action\" name");
    a->kind = AK_ACT_KINDS;
    for (int k = 0; k < AK_ACT_KINDS; k++)
        if (strcmp(kind, kind_names[k]) == 0)
            a->kind = (uint8_t)k;
    switch (a->kind) {
    case AK_ACT_MOVE: {
        if (!units_of(j, a, err, errlen))
            return false;
        const json_t *to = json_object_get(j, "to"), *path = json_object_get(j, "path");
        if (!to && !path)
            return fail(err, errlen, "%s", "a move needs \"to\" or \"path\"");
        if (to && !hex_of(to, &a->hex, err, errlen))
            return false;
        return !path || path_of(j, a, err, errlen);
    }
    case AK_ACT_PLACE:      /* "at": a square, or "box": the side's off-board box (Updated) */
        if (json_is_string(json_object_get(j, "at")) && strcmp(json_string_value(json_object_get(j, "at")), "box") == 0)
            return units_of(j, a, err, errlen);
        return units_of(j, a, err, errlen) && hex_of(json_object_get(j, "at"), &a->hex, err, errlen);
    case AK_ACT_BREAK_OUT:
        return hex_of(json_object_get(j, "at"), &a->hex, err, errlen);
    case AK_ACT_FORTIFY:
        if (!json_object_get(j, "supply"))
            return fail(err, errlen, "%s", "fortify names the supply unit it spends (\"supply\")");
        return units_of(j, a, err, errlen) && unit_of(json_object_get(j, "supply"), &a->supply, err, errlen);
    case AK_ACT_PORT_MOVE:     /* without "to": into the side's off-board box */
        return units_of(j, a, err, errlen) &&
               (!json_object_get(j, "to") || hex_of(json_object_get(j, "to"), &a->hex, err, errlen));
    case AK_ACT_EMBARK:
    case AK_ACT_DESTROY_SUPPLY:
    case AK_ACT_BURN_SUPPLY:
    case AK_ACT_SUPPLY_ATTACKS:
    case AK_ACT_REBUILD:
        return units_of(j, a, err, errlen);
    case AK_ACT_LOSSES:
        if (!append_units(j, "reduce", true, a, err, errlen))
            return false;
        a->nreduce = a->nunits;
        return append_units(j, "eliminate", true, a, err, errlen);
    case AK_ACT_END_MOVEMENT:
    case AK_ACT_END_PHASE:
    case AK_ACT_END_TURN:
    case AK_ACT_RESIGN:
    case AK_ACT_TIMEOUT:
        return true;
    case AK_ACT_ADJUDICATE: {
        /* the result is the action's side: the winner, or nobody (a draw) */
        const char *r = json_string_value(json_object_get(j, "result"));
        int who = !r ? -1 : strcmp(r, "draw") == 0 ? AK_NOBODY : ak_side_parse(r);
        if (who < 0 || who > AK_NOBODY || (who == AK_NOBODY && strcmp(r, "draw") != 0))
            return fail(err, errlen, "%s", "an adjudication's \"result\" is axis, allied or draw");
        a->side = (uint8_t)who;
        return true;
    }
    case AK_ACT_KINDS:
        return fail(err, errlen, "unknown action '%s'", kind);
    default:
        return combat_action_from_json(j, a, err, errlen);
    }
}

static json_t *hex_json(ak_hex h)
{
    char b[8];
    return h == AK_HEX_NONE ? json_null() : json_string(ak_hex_format(h, b));
}

static json_t *names_json(const struct ak_action *a, int side, bool on_board_split,
                          const struct ak_state *s, bool on_board)
{
    json_t *list = json_array();
    for (int i = 0; i < a->nunits; i++) {
        int u = a->units[i];
        bool take = on_board_split ? (s->unit[u].where == AK_AT_BOARD) == on_board
                                   : ak_def(u)->side == side;
        if (take)
            json_array_append_new(list, json_string(ak_def(u)->shortname));
    }
    return list;
}

json_t *ak_action_to_json_in(const struct ak_action *a, const struct ak_state *s)
{
    json_t *j = json_pack("{s:s}", "action", ak_action_kind_name(a->kind));
    if (a->kind == AK_ACT_ADJUDICATE) {
        json_object_set_new(j, "result", json_string(a->side == AK_NOBODY ? "draw" : a->side == AK_AXIS ? "axis" : "allied"));
        return j;
    }
    if (a->kind == AK_ACT_FORTIFY && a->supply != AK_UNIT_NONE)
        json_object_set_new(j, "supply", json_string(ak_def(a->supply)->shortname));
    if (a->kind == AK_ACT_BATTLE) {
        json_object_set_new(j, "attackers", names_json(a, a->side, false, NULL, false));
        json_object_set_new(j, "defenders", names_json(a, !a->side, false, NULL, false));
        if (a->supply != AK_UNIT_NONE)
            json_object_set_new(j, "supply", json_string(ak_def(a->supply)->shortname));
        return j;
    }
    if (a->kind == AK_ACT_SUBSTITUTE && s) {
        json_object_set_new(j, "out", names_json(a, 0, true, s, true));
        json_object_set_new(j, "in", names_json(a, 0, true, s, false));
        return j;
    }
    if (a->kind == AK_ACT_LOSSES) {
        json_t *reduce = json_array(), *eliminate = json_array();
        for (int i = 0; i < a->nunits; i++)
            json_array_append_new(i < a->nreduce ? reduce : eliminate, json_string(ak_def(a->units[i])->shortname));
        /* empty lists are left out: a list given has names */
        if (json_array_size(reduce))
            json_object_set_new(j, "reduce", reduce);
        else
            json_decref(reduce);
        if (json_array_size(eliminate))
            json_object_set_new(j, "eliminate", eliminate);
        else
            json_decref(eliminate);
        return j;
    }
    if (a->kind == AK_ACT_CANCEL || a->kind == AK_ACT_RESOLVE)
        json_object_set_new(j, "battle", json_integer(a->battle + 1));
    if (a->nunits) {
        json_t *units = json_array();
        for (int i = 0; i < a->nunits; i++)
            json_array_append_new(units, json_string(ak_def(a->units[i])->shortname));
        json_object_set_new(j, "units", units);
    }
    if (a->kind == AK_ACT_PLACE && a->hex == AK_HEX_NONE)
        json_object_set_new(j, "at", json_string("box"));
    else if (a->kind == AK_ACT_PLACE || a->kind == AK_ACT_BREAK_OUT)
        json_object_set_new(j, "at", hex_json(a->hex));
    else if (a->hex != AK_HEX_NONE)
        json_object_set_new(j, "to", hex_json(a->hex));
    if (a->npath) {
        json_t *path = json_array();
        for (int i = 0; i < a->npath; i++)
            json_array_append_new(path, hex_json(a->path[i]));
        json_object_set_new(j, "path", path);
    }
    return j;
}

json_t *ak_action_to_json(const struct ak_action *a)
{
    return ak_action_to_json_in(a, NULL);
}

static json_t *side_json(int side)
{
    return side == AK_AXIS ? json_string("axis") : side == AK_ALLIED ? json_string("allied") : json_null();
}

static json_t *unit_json(const struct ak_unit *x)
{
    return json_pack("{s:s,s:o,s:o,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i}",
                     "where", ak_where_name(x->where),
                     "hex", hex_json(x->hex), "start", hex_json(x->start_hex),
                     "flags", x->flags, "mp", x->mp_spent, "road", x->road_spent,
                     "rommel", x->rommel_spent, "sea_turn", x->sea_turn,
                     "isolated", x->isolated, "battle", x->battle, "reduced", x->reduced, "marks", x->marks);
}

/* Everything but the units. */
static json_t *state_head_json(const struct ak_state *s);

json_t *ak_state_to_json(const struct ak_state *s)
{
    const struct ak_data *d = ak_data();
    json_t *units = json_object();
    for (int u = 0; u < s->units; u++)
        json_object_set_new(units, d->unit[u].shortname, unit_json(&s->unit[u]));
    json_t *j = state_head_json(s);
    json_object_set_new(j, "units", units);
    return j;
}

/* The patch is worked out from the two structs, field by field, rather
 * than by building both states' JSON and diffing it: a push is computed
 * for every action, and most actions change a few fields of a few units.
 * The paths and values are those ak_patch_diff would give for
 * ak_state_to_json of each (tests/test_fuzz.c checks it). */
#define PATCH_FIELD(ops, path, fmt, arg, changed, value)         \
    do {                                                         \
        if (changed) {                                           \
            snprintf(path, sizeof path, fmt, arg);               \
            ak_patch_replace(ops, path, value);                  \
        }                                                        \
    } while (0)

static void unit_patch(json_t *ops, int u, const struct ak_unit *a, const struct ak_unit *b)
{
    const char *n = ak_def(u)->shortname;
    char p[96];
    PATCH_FIELD(ops, p, "/units/%s/where", n, a->where != b->where, json_string(ak_where_name(b->where)));
    PATCH_FIELD(ops, p, "/units/%s/hex", n, a->hex != b->hex, hex_json(b->hex));
    PATCH_FIELD(ops, p, "/units/%s/start", n, a->start_hex != b->start_hex, hex_json(b->start_hex));
    PATCH_FIELD(ops, p, "/units/%s/flags", n, a->flags != b->flags, json_integer(b->flags));
    PATCH_FIELD(ops, p, "/units/%s/mp", n, a->mp_spent != b->mp_spent, json_integer(b->mp_spent));
    PATCH_FIELD(ops, p, "/units/%s/road", n, a->road_spent != b->road_spent, json_integer(b->road_spent));
    PATCH_FIELD(ops, p, "/units/%s/rommel", n, a->rommel_spent != b->rommel_spent,
                json_integer(b->rommel_spent));
    PATCH_FIELD(ops, p, "/units/%s/sea_turn", n, a->sea_turn != b->sea_turn, json_integer(b->sea_turn));
    PATCH_FIELD(ops, p, "/units/%s/isolated", n, a->isolated != b->isolated, json_integer(b->isolated));
    PATCH_FIELD(ops, p, "/units/%s/battle", n, a->battle != b->battle, json_integer(b->battle));
    PATCH_FIELD(ops, p, "/units/%s/reduced", n, a->reduced != b->reduced, json_integer(b->reduced));
    PATCH_FIELD(ops, p, "/units/%s/marks", n, a->marks != b->marks, json_integer(b->marks));
}

static json_t *battles_json(const struct ak_state *s);
static json_t *pending_json(const struct ak_state *s);
static json_t *boxes_json(const struct ak_state *s);

static void pair_patch(json_t *ops, const char *key, const int a[2], const int b[2])
{
    char p[48];
    for (int i = 0; i < 2; i++)
        if (a[i] != b[i]) {
            snprintf(p, sizeof p, "/%s/%d", key, i);
            ak_patch_replace(ops, p, json_integer(b[i]));
        }
}

static void head_patch(json_t *ops, const struct ak_state *a, const struct ak_state *b)
{
    static const char *const keys[AK_KEYS] = {"axis_base", "allied_base", "tobruch", "bengasi"};
    char p[48];
    PATCH_FIELD(ops, p, "%s", "/ruleset", a->ruleset != b->ruleset,
                json_string(ak_ruleset_get(b->ruleset)->name));
    PATCH_FIELD(ops, p, "%s", "/turn", a->turn != b->turn, json_integer(b->turn));
    PATCH_FIELD(ops, p, "%s", "/date", a->turn != b->turn, json_string(ak_data()->scenario.date[b->turn]));
    PATCH_FIELD(ops, p, "%s", "/side", a->side != b->side, side_json(b->side));
    PATCH_FIELD(ops, p, "%s", "/phase", a->phase != b->phase, json_string(ak_phase_name(b->phase)));
    PATCH_FIELD(ops, p, "%s", "/result", a->result != b->result, json_string(ak_result_name(b->result)));
    PATCH_FIELD(ops, p, "%s", "/reason", a->result_reason != b->result_reason,
                json_string(ak_win_reason_name(b->result_reason)));
    PATCH_FIELD(ops, p, "%s", "/supply_roll", a->supply_roll != b->supply_roll, json_integer(b->supply_roll));
    PATCH_FIELD(ops, p, "%s", "/supply_due", a->supply_due != b->supply_due, json_integer(b->supply_due));
    for (int k = 0; k < AK_KEYS; k++)
        PATCH_FIELD(ops, p, "/control/%s", keys[k], a->control[k] != b->control[k], side_json(b->control[k]));
    pair_patch(ops, "replacement", (int[]){a->replacement[0], a->replacement[1]},
               (int[]){b->replacement[0], b->replacement[1]});
    pair_patch(ops, "no_supply_turns", (int[]){a->no_supply_turns[0], a->no_supply_turns[1]},
               (int[]){b->no_supply_turns[0], b->no_supply_turns[1]});
    for (int i = 0; i < AK_SIDES; i++)
        for (int k = 0; k < AK_POOLS; k++)
            if (a->pool[i][k] != b->pool[i][k]) {
                snprintf(p, sizeof p, "/pools/%d/%d", i, k);
                ak_patch_replace(ops, p, json_integer(b->pool[i][k]));
            }
    PATCH_FIELD(ops, p, "%s", "/flags", a->flags != b->flags, json_integer(b->flags));
    if (a->nboxes != b->nboxes || memcmp(a->box, b->box, sizeof a->box[0] * (size_t)b->nboxes) != 0)
        ak_patch_replace(ops, "/boxes", boxes_json(b));
    if (a->nattack_supply != b->nattack_supply ||
        memcmp(a->attack_supply, b->attack_supply, sizeof a->attack_supply[0] * (size_t)b->nattack_supply) != 0) {
        json_t *list = json_array();
        for (int i = 0; i < b->nattack_supply; i++)
            json_array_append_new(list, hex_json(b->attack_supply[i]));
        ak_patch_replace(ops, "/attack_supply", list);
    }
    pair_patch(ops, "hold_turns", (int[]){a->hold_turns[0], a->hold_turns[1]},
               (int[]){b->hold_turns[0], b->hold_turns[1]});
    PATCH_FIELD(ops, p, "%s", "/actions", a->actions != b->actions, json_integer((json_int_t)b->actions));
    if (a->nbattles != b->nbattles ||
        memcmp(a->battle, b->battle, sizeof a->battle[0] * (size_t)a->nbattles) != 0) {
        json_t *ba = battles_json(a), *bb = battles_json(b);
        ak_patch_diff_at(ops, "/battles", ba, bb);
        json_decref(ba);
        json_decref(bb);
    }
    PATCH_FIELD(ops, p, "%s", "/combat_locked", a->combat_locked != b->combat_locked,
                json_boolean(b->combat_locked));
    if (memcmp(&a->pending, &b->pending, sizeof a->pending) != 0) {
        json_t *pa = pending_json(a), *pb = pending_json(b);
        ak_patch_diff_at(ops, "/pending", pa, pb);
        json_decref(pa);
        json_decref(pb);
    }
}

json_t *ak_state_patch(const struct ak_state *a, const struct ak_state *b)
{
    json_t *ops = json_array();
    head_patch(ops, a, b);
    for (int u = 0; u < b->units; u++)
        if (memcmp(&a->unit[u], &b->unit[u], sizeof a->unit[u]) != 0)
            unit_patch(ops, u, &a->unit[u], &b->unit[u]);
    return ops;
}

static json_t *battles_json(const struct ak_state *s)
{
    json_t *battles = json_array();
    for (int b = 0; b < s->nbattles; b++) {
        const struct ak_battle *t = &s->battle[b];
        json_t *hexes = json_array();
        for (int i = 0; i < t->ndef_hex; i++)
            json_array_append_new(hexes, hex_json(t->def_hex[i]));
        const struct ak_ruleset *r = ak_ruleset_get(s->ruleset);
        char result[64];
        r->result_name(s, b, result, sizeof result);
        json_array_append_new(battles, json_pack("{s:o,s:b,s:i,s:s,s:i,s:s,s:i,s:i,s:o,s:i,s:i,s:i}",
            "supply", t->supply == AK_UNIT_NONE ? json_null() : json_string(ak_def(t->supply)->shortname),
            "resolved", t->resolved, "column", t->column, "odds", r->odds_name(s, t->column),
            "roll", t->roll, "result", result,
            "attack", t->attack, "defense", t->defense, "hexes", hexes, "drm", t->drm, "modified", t->modified,
            "counted", t->counted));
    }
    return battles;
}

static json_t *pending_json(const struct ak_state *s)
{
    return s->pending.kind == AK_PEND_NONE ? json_null() :
        json_pack("{s:s,s:o,s:i,s:i,s:i,s:i,s:i,s:i,s:o}", "decision", pending_names[s->pending.kind],
                  "side", side_json(s->pending.side),
                  "battle", s->pending.percent == AK_LOSS_ATTRITION ? 0 : s->pending.battle + 1,
                  "need", s->pending.need, "stage", s->pending.stage, "loss_kind", s->pending.percent,
                  "removed", s->pending.removed, "retreat", s->pending.retreat,
                  "hex", s->pending.hex ? hex_json(s->pending.hex) : json_null());
}

/* The Updated ruleset's hedgehog markers: [{"hex","side"}...]. */
static json_t *boxes_json(const struct ak_state *s)
{
    json_t *list = json_array();
    for (int i = 0; i < s->nboxes; i++)
        json_array_append_new(list, json_pack("{s:o,s:o}", "hex", hex_json(s->box[i].hex), "side", side_json(s->box[i].side)));
    return list;
}

static json_t *state_head_json(const struct ak_state *s)
{
    const struct ak_data *d = ak_data();
    json_t *control = json_object();
    static const char *const keys[AK_KEYS] = {"axis_base", "allied_base", "tobruch", "bengasi"};
    for (int k = 0; k < AK_KEYS; k++)
        json_object_set_new(control, keys[k], side_json(s->control[k]));
    json_t *j = json_pack("{s:s,s:i,s:s,s:o,s:s,s:s,s:s,s:i,s:i,s:o,s:[i,i],s:[i,i],s:[i,i],s:i}",
                     "ruleset", ak_ruleset_get(s->ruleset)->name,
                     "turn", s->turn, "date", d->scenario.date[s->turn],
                     "side", side_json(s->side), "phase", ak_phase_name(s->phase),
                     "result", ak_result_name(s->result),
                     "reason", ak_win_reason_name(s->result_reason),
                     "supply_roll", s->supply_roll, "supply_due", s->supply_due,
                     "control", control,
                     "replacement", s->replacement[0], s->replacement[1],
                     "no_supply_turns", s->no_supply_turns[0], s->no_supply_turns[1],
                     "hold_turns", s->hold_turns[0], s->hold_turns[1],
                     "actions", (int)s->actions);
    json_object_set_new(j, "battles", battles_json(s));
    json_object_set_new(j, "combat_locked", json_boolean(s->combat_locked));
    json_object_set_new(j, "pending", pending_json(s));
    json_object_set_new(j, "pools", json_pack("[[i,i],[i,i]]", s->pool[0][0], s->pool[0][1], s->pool[1][0],
                                              s->pool[1][1]));
    json_object_set_new(j, "flags", json_integer(s->flags));
    json_t *spent = json_array();
    for (int i = 0; i < s->nattack_supply; i++)
        json_array_append_new(spent, hex_json(s->attack_supply[i]));
    json_object_set_new(j, "attack_supply", spent);
    json_object_set_new(j, "boxes", boxes_json(s));
    return j;
}

static int name_index(const char *v, const char *(*name)(int), int count)
{
    for (int i = 0; i < count; i++)
        if (v && strcmp(v, name(i)) == 0)
            return i;
    return -1;
}

static ak_hex hex_or_none(const json_t *j)
{
    return json_is_string(j) ? ak_hex_parse(json_string_value(j)) : AK_HEX_NONE;
}

/* A small count or number from a state: absent is 0; anything but an
 * integer 0..255 clears *in_range (a cast would wrap 257 to 1). */
static uint8_t u8_value(const json_t *j, bool *in_range)
{
    if (!j)
        return 0;
    json_int_t v = json_integer_value(j);
    if (!json_is_integer(j) || v < 0 || v > 255) {
        *in_range = false;
        return 0;
    }
    return (uint8_t)v;
}

/* A square field is absent, null, or a square of the grid: a misspelt
 * square must not pass as "no square". */
static bool hex_field_ok(const json_t *j)
{
    return !j || json_is_null(j) || (json_is_string(j) && ak_hex_parse(json_string_value(j)) != AK_HEX_NONE);
}

static int list_index(const char *v, const char *const *names, int count)
{
    for (int i = 0; i < count; i++)
        if (v && strcmp(v, names[i]) == 0)
            return i;
    return -1;
}

static bool battles_from_json(const json_t *list, struct ak_state *s)
{
    if (!list)
        return true;
    if (!json_is_array(list) || json_array_size(list) > AK_BATTLE_MAX)
        return false;
    bool in_range = true;
    s->nbattles = (uint8_t)json_array_size(list);
    for (int b = 0; b < s->nbattles; b++) {
        const json_t *x = json_array_get(list, (size_t)b);
        struct ak_battle *t = &s->battle[b];
        const char *sup = json_string_value(json_object_get(x, "supply"));
        int u = sup ? ak_unit_find(ak_data(), sup) : AK_UNIT_NONE;
        t->supply = (uint8_t)(u < 0 ? AK_UNIT_NONE : u);
        t->resolved = json_is_true(json_object_get(x, "resolved"));
        t->column = u8_value(json_object_get(x, "column"), &in_range);
        t->roll = u8_value(json_object_get(x, "roll"), &in_range);
        int result = list_index(json_string_value(json_object_get(x, "result")), crt_names, 5);
        /* A result belongs to a resolved battle only (it is written out so),
         * and only the 1964 table's: a ruleset fought on the game's own
         * table names its effects ("EX", "DL1/DR2") and keeps none here. */
        t->result = (uint8_t)(result < 0 || !t->resolved || ak_ruleset_get(s->ruleset)->needs_crt_table ? 0 : result);
        t->attack = u8_value(json_object_get(x, "attack"), &in_range);
        t->defense = u8_value(json_object_get(x, "defense"), &in_range);
        json_int_t drm = json_integer_value(json_object_get(x, "drm")), modified = json_integer_value(json_object_get(x, "modified"));
        if (drm < -9 || drm > 9 || modified < -20 || modified > 40)
            return false;
        t->drm = (int8_t)drm;
        t->modified = (int8_t)modified;
        t->counted = u8_value(json_object_get(x, "counted"), &in_range);
        const json_t *hexes = json_object_get(x, "hexes");
        if (!in_range || json_array_size(hexes) > AK_BATTLE_HEXES)
            return false;
        t->ndef_hex = (uint8_t)json_array_size(hexes);
        for (int i = 0; i < t->ndef_hex; i++)
            t->def_hex[i] = hex_or_none(json_array_get(hexes, (size_t)i));
    }
    return true;
}

static bool pending_from_json(const json_t *p, struct ak_state *s)
{
    if (!p || json_is_null(p))
        return true;
    int kind = list_index(json_string_value(json_object_get(p, "decision")), pending_names, AK_PEND_LOSSES + 1);
    const char *side = json_string_value(json_object_get(p, "side"));
    json_int_t b = json_integer_value(json_object_get(p, "battle"));
    bool in_range = true;
    /* an attrition loss (loss_kind 4) belongs to a square, not a battle */
    bool attrition = json_integer_value(json_object_get(p, "loss_kind")) == AK_LOSS_ATTRITION;
    if (kind <= 0 || !side || (!attrition && (b < 1 || b > s->nbattles)))
        return false;
    s->pending.kind = (uint8_t)kind;
    s->pending.side = (uint8_t)ak_side_parse(side);
    s->pending.battle = (uint8_t)(attrition ? 0 : b - 1);
    s->pending.need = u8_value(json_object_get(p, "need"), &in_range);
    s->pending.stage = u8_value(json_object_get(p, "stage"), &in_range);
    s->pending.percent = u8_value(json_object_get(p, "loss_kind"), &in_range);
    s->pending.removed = u8_value(json_object_get(p, "removed"), &in_range);
    s->pending.retreat = u8_value(json_object_get(p, "retreat"), &in_range);
    const json_t *hex = json_object_get(p, "hex");
    if (hex && !json_is_null(hex)) {
        if (!hex_field_ok(hex))
            return false;
        s->pending.hex = hex_or_none(hex);
    }
    return in_range;
}

bool ak_state_from_json(const json_t *j, struct ak_state *s, char *err, int errlen)
{
    const struct ak_data *d = ak_data();
    memset(s, 0, sizeof *s);
    const char *ruleset = json_string_value(json_object_get(j, "ruleset"));
    int r = ruleset ? ak_ruleset_find(ruleset) : -1;
    json_t *units = json_object_get(j, "units");
    if (r < 0 || !json_is_object(units))
        return fail(err, errlen, "%s", "state lacks a known ruleset or units");
    s->ruleset = (uint8_t)r;
    bool in_range = true;
    s->turn = u8_value(json_object_get(j, "turn"), &in_range);
    const char *side = json_string_value(json_object_get(j, "side"));
    s->side = (uint8_t)(side ? ak_side_parse(side) : AK_NOBODY);
    s->phase = (uint8_t)name_index(json_string_value(json_object_get(j, "phase")), ak_phase_name, AK_PHASES);
    s->result = (uint8_t)name_index(json_string_value(json_object_get(j, "result")), ak_result_name, 4);
    s->supply_roll = u8_value(json_object_get(j, "supply_roll"), &in_range);
    s->supply_due = u8_value(json_object_get(j, "supply_due"), &in_range);
    s->actions = (uint32_t)json_integer_value(json_object_get(j, "actions"));
    static const char *const keys[AK_KEYS] = {"axis_base", "allied_base", "tobruch", "bengasi"};
    json_t *control = json_object_get(j, "control");
    for (int k = 0; k < AK_KEYS; k++) {
        const char *c = json_string_value(json_object_get(control, keys[k]));
        s->control[k] = (uint8_t)(c ? ak_side_parse(c) : AK_NOBODY);
    }
    for (int i = 0; i < AK_SIDES; i++) {
        s->replacement[i] = u8_value(json_array_get(json_object_get(j, "replacement"), (size_t)i), &in_range);
        s->no_supply_turns[i] = u8_value(json_array_get(json_object_get(j, "no_supply_turns"), (size_t)i), &in_range);
    }
    for (int i = 0; i < AK_SIDES; i++)
        s->hold_turns[i] = u8_value(json_array_get(json_object_get(j, "hold_turns"), (size_t)i), &in_range);
    for (int i = 0; i < AK_SIDES; i++)
        for (int k = 0; k < AK_POOLS; k++)
            s->pool[i][k] = u8_value(json_array_get(json_array_get(json_object_get(j, "pools"), (size_t)i), (size_t)k),
                                     &in_range);
    s->flags = u8_value(json_object_get(j, "flags"), &in_range);
    const json_t *boxes = json_object_get(j, "boxes");
    if (boxes && (!json_is_array(boxes) || json_array_size(boxes) > AK_BOX_MAX))
        return fail(err, errlen, "%s", "boxes lists at most 24 markers");
    for (size_t i = 0; boxes && i < json_array_size(boxes); i++) {
        const json_t *x = json_array_get(boxes, i);
        const char *side = json_string_value(json_object_get(x, "side"));
        if (!hex_field_ok(json_object_get(x, "hex")) || !side || ak_side_parse(side) < 0)
            return fail(err, errlen, "%s", "a box names no square of the map or no side");
        s->box[s->nboxes].hex = hex_or_none(json_object_get(x, "hex"));
        s->box[s->nboxes++].side = (uint8_t)ak_side_parse(side);
    }
    const json_t *spent = json_object_get(j, "attack_supply");
    if (spent && (!json_is_array(spent) || json_array_size(spent) > AK_ATTACK_SUPPLY_MAX))
        return fail(err, errlen, "%s", "attack_supply lists at most 4 squares");
    for (size_t i = 0; spent && i < json_array_size(spent); i++) {
        if (!hex_field_ok(json_array_get(spent, i)) || json_is_null(json_array_get(spent, i)))
            return fail(err, errlen, "%s", "attack_supply names a square that is not on the map");
        s->attack_supply[s->nattack_supply++] = hex_or_none(json_array_get(spent, i));
    }
    int reason = name_index(json_string_value(json_object_get(j, "reason")), ak_win_reason_name, AK_WIN_ADJUDICATION + 1);
    s->result_reason = (uint8_t)(reason < 0 ? 0 : reason);
    s->combat_locked = json_is_true(json_object_get(j, "combat_locked"));
    if (!battles_from_json(json_object_get(j, "battles"), s) ||
        !pending_from_json(json_object_get(j, "pending"), s))
        return fail(err, errlen, "%s", "state has malformed battles or a malformed decision");
    s->units = (uint16_t)d->units;
    for (int u = 0; u < d->units; u++) {
        json_t *x = json_object_get(units, d->unit[u].shortname);
        int where = name_index(json_string_value(json_object_get(x, "where")), ak_where_name, AK_AT_WITHDRAWN + 1);
        if (where < 0)
            return fail(err, errlen, "state lacks unit %s", d->unit[u].shortname);
        struct ak_unit *y = &s->unit[u];
        y->where = (uint8_t)where;
        y->hex = hex_or_none(json_object_get(x, "hex"));
        y->start_hex = hex_or_none(json_object_get(x, "start"));
        y->flags = u8_value(json_object_get(x, "flags"), &in_range);
        y->mp_spent = u8_value(json_object_get(x, "mp"), &in_range);
        y->road_spent = u8_value(json_object_get(x, "road"), &in_range);
        y->rommel_spent = u8_value(json_object_get(x, "rommel"), &in_range);
        y->sea_turn = u8_value(json_object_get(x, "sea_turn"), &in_range);
        y->isolated = u8_value(json_object_get(x, "isolated"), &in_range);
        y->battle = u8_value(json_object_get(x, "battle"), &in_range);
        y->reduced = u8_value(json_object_get(x, "reduced"), &in_range);
        y->marks = u8_value(json_object_get(x, "marks"), &in_range);
        if (!hex_field_ok(json_object_get(x, "hex")) || !hex_field_ok(json_object_get(x, "start")))
            return fail(err, errlen, "unit %s names a square that is not on the map", d->unit[u].shortname);
    }
    if (!in_range)
        return fail(err, errlen, "%s", "state has a number out of range");
    return ak_state_check(s, err, errlen);
}

bool ak_state_from_position(const json_t *j, uint64_t seed, struct ak_state *s, char *err,
                            int errlen)
{
    if (!ak_state_from_json(j, s, err, errlen))
        return false;
    /* ak_state_from_json checked every square and range. */
    if (s->phase == AK_PHASE_OVER || s->side >= AK_SIDES || s->nbattles || s->pending.kind)
        return fail(err, errlen, "%s", "a position must be in play: a turn, a side, a portion, no battles");
    s->result = AK_RESULT_NONE;
    s->actions = 0;
    ak_rng_seed(&s->rng, seed);
    return true;
}

static const char *const event_names[] = {
    "moved", "captured", "rommel_displaced", "placed", "embarked", "lost_at_sea",
    "supply_roll", "supply_destroyed", "supply_unused", "phase", "turn", "never_arrived",
    "game_over", "auto_victory", "battle_declared", "battle_cancelled", "battle_resolved",
    "eliminated", "retreated", "advanced", "supply_used", "isolated", "substituted",
    "replacements", "out_of_supply", "reduced", "retreat_cancelled", "rebuilt", "attrition", "box",
};
_Static_assert(sizeof event_names / sizeof event_names[0] == AK_EV_KINDS, "one name per event");

/* A battle event's odds: the 1964 table's column, or the odds of the
 * game's own table (AK_EV_TABLE_ODDS). */
static const char *event_odds(int d)
{
    static char buf[8];
    if (d < AK_EV_TABLE_ODDS)
        return ak_odds_name(d);
    snprintf(buf, sizeof buf, "%d-%d", (d - AK_EV_TABLE_ODDS) / 100 % 100, (d - AK_EV_TABLE_ODDS) % 100);
    return buf;
}

json_t *ak_event_to_json(const struct ak_event *e)
{
    char text[200];
    ak_event_text(e, text, sizeof text);
    json_t *j = json_pack("{s:s,s:o,s:s}", "event", event_names[e->kind], "side", side_json(e->side),
                          "text", text);
    if (e->unit != AK_UNIT_NONE)
        json_object_set_new(j, "unit", json_string(ak_def(e->unit)->shortname));
    if (e->other != AK_UNIT_NONE)
        json_object_set_new(j, "other", json_string(ak_def(e->other)->shortname));
    if (e->from != AK_HEX_NONE)
        json_object_set_new(j, "from", hex_json(e->from));
    if (e->to != AK_HEX_NONE)
        json_object_set_new(j, "to", hex_json(e->to));
    if (e->kind == AK_EV_SUPPLY_ROLL)
        json_object_set_new(j, "roll", json_integer(e->a));
    if (e->kind == AK_EV_BATTLE_DECLARED || e->kind == AK_EV_BATTLE_RESOLVED ||
        e->kind == AK_EV_BATTLE_CANCELLED)
        json_object_set_new(j, "battle", json_integer(e->a));
    if (e->kind == AK_EV_BATTLE_DECLARED || e->kind == AK_EV_BATTLE_RESOLVED)
        json_object_set_new(j, "odds", json_string(event_odds(e->d)));
    if (e->kind == AK_EV_BATTLE_RESOLVED) {
        json_object_set_new(j, "roll", json_integer(e->b));
        if (e->c >= 0 && e->c < 5)
            json_object_set_new(j, "result", json_string(crt_names[e->c]));
    }
    if (e->kind == AK_EV_GAME_OVER) {
        json_object_set_new(j, "result", json_string(ak_result_name(e->a)));
        json_object_set_new(j, "reason", json_string(ak_win_reason_name(e->b)));
    }
    return j;
}

json_t *ak_events_to_json(const struct ak_state *after, const struct ak_events *ev)
{
    const struct ak_ruleset *r = ak_ruleset_get(after->ruleset);
    json_t *list = json_array();
    for (int i = 0; i < ev->n; i++) {
        const struct ak_event *e = &ev->ev[i];
        json_t *j = ak_event_to_json(e);
        char cell[64] = "", text[300];
        if (e->kind == AK_EV_BATTLE_RESOLVED && r->needs_crt_table && e->a >= 1 && e->a <= after->nbattles)
            r->result_name(after, e->a - 1, cell, sizeof cell);
        if (cell[0]) {
            json_object_set_new(j, "result", json_string(cell));
            snprintf(text, sizeof text, "%s: %s", json_string_value(json_object_get(j, "text")), cell);
            json_object_set_new(j, "text", json_string(text));
        }
        json_array_append_new(list, j);
    }
    return list;
}

static void combat_event_text(const struct ak_event *e, const char *unit, const char *other,
                              const char *f, const char *t, char *buf, int len)
{
    static const char *const why[] = {
        "in battle", "with no open line of retreat", "in a fortress instead of retreating",
        "in the exchange", "removed before combat (it could not attack)",
        "after two turns isolated", "after two turns without a supply unit on board",
    };
    static const char *const results[] = {
        "attacker eliminated", "attacker back 2", "exchange", "defender back 2", "defender eliminated",
    };
    const char *side = ak_side_name(e->side);
    switch (e->kind) {
    case AK_EV_AUTO_VICTORY:
        snprintf(buf, len, "Automatic victory against %s at %s (%d to %d%s): its zone of control is ignored for the rest of the turn",
                 unit, t, e->a, e->b, e->c ? ", surrounded" : "");
        break;
    case AK_EV_BATTLE_DECLARED:
        /* One attacker when his factor is the whole attack. */
        /* One defender when his factor, basic or doubled by terrain, is
         * the whole defense. */
        snprintf(buf, len, "Battle %d declared: %s at %s%s against %s at %s%s, %d to %d (%s)", e->a, unit, f,
                 e->unit != AK_UNIT_NONE && ak_def(e->unit)->attack == e->b ? "" : " and others", other, t,
                 e->other != AK_UNIT_NONE &&
                         (ak_def(e->other)->defense == e->c || 2 * ak_def(e->other)->defense == e->c)
                     ? "" : " and others",
                 e->b, e->c, event_odds(e->d));
        break;
    case AK_EV_BATTLE_CANCELLED:
        snprintf(buf, len, "Battle %d withdrawn", e->a);
        break;
    case AK_EV_BATTLE_RESOLVED:
        if (e->c < 0)
            snprintf(buf, len, "Battle %d, odds %s: %s rolled %d", e->a, event_odds(e->d), side, e->b);
        else if (e->b == 0)
            snprintf(buf, len, "Battle %d at %s: automatic victory, %s", e->a, t, results[e->c]);
        else
            snprintf(buf, len, "Battle %d at %s, odds %s: %s rolled %d: %s", e->a, t,
                     ak_odds_name(e->d), side, e->b, results[e->c < 5 ? e->c : 0]);
        break;
    case AK_EV_ELIMINATED:
        snprintf(buf, len, "%s at %s eliminated %s", unit, f, why[e->a >= 0 && e->a <= AK_ELIM_NO_SUPPLY ? e->a : 0]);
        break;
    case AK_EV_RETREATED:
        snprintf(buf, len, "%s retreated from %s to %s", unit, f, t);
        break;
    case AK_EV_ADVANCED:
        snprintf(buf, len, "%s advanced after combat from %s to %s", unit, f, t);
        break;
    case AK_EV_SUPPLY_USED:
        if (e->c == 1)  /* Updated supply phase: burned for emergency supply */
            snprintf(buf, len, "%s is burned at %s for emergency supply (%d units kept in supply)", unit, f, e->a);
        else if (e->c == 2)     /* Updated movement phase: boxes built */
            snprintf(buf, len, "%s is spent at %s on boxes", unit, f);
        else
            snprintf(buf, len, "%s sustained attacks and leaves the board from %s", unit, f);
        break;
    case AK_EV_ISOLATED:
        snprintf(buf, len, "%s at %s is isolated (turn %d of 2)", unit, f, e->a);
        break;
    case AK_EV_BOX:
        snprintf(buf, len, e->a ? "%s box built at %s" : "%s box at %s removed", side, f);
        break;
    case AK_EV_ATTRITION:
        if (e->c == 3)
            snprintf(buf, len, "%s units at %s will break out", side, f);
        else
            snprintf(buf, len, "Isolation attrition at %s: %s rolled %d%s: %s", f, side, e->a, e->b != e->a ? " -1" : "",
                     e->c == 2 ? "the units break out" : e->c == 1 ? "a 50% loss" : "no loss");
        break;
    case AK_EV_REBUILT:
        snprintf(buf, len, "%s at %s is rebuilt to full strength for %d %s replacement points (%d left)", unit, f, e->a,
                 e->c == 2 ? "armor" : "infantry", e->b);
        break;
    case AK_EV_RETREAT_CANCELLED:
        snprintf(buf, len, "%s defenders of battle %d give a step and stay in their fortress", side, e->a);
        break;
    case AK_EV_REDUCED:
        snprintf(buf, len, "%s at %s loses a step (battle %d)", unit, f, e->a);
        break;
    case AK_EV_OUT_OF_SUPPLY:
        snprintf(buf, len, e->a < 0 ? "%s at %s is in supply again" : e->a ? "%s at %s is isolated and out of supply"
                                                                           : "%s at %s is out of supply",
                 unit, f);
        break;
    case AK_EV_SUBSTITUTED:
        snprintf(buf, len, e->a ? "%s enters at %s by substitution" : "%s leaves %s by substitution",
                 unit, e->a ? t : f);
        break;
    case AK_EV_REPLACEMENTS:
        if (e->c)       /* the Updated ruleset's pools: 1 infantry, 2 armor */
            snprintf(buf, len, "%s earns %d %s replacement points (%d in its pool)", side, e->a,
                     e->c == 1 ? "infantry" : "armor", e->b);
        else
            snprintf(buf, len, "%s earns %d replacement factors (%d in hand)", side, e->a, e->b);
        break;
    default:
        snprintf(buf, len, "?");
    }
    (void)other;
}

void ak_event_text(const struct ak_event *e, char *buf, int len)
{
    char f[8], t[8];
    const char *unit = e->unit != AK_UNIT_NONE ? ak_def(e->unit)->shortname : "";
    const char *other = e->other != AK_UNIT_NONE ? ak_def(e->other)->shortname : "";
    const char *side = ak_side_name(e->side);
    ak_hex_format(e->from, f);
    ak_hex_format(e->to, t);
    switch (e->kind) {
    case AK_EV_MOVED:
        snprintf(buf, len, "%s moved %s to %s (%d square%s, %d along the Coast Road)", unit, f, t, e->a,
                 e->a == 1 ? "" : "s", e->b);
        break;
    case AK_EV_CAPTURED:
        snprintf(buf, len, "%s captured %s at %s%s%s", side, unit, f, *other ? "; it is now " : "", other);
        break;
    case AK_EV_ROMMEL_DISPLACED:
        snprintf(buf, len, "Rommel escaped capture at %s and rejoined %s at %s", f, *other ? other : "nobody", t);
        break;
    case AK_EV_PLACED:
        if (e->a == 4)      /* Updated: bought back into the off-board box */
            snprintf(buf, len, "%s returned from the dead pile as a replacement, into the %s off-board box", unit,
                     e->side == AK_AXIS ? "Tripoli" : "Alexandria");
        else
            snprintf(buf, len, e->a == 1 ? "%s landed from the sea at %s" : e->a == 2 ? "%s returned from the dead pile as a replacement at %s"
                               : e->a == 3 ? "%s: the first Axis garrison of Tobruch finds a supply unit at %s"
                                           : "%s entered play at %s", unit, t);
        break;
    case AK_EV_EMBARKED:
        snprintf(buf, len, "%s put to sea from %s", unit, f);
        break;
    case AK_EV_LOST_AT_SEA:
        snprintf(buf, len, "%s did not land in time and is lost at sea", unit);
        break;
    case AK_EV_SUPPLY_ROLL:
        snprintf(buf, len, "Supply table, turn %d: rolled %d%s: %s", e->c, e->a, e->d ? " +1 (no supply last month)" : "",
                 e->b ? "SUNK, no Axis supply unit this turn" : "one Axis supply unit is due");
        break;
    case AK_EV_SUPPLY_DESTROYED:
        snprintf(buf, len, "%s destroyed its supply unit %s at %s", side, unit, f);
        break;
    case AK_EV_SUPPLY_UNUSED:
        snprintf(buf, len, "%s supply not taken this turn is lost", side);
        break;
    case AK_EV_PHASE:
        snprintf(buf, len, "%s %s %s begins", side, ak_phase_name(e->a),
                 e->a == AK_PHASE_MOVEMENT || e->a == AK_PHASE_COMBAT ? "portion" : "phase");
        break;
    case AK_EV_TURN:
        snprintf(buf, len, "Turn %d (%s): the %s player turn begins", e->a,
                 ak_data()->scenario.date[e->a > 0 && e->a <= AK_TURNS_MAX ? e->a : 1], side);
        break;
    case AK_EV_NEVER_ARRIVED:
        snprintf(buf, len, "%s never entered play and is eliminated", unit);
        break;
    case AK_EV_GAME_OVER:
        if (e->b == AK_WIN_ADJUDICATION) {
            if (e->a == AK_RESULT_DRAW)
                snprintf(buf, len, "The game is over on turn %d: an operator adjudicated it a draw", e->c);
            else
                snprintf(buf, len, "The game is over on turn %d: an operator adjudicated it to the %s player", e->c, side);
            break;
        }
        snprintf(buf, len, "The game is over on turn %d: the %s player wins by %s", e->c, side,
                 e->b == AK_WIN_ELIMINATION ? "eliminating every enemy combat unit"
                 : e->b == AK_WIN_KEY_SQUARES ? "holding both fortresses and both home bases for two turns"
                 : e->b == AK_WIN_RESIGNATION ? "the opponent's resignation"
                 : e->b == AK_WIN_TIME ? "the opponent's running out of time"
                 : "holding out to the end of October 1942");
        break;
    default:
        combat_event_text(e, unit, other, f, t, buf, len);
    }
}

json_t *ak_hazards_to_json(const struct ak_state *s)
{
    static struct ak_hazard hz[AK_HAZARDS_MAX];
    int n = ak_hazards(s, hz, AK_HAZARDS_MAX);
    json_t *list = json_array();
    for (int i = 0; i < n; i++) {
        const struct ak_hazard *h = &hz[i];
        json_t *units = json_array(), *j;
        char sq[8];
        for (int k = 0; k < h->nunits; k++)
            json_array_append_new(units, json_string(ak_def(h->units[k])->shortname));
        j = json_pack("{s:s,s:s,s:s,s:s,s:o}", "kind", ak_hazard_kind_name(h->kind), "rule", h->code,
                      "section", h->section, "text", h->text, "units", units);
        if (h->hex != AK_HEX_NONE)
            json_object_set_new(j, "square", json_string(ak_hex_format(h->hex, sq)));
        if (h->of)
            json_object_set_new(j, "count", json_pack("[i,i]", h->count, h->of));
        if (h->bites_at)
            json_object_set_new(j, "confirm_before", json_string(ak_action_kind_name(h->bites_at)));
        json_array_append_new(list, j);
    }
    return list;
}
