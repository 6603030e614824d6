/* ak_combat: declaring battles, their obligations, automatic victory. */
#include "ak_combat.h"

#include <stdio.h>
#include <string.h>

#include "ak_battle.h"
#include "ak_capture.h"
#include "ak_zoc.h"

void ak_eliminate(struct ak_state *s, int u, int reason, struct ak_events *ev)
{
    struct ak_unit *x = &s->unit[u];
    ak_event_add(ev, AK_EV_ELIMINATED, ak_def(u)->side, u, AK_UNIT_NONE, x->hex, AK_HEX_NONE,
                 reason, 0, 0);
    x->where = ak_def(u)->type == AK_TYPE_SUPPLY ? AK_AT_POOL : AK_AT_DEAD;
    x->hex = AK_HEX_NONE;
    x->flags = 0;
}

int ak_combat_units_left(const struct ak_state *s, int side)
{
    int n = 0;
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == side && ak_unit_is_combat(ak_def(u)) &&
            (s->unit[u].where == AK_AT_BOARD || s->unit[u].where == AK_AT_SEA))
            n++;
    return n;
}

/* The first enemy unit whose zone obliges a battle from h, or -1. */
static int obliging_enemy(const struct ak_state *s, int side, ak_hex h, bool unfought_only)
{
    for (int e = 0; e < s->units; e++)
        if (ak_def(e)->side != side && ak_battle_zoc(s, e, h) &&
            (!unfought_only || s->unit[e].battle == 0))
            return e;
    return -1;
}

/* The mover's isolation map (ak_isolation_map), computed only when some
 * unit of his began the turn isolated (the only case where it changes
 * anything in combat). */
static const uint8_t *lines_if_needed(const struct ak_state *s)
{
    static uint8_t line[AK_HEX_COUNT];
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == s->side && s->unit[u].isolated && ak_on_board(s, u)) {
            ak_isolation_map(s, s->side, line);
            return line;
        }
    return NULL;
}

int ak_combat_owed(const struct ak_state *s, uint8_t *out, int max)
{
    static uint8_t zone[AK_HEX_COUNT];
    const uint8_t *line = lines_if_needed(s);
    ak_battle_zone_map(s, s->side, zone);      /* obliging_enemy for every square at once */
    int n = 0;
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit *x = &s->unit[u];
        if (ak_def(u)->side != s->side || !ak_on_board(s, u) || !ak_unit_is_combat(ak_def(u)) ||
            x->battle || (x->isolated && line && ak_isolated(s, u, line)) || !zone[x->hex])
            continue;
        if (n < max)
            out[n] = (uint8_t)u;
        n++;
    }
    return n;
}

bool ak_combat_obligations_met(const struct ak_state *s, struct ak_reject *rej)
{
    char h[8];
    uint8_t owed[1];
    if (ak_combat_owed(s, owed, 1) > 0) {
        int u = owed[0], e = obliging_enemy(s, s->side, s->unit[owed[0]].hex, false);
        return ak_reject(rej, "ATTACKING-6", "%s at %s stands in the zone of control of %s and must attack (or, if it cannot attack at 1-6, be removed)",
                         ak_def(u)->shortname, ak_hex_format(s->unit[u].hex, h), ak_def(e)->shortname);
    }
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit *x = &s->unit[u];
        if (ak_def(u)->side != s->side || !ak_on_board(s, u) || !x->battle)
            continue;
        int e = obliging_enemy(s, s->side, x->hex, true);
        if (e >= 0)
            return ak_reject(rej, "MULTI-3a", "%s attacks from %s, in the zone of %s, so %s must be fought as well",
                             ak_def(u)->shortname, ak_hex_format(x->hex, h), ak_def(e)->shortname,
                             ak_def(e)->shortname);
        if (ak_map()->terrain[x->hex] != AK_TERRAIN_FORTRESS)
            continue;
        for (int e2 = 0; e2 < s->units; e2++)
            if (ak_def(e2)->side != s->side && ak_on_board(s, e2) &&
                ak_unit_is_combat(ak_def(e2)) && !s->unit[e2].battle &&
                ak_adjacent(s->unit[e2].hex, x->hex))
                return ak_reject(rej, "FORTRESS-2", "%s sorties from the fortress %s, so every adjacent enemy unit must be attacked, %s too",
                                 ak_def(u)->shortname, ak_hex_format(x->hex, h), ak_def(e2)->shortname);
    }
    return true;
}

void ak_combat_result_name(const struct ak_state *s, int b, char *buf, int len)
{
    const struct ak_battle *t = &s->battle[b];
    snprintf(buf, (size_t)len, "%s", t->resolved ? ak_crt_result_name(t->result) : "");
}

bool ak_combat_split_sides(const struct ak_state *s, const struct ak_action *a, uint8_t *att,
                        int *na, uint8_t *def, int *nd, struct ak_reject *rej)
{
    *na = *nd = 0;
    for (int i = 0; i < a->nunits; i++) {
        for (int j = 0; j < i; j++)
            if (a->units[j] == a->units[i])
                return ak_reject(rej, "ACTION", "%s is named twice", ak_def(a->units[i])->shortname);
        int u = a->units[i];
        if (ak_def(u)->side == s->side)
            att[(*na)++] = (uint8_t)u;
        else
            def[(*nd)++] = (uint8_t)u;
    }
    if (*na == 0 || *nd == 0)
        return ak_reject(rej, "COMBAT", "a battle names attacking units of yours and the enemy units they attack");
    return true;
}

static bool units_can_fight(const struct ak_state *s, const uint8_t *units, int n, bool attacking,
                            struct ak_reject *rej)
{
    const uint8_t *line = attacking ? lines_if_needed(s) : NULL;
    for (int i = 0; i < n; i++) {
        int u = units[i];
        const struct ak_unit *x = &s->unit[u];
        if (!ak_on_board(s, u) || !ak_unit_is_combat(ak_def(u)))
            return ak_reject(rej, "COMBAT", "%s is not a combat unit on the board", ak_def(u)->shortname);
        if (x->battle)
            return ak_reject(rej, attacking ? "MULTI-8" : "MULTI-9",
                             "%s is already in battle %d; no unit %s more than one battle per turn",
                             ak_def(u)->shortname, x->battle, attacking ? "fights" : "is fought in");
        if (attacking && x->isolated && line && ak_isolated(s, u, line))
            return ak_reject(rej, "ISOLATION-2", "%s has been isolated since the start of the turn (encircled: no supply line, no way to the home base) and cannot attack",
                             ak_def(u)->shortname);
    }
    return true;
}

bool ak_combat_positions_ok(const struct ak_state *s, const uint8_t *att, int na, const uint8_t *def, int nd,
                            struct ak_reject *rej)
{
    char h1[8], h2[8];
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nd; j++)
            if (!ak_adjacent(s->unit[att[i]].hex, s->unit[def[j]].hex))
                return ak_reject(rej, "MULTI-3b", "%s at %s is not next to %s at %s; every attacker must be in the zone of every defender of its battle",
                                 ak_def(att[i])->shortname, ak_hex_format(s->unit[att[i]].hex, h1),
                                 ak_def(def[j])->shortname, ak_hex_format(s->unit[def[j]].hex, h2));
    for (int j = 0; j < nd; j++) {
        ak_hex h = s->unit[def[j]].hex;
        if (ak_map()->terrain[h] != AK_TERRAIN_FORTRESS)
            continue;
        for (int e = 0; e < s->units; e++) {
            bool named = false;
            for (int k = 0; k < nd && !named; k++)
                named = def[k] == e;
            if (!named && s->unit[e].where == AK_AT_BOARD && s->unit[e].hex == h &&
                ak_unit_is_combat(ak_def(e)) && ak_def(e)->side == ak_def(def[j])->side)
                return ak_reject(rej, "FORTRESS-1", "an attack on the fortress %s takes on every unit in it, %s too",
                                 ak_hex_format(h, h1), ak_def(e)->shortname);
        }
    }
    return true;
}

static bool supply_ok(const struct ak_state *s, int sup, const uint8_t *att, int na,
                      const uint8_t *def, int nd, int column, struct ak_reject *rej)
{
    char h[8];
    if (column <= AK_ODDS_FREE_MAX)
        return true;
    if (sup == AK_UNIT_NONE)
        return ak_reject(rej, "SUSTAIN-7", "an attack at %s needs a supply unit: state which one sustains it (only 1-3 or worse goes without)",
                         ak_odds_name(column));
    if (sup >= s->units || ak_def(sup)->side != s->side || ak_def(sup)->type != AK_TYPE_SUPPLY ||
        !ak_on_board(s, sup))
        return ak_reject(rej, "SUSTAIN-3", "%s is not one of your supply units on the board",
                         sup < s->units ? ak_def(sup)->shortname : "?");
    for (int i = 0; i < na; i++)
        if (!ak_supply_reaches(s, sup, s->unit[att[i]].hex, def, nd))
            return ak_reject(rej, "SUSTAIN-1", "%s at %s is not within 5 squares of %s by a route free of enemy zones of control",
                             ak_def(att[i])->shortname, ak_hex_format(s->unit[att[i]].hex, h),
                             ak_def(sup)->shortname);
    return true;
}

static void record_battle(struct ak_state *s, int sup, const uint8_t *att, int na,
                          const uint8_t *def, int nd, int attack, int defense, int column)
{
    int b = s->nbattles++;
    struct ak_battle *t = &s->battle[b];
    memset(t, 0, sizeof *t);
    t->supply = (uint8_t)(column > AK_ODDS_FREE_MAX ? sup : AK_UNIT_NONE);
    t->column = (uint8_t)column;
    t->attack = (uint8_t)attack;
    t->defense = (uint8_t)defense;
    for (int i = 0; i < na; i++)
        s->unit[att[i]].battle = (uint8_t)(b + 1);
    for (int j = 0; j < nd; j++) {
        ak_hex h = s->unit[def[j]].hex;
        s->unit[def[j]].battle = (uint8_t)(b + 1);
        bool seen = false;
        for (int k = 0; k < t->ndef_hex && !seen; k++)
            seen = t->def_hex[k] == h;
        if (!seen && t->ndef_hex < AK_BATTLE_HEXES)
            t->def_hex[t->ndef_hex++] = h;
    }
}

bool ak_combat_battle(const struct ak_ruleset *r, struct ak_state *s,
                      const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej)
{
    (void)r;
    uint8_t att[AK_GROUP_MAX], def[AK_GROUP_MAX];
    int na, nd, attack = 0, defense = 0;
    if (s->nbattles >= AK_BATTLE_MAX)
        return ak_reject(rej, "ACTION", "no more than %d battles in one turn", AK_BATTLE_MAX);
    if (!ak_combat_split_sides(s, a, att, &na, def, &nd, rej) || !units_can_fight(s, att, na, true, rej) ||
        !units_can_fight(s, def, nd, false, rej) || !ak_combat_positions_ok(s, att, na, def, nd, rej))
        return false;
    bool surrounded = true;
    for (int i = 0; i < na; i++)
        attack += ak_def(att[i])->attack;
    for (int j = 0; j < nd; j++) {
        defense += ak_defense_now(s, def[j]);
        surrounded = surrounded && ak_surrounded(s, s->unit[def[j]].hex, !s->side);
    }
    int column = ak_odds_column(attack, defense, surrounded);
    if (column == AK_ODDS_TOO_LOW)
        return ak_reject(rej, "MULTI-6", "%d to %d is worse than 1 to 6; no battle, soak-off included, is fought at such odds",
                         attack, defense);
    if (!supply_ok(s, a->supply, att, na, def, nd, column, rej))
        return false;
    record_battle(s, a->supply, att, na, def, nd, attack, defense, column);
    ak_event_add(ev, AK_EV_BATTLE_DECLARED, s->side, att[0], def[0], s->unit[att[0]].hex,
                 s->unit[def[0]].hex, s->nbattles, attack, defense);
    struct ak_event *e = ak_event_last(ev);
    if (e)
        e->d = (int16_t)column;
    return true;
}

bool ak_combat_cancel(const struct ak_ruleset *r, struct ak_state *s,
                      const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej)
{
    (void)r;
    int b = a->battle;
    if (b >= s->nbattles)
        return ak_reject(rej, "ACTION", "there is no battle %d", b + 1);
    if (s->combat_locked)
        return ak_reject(rej, "ATTACKING-4", "battles are being resolved; declarations can no longer change");
    for (int u = 0; u < s->units; u++) {
        uint8_t *t = &s->unit[u].battle;
        if (*t == b + 1)
            *t = 0;
        else if (*t > b + 1)
            (*t)--;
    }
    memmove(&s->battle[b], &s->battle[b + 1], sizeof s->battle[0] * (size_t)(s->nbattles - b - 1));
    s->nbattles--;
    ak_event_add(ev, AK_EV_BATTLE_CANCELLED, s->side, AK_UNIT_NONE, AK_UNIT_NONE, AK_HEX_NONE,
                 AK_HEX_NONE, b + 1, 0, 0);
    return true;
}

bool ak_combat_abandon(const struct ak_ruleset *r, struct ak_state *s,
                       const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej)
{
    (void)r;
    if (s->combat_locked)
        return ak_reject(rej, "MULTI-6", "units are removed before any battle is resolved");
    if (a->nunits < 1)
        return ak_reject(rej, "ACTION", "name the units to remove");
    for (int i = 0; i < a->nunits; i++) {
        int u = a->units[i];
        if (ak_def(u)->side != s->side || !ak_on_board(s, u) || !ak_unit_is_combat(ak_def(u)))
            return ak_reject(rej, "MOVE-1", "%s is not your combat unit on the board", ak_def(u)->shortname);
        if (s->unit[u].battle)
            return ak_reject(rej, "MULTI-6", "%s is in battle %d; cancel the battle first",
                             ak_def(u)->shortname, s->unit[u].battle);
        if (obliging_enemy(s, s->side, s->unit[u].hex, false) < 0)
            return ak_reject(rej, "MULTI-6", "%s is in no enemy zone of control; only a unit that must attack may be removed",
                             ak_def(u)->shortname);
    }
    for (int i = 0; i < a->nunits; i++)
        ak_eliminate(s, a->units[i], AK_ELIM_ABANDONED, ev);
    return true;
}

void ak_combat_finish(struct ak_state *s, struct ak_events *ev)
{
    /* CAPTURE 4: after combat, units next to enemy supply capture it,
     * before the attacker's used supply leaves the board. */
    ak_capture_sweep(s, ev);
    for (int b = 0; b < s->nbattles; b++) {
        int sup = s->battle[b].supply;
        if (sup == AK_UNIT_NONE || !ak_on_board(s, sup) || ak_def(sup)->side != s->side)
            continue;
        ak_event_add(ev, AK_EV_SUPPLY_USED, s->side, sup, AK_UNIT_NONE, s->unit[sup].hex,
                     AK_HEX_NONE, 0, 0, 0);
        s->unit[sup].where = AK_AT_POOL;
        s->unit[sup].hex = s->unit[sup].start_hex = AK_HEX_NONE;
    }
}

struct ak_battle *ak_combat_unfought(struct ak_state *s, const struct ak_action *a, const char *fought_code,
                                     struct ak_reject *rej)
{
    int b = a->battle;
    if (b >= s->nbattles)
        return ak_reject(rej, "ACTION", "there is no battle %d", b + 1), NULL;
    if (s->battle[b].resolved)
        return ak_reject(rej, fought_code, "battle %d has been fought", b + 1), NULL;
    return &s->battle[b];
}
