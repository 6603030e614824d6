/* ak_notation: JSON spelling of actions, state and events. */
#include "ak_notation.h"

#include <stdio.h>
#include <string.h>

static const char *const kind_names[AK_ACT_KINDS] = {
    "move", "place", "embark", "end_movement", "destroy_supply", "end_turn",
};

const char *ak_action_kind_name(int kind)
{
    return kind >= 0 && kind < AK_ACT_KINDS ? kind_names[kind] : "?";
}

const char *ak_phase_name(int phase)
{
    static const char *const n[] = {"movement", "combat", "over"};
    return phase >= 0 && phase <= AK_PHASE_OVER ? n[phase] : "?";
}

const char *ak_where_name(int where)
{
    static const char *const n[] = {"pool", "board", "sea", "dead"};
    return where >= 0 && where <= AK_AT_DEAD ? n[where] : "?";
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
    if (u == -2)
        return fail(err, errlen, "ambiguous unit name '%s'", json_string_value(j));
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
        return fail(err, errlen, "%s", "\"units\" must be a list of 1 to 16 unit names");
    a->nunits = (uint8_t)json_array_size(list);
    for (size_t i = 0; i < json_array_size(list); i++)
        if (!unit_of(json_array_get(list, i), &a->units[i], err, errlen))
            return false;
    return true;
}

bool ak_action_from_json(const json_t *j, int side, struct ak_action *a, char *err, int errlen)
{
    memset(a, 0, sizeof *a);
    a->side = (uint8_t)side;
    a->hex = AK_HEX_NONE;
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
        if (path) {
            if (!json_is_array(path) || json_array_size(path) < 1 || json_array_size(path) > AK_PATH_MAX)
                return fail(err, errlen, "%s", "\"path\" must list 1 to 48 squares");
            a->npath = (uint8_t)json_array_size(path);
            for (size_t i = 0; i < json_array_size(path); i++)
                if (!hex_of(json_array_get(path, i), &a->path[i], err, errlen))
                    return false;
        }
        return true;
    }
    case AK_ACT_PLACE:
        return units_of(j, a, err, errlen) && hex_of(json_object_get(j, "at"), &a->hex, err, errlen);
    case AK_ACT_EMBARK:
    case AK_ACT_DESTROY_SUPPLY:
        return units_of(j, a, err, errlen);
    case AK_ACT_END_MOVEMENT:
    case AK_ACT_END_TURN:
        return true;
    default:
        return fail(err, errlen, "unknown action '%s'", kind);
    }
}

static json_t *hex_json(ak_hex h)
{
    char b[8];
    return h == AK_HEX_NONE ? json_null() : json_string(ak_hex_format(h, b));
}

json_t *ak_action_to_json(const struct ak_action *a)
{
    json_t *j = json_pack("{s:s}", "action", ak_action_kind_name(a->kind));
    if (a->nunits) {
        json_t *units = json_array();
        for (int i = 0; i < a->nunits; i++)
            json_array_append_new(units, json_string(ak_def(a->units[i])->shortname));
        json_object_set_new(j, "units", units);
    }
    if (a->kind == AK_ACT_PLACE)
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

static json_t *side_json(int side)
{
    return side == AK_AXIS ? json_string("axis") : side == AK_ALLIED ? json_string("allied") : json_null();
}

json_t *ak_state_to_json(const struct ak_state *s)
{
    const struct ak_data *d = ak_data();
    json_t *units = json_object();
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit *x = &s->unit[u];
        json_object_set_new(units, d->unit[u].shortname,
                            json_pack("{s:s,s:o,s:o,s:i,s:i,s:i,s:i,s:i,s:i}",
                                      "where", ak_where_name(x->where),
                                      "hex", hex_json(x->hex), "start", hex_json(x->start_hex),
                                      "flags", x->flags, "mp", x->mp_spent, "road", x->road_spent,
                                      "rommel", x->rommel_spent, "sea_turn", x->sea_turn,
                                      "isolated", x->isolated));
    }
    json_t *control = json_object();
    static const char *const keys[AK_KEYS] = {"axis_base", "allied_base", "tobruch", "bengasi"};
    for (int k = 0; k < AK_KEYS; k++)
        json_object_set_new(control, keys[k], side_json(s->control[k]));
    return json_pack("{s:s,s:i,s:s,s:o,s:s,s:s,s:i,s:i,s:o,s:[i,i],s:[i,i],s:i,s:o}",
                     "ruleset", ak_ruleset_get(s->ruleset)->name,
                     "turn", s->turn, "date", d->scenario.date[s->turn],
                     "side", side_json(s->side), "phase", ak_phase_name(s->phase),
                     "result", ak_result_name(s->result),
                     "supply_roll", s->supply_roll, "supply_due", s->supply_due,
                     "control", control,
                     "replacement", s->replacement[0], s->replacement[1],
                     "no_supply_turns", s->no_supply_turns[0], s->no_supply_turns[1],
                     "actions", (int)s->actions, "units", units);
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
    s->turn = (uint8_t)json_integer_value(json_object_get(j, "turn"));
    const char *side = json_string_value(json_object_get(j, "side"));
    s->side = (uint8_t)(side ? ak_side_parse(side) : AK_NOBODY);
    s->phase = (uint8_t)name_index(json_string_value(json_object_get(j, "phase")), ak_phase_name, 3);
    s->result = (uint8_t)name_index(json_string_value(json_object_get(j, "result")), ak_result_name, 4);
    s->supply_roll = (uint8_t)json_integer_value(json_object_get(j, "supply_roll"));
    s->supply_due = (uint8_t)json_integer_value(json_object_get(j, "supply_due"));
    s->actions = (uint32_t)json_integer_value(json_object_get(j, "actions"));
    static const char *const keys[AK_KEYS] = {"axis_base", "allied_base", "tobruch", "bengasi"};
    json_t *control = json_object_get(j, "control");
    for (int k = 0; k < AK_KEYS; k++) {
        const char *c = json_string_value(json_object_get(control, keys[k]));
        s->control[k] = (uint8_t)(c ? ak_side_parse(c) : AK_NOBODY);
    }
    for (int i = 0; i < AK_SIDES; i++) {
        s->replacement[i] = (uint8_t)json_integer_value(json_array_get(json_object_get(j, "replacement"), (size_t)i));
        s->no_supply_turns[i] = (uint8_t)json_integer_value(json_array_get(json_object_get(j, "no_supply_turns"), (size_t)i));
    }
    s->units = (uint16_t)d->units;
    for (int u = 0; u < d->units; u++) {
        json_t *x = json_object_get(units, d->unit[u].shortname);
        int where = name_index(json_string_value(json_object_get(x, "where")), ak_where_name, 4);
        if (where < 0)
            return fail(err, errlen, "state lacks unit %s", d->unit[u].shortname);
        struct ak_unit *y = &s->unit[u];
        y->where = (uint8_t)where;
        y->hex = hex_or_none(json_object_get(x, "hex"));
        y->start_hex = hex_or_none(json_object_get(x, "start"));
        y->flags = (uint8_t)json_integer_value(json_object_get(x, "flags"));
        y->mp_spent = (uint8_t)json_integer_value(json_object_get(x, "mp"));
        y->road_spent = (uint8_t)json_integer_value(json_object_get(x, "road"));
        y->rommel_spent = (uint8_t)json_integer_value(json_object_get(x, "rommel"));
        y->sea_turn = (uint8_t)json_integer_value(json_object_get(x, "sea_turn"));
        y->isolated = (uint8_t)json_integer_value(json_object_get(x, "isolated"));
        if (y->where == AK_AT_BOARD && !ak_hex_parse(json_string_value(json_object_get(x, "hex"))))
            return fail(err, errlen, "unit %s is on board without a square", d->unit[u].shortname);
    }
    return true;
}

static const char *const event_names[] = {
    "moved", "captured", "rommel_displaced", "placed", "embarked", "lost_at_sea",
    "supply_roll", "supply_destroyed", "supply_unused", "phase", "turn", "never_arrived",
    "game_over",
};

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
    return j;
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
        snprintf(buf, len, "%s moved %s to %s (%d squares, %d along the Coast Road)", unit, f, t, e->a, e->b);
        break;
    case AK_EV_CAPTURED:
        snprintf(buf, len, "%s captured %s at %s%s%s", side, unit, f, *other ? "; it is now " : "", other);
        break;
    case AK_EV_ROMMEL_DISPLACED:
        snprintf(buf, len, "Rommel escaped capture at %s and rejoined %s at %s", f, *other ? other : "nobody", t);
        break;
    case AK_EV_PLACED:
        snprintf(buf, len, e->a ? "%s landed from the sea at %s" : "%s entered play at %s", unit, t);
        break;
    case AK_EV_EMBARKED:
        snprintf(buf, len, "%s put to sea from %s", unit, f);
        break;
    case AK_EV_LOST_AT_SEA:
        snprintf(buf, len, "%s did not land in time and is lost at sea", unit);
        break;
    case AK_EV_SUPPLY_ROLL:
        snprintf(buf, len, "Supply table, turn %d: rolled %d: %s", e->c, e->a,
                 e->b ? "SUNK, no Axis supply unit this turn" : "one Axis supply unit is due");
        break;
    case AK_EV_SUPPLY_DESTROYED:
        snprintf(buf, len, "%s destroyed its supply unit %s at %s", side, unit, f);
        break;
    case AK_EV_SUPPLY_UNUSED:
        snprintf(buf, len, "%s supply not taken this turn is lost", side);
        break;
    case AK_EV_PHASE:
        snprintf(buf, len, "%s %s portion begins", side, ak_phase_name(e->a));
        break;
    case AK_EV_TURN:
        snprintf(buf, len, "Turn %d (%s): the %s player turn begins", e->a,
                 ak_data()->scenario.date[e->a > 0 && e->a <= AK_TURNS_MAX ? e->a : 1], side);
        break;
    case AK_EV_NEVER_ARRIVED:
        snprintf(buf, len, "%s never entered play and is eliminated", unit);
        break;
    case AK_EV_GAME_OVER:
        snprintf(buf, len, "The game is over: %s", ak_result_name(e->a));
        break;
    default:
        snprintf(buf, len, "?");
    }
}
