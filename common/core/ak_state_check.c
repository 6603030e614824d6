/* ak_state_check: is a state one the engine can safely work on?
 *
 * The engine indexes arrays with the hexes, unit numbers, battle numbers
 * and enumerations held in a state, and trusts them: it never re-checks a
 * hex on every neighbour lookup. A state made by the engine itself always
 * holds good values; a state read from outside (a training position, a
 * game record, a snapshot stored in the database, a scenario file) may
 * not. Every loader calls ak_state_check before the engine sees the state,
 * so a bad file is refused with a sentence instead of writing outside an
 * array. The check is about values the engine relies on, not about whether
 * the position could arise in play (an overstacked square is legal input
 * for a training position; a unit on square Z99 is not).
 */
#include "ak_rules.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ak_battle.h"
#include "ak_crt_table.h"

static bool bad(char *err, int errlen, const char *fmt, ...)
{
    if (err && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, (size_t)errlen, fmt, ap);
        va_end(ap);
    }
    return false;
}

bool ak_hex_on_map(ak_hex h)
{
    return h >= 0 && h < AK_HEX_COUNT && ak_map()->terrain[h] != AK_TERRAIN_OFFBOARD;
}

bool ak_hex_playable(ak_hex h)
{
    if (!ak_hex_on_map(h))
        return false;
    int t = ak_map()->terrain[h];
    return t != AK_TERRAIN_SEA && t != AK_TERRAIN_QATTARA;
}

static bool side_or_nobody(int v)
{
    return v == AK_AXIS || v == AK_ALLIED || v == AK_NOBODY;
}

static bool check_unit(const struct ak_state *s, int u, char *err, int errlen)
{
    const struct ak_unit *x = &s->unit[u];
    const char *name = ak_def(u)->shortname;
    if (x->where > AK_AT_WITHDRAWN)
        return bad(err, errlen, "unit %s is in no known place", name);
    if (x->where == AK_AT_BOARD && !ak_hex_playable(x->hex))
        return bad(err, errlen, "unit %s is on the board but not on a square a unit may occupy", name);
    if (x->where == AK_AT_SEA && !ak_hex_on_map(x->hex))
        return bad(err, errlen, "unit %s is at sea without a port it sailed from", name);
    if (x->where != AK_AT_BOARD && x->where != AK_AT_SEA && x->hex != AK_HEX_NONE &&
        !ak_hex_on_map(x->hex))
        return bad(err, errlen, "unit %s names a square not on the map", name);
    if (x->start_hex != AK_HEX_NONE && !ak_hex_on_map(x->start_hex))
        return bad(err, errlen, "unit %s started the turn on a square not on the map", name);
    if (x->battle > s->nbattles)
        return bad(err, errlen, "unit %s is in battle %d of %d", name, x->battle, s->nbattles);
    if (x->isolated > 2)
        return bad(err, errlen, "unit %s has been isolated %d turns (at most 2 are counted)", name,
                   x->isolated);
    if (x->marks & ~AK_MARK_ALL)
        return bad(err, errlen, "unit %s carries unknown marks", name);
    if ((x->marks & AK_MARK_IN_BOX) && x->where != AK_AT_POOL)
        return bad(err, errlen, "unit %s is in its off-board box and somewhere else", name);
    if ((x->marks & AK_MARK_ISOLATED) && !(x->marks & AK_MARK_OOS))
        return bad(err, errlen, "unit %s is isolated but not out of supply", name);
    if (x->reduced > 1)
        return bad(err, errlen, "unit %s is reduced %d times (a unit has at most two steps)", name, x->reduced);
    if (x->reduced && (!ak_ruleset_get(s->ruleset)->two_step_units || ak_steps_of(ak_def(u)->attack) < 2))
        return bad(err, errlen, "unit %s is reduced but has no reduced side%s", name,
                   ak_ruleset_get(s->ruleset)->two_step_units ? " (two attack factors or less: one step)"
                                                               : " in these rules");
    if (x->sea_turn > s->turn)
        return bad(err, errlen, "unit %s put to sea on a later turn", name);
    return true;
}

static bool check_battle(const struct ak_state *s, int b, char *err, int errlen)
{
    const struct ak_battle *t = &s->battle[b];
    if (t->supply != AK_UNIT_NONE && t->supply >= s->units)
        return bad(err, errlen, "battle %d names an unknown supply unit", b + 1);
    /* The operator's table (Updated ruleset) has up to 16 columns and a
     * die of 2 to 12; the 1964 one 11 columns and one die. */
    bool table = ak_ruleset_get(s->ruleset)->needs_crt_table;
    if (t->column > (table ? AK_CRT_TABLE_COLUMNS - 1 : AK_ODDS_AUTO) || t->roll > (table ? 12 : 6) ||
        t->result > AK_CRT_DE || t->resolved > 1)
        return bad(err, errlen, "battle %d has odds, a die or a result out of range", b + 1);
    if (t->ndef_hex > AK_BATTLE_HEXES)
        return bad(err, errlen, "battle %d has too many defending squares", b + 1);
    for (int i = 0; i < t->ndef_hex; i++)
        if (!ak_hex_on_map(t->def_hex[i]))
            return bad(err, errlen, "battle %d has a defending square not on the map", b + 1);
    return true;
}

/* No square holds combat units of both sides (a move onto an enemy is
 * refused; a supply unit may stand among enemy combat units: a captured
 * one is replaced "on the spot", CAPTURE 2, even next to them); a box
 * stands where its side's enemy holds no combat unit, one a square (it is
 * gone once the enemy enters, BOXES 3); supply spent on attacks belongs
 * to the combat phase. */
static bool squares_consistent(const struct ak_state *s, char *err, int errlen)
{
    static uint8_t held[AK_HEX_COUNT];
    char h[8];
    memset(held, 0, sizeof held);
    for (int u = 0; u < s->units; u++)
        if (s->unit[u].where == AK_AT_BOARD && ak_unit_is_combat(ak_def(u)))
            held[s->unit[u].hex] |= (uint8_t)(1u << ak_def(u)->side);
    for (int u = 0; u < s->units; u++)
        if (s->unit[u].where == AK_AT_BOARD && held[s->unit[u].hex] == 3)
            return bad(err, errlen, "%s holds combat units of both sides", ak_hex_format(s->unit[u].hex, h));
    for (int i = 0; i < s->nboxes; i++) {
        if (held[s->box[i].hex] & (1u << !s->box[i].side))
            return bad(err, errlen, "the box at %s is held by the enemy", ak_hex_format(s->box[i].hex, h));
        for (int k = 0; k < i; k++)
            if (s->box[k].hex == s->box[i].hex)
                return bad(err, errlen, "two boxes at %s", ak_hex_format(s->box[i].hex, h));
    }
    if (s->nattack_supply && s->phase != AK_PHASE_COMBAT && s->phase != AK_PHASE_OVER)
        return bad(err, errlen, "%s", "supply spent on attacks outside the combat phase");
    return true;
}

bool ak_state_check(const struct ak_state *s, char *err, int errlen)
{
    const struct ak_data *d = ak_data();
    if (s->ruleset >= ak_ruleset_count())
        return bad(err, errlen, "unknown ruleset %d", s->ruleset);
    if (s->units != d->units)
        return bad(err, errlen, "the state has %d units, the game %d", s->units, d->units);
    if (s->turn < 1 || s->turn > d->scenario.turns)
        return bad(err, errlen, "turn %d is not between 1 and %d", s->turn, d->scenario.turns);
    const struct ak_ruleset *r = ak_ruleset_get(s->ruleset);
    if (s->phase >= AK_PHASES || !(r->phases & (1u << s->phase)))
        return bad(err, errlen, "unknown portion of the turn");
    /* Pools, marks and flags belong to the editions with a supply phase. */
    bool supply_phase = r->phases & (1u << AK_PHASE_SUPPLY);
    if (!supply_phase && (s->flags || s->pool[0][0] || s->pool[0][1] || s->pool[1][0] || s->pool[1][1]))
        return bad(err, errlen, "replacement pools and supply flags are not part of the %s rules", r->name);
    for (int u = 0; u < s->units && !supply_phase; u++)
        if (s->unit[u].marks)
            return bad(err, errlen, "unit %s carries supply marks, not part of the %s rules", ak_def(u)->shortname,
                       r->name);
    if (s->flags & ~AK_SF_ALL)
        return bad(err, errlen, "unknown state flags");
    if (s->nattack_supply > AK_ATTACK_SUPPLY_MAX || (s->nattack_supply && !supply_phase))
        return bad(err, errlen, "%d supply units spent on attacks", s->nattack_supply);
    if (s->nboxes > AK_BOX_MAX || (s->nboxes && !supply_phase))
        return bad(err, errlen, "%d boxes on the map", s->nboxes);
    for (int i = 0; i < s->nboxes; i++)
        if (!ak_hex_playable(s->box[i].hex) || s->box[i].side >= AK_SIDES)
            return bad(err, errlen, "a box on no square a unit may hold, or of no side");
    for (int i = 0; i < s->nattack_supply; i++)
        if (!ak_hex_on_map(s->attack_supply[i]))
            return bad(err, errlen, "a supply unit spent on attacks stood on no square of the map");
    if (s->side >= AK_SIDES && !(s->phase == AK_PHASE_OVER && s->side == AK_NOBODY))
        return bad(err, errlen, "no side is moving");
    if (s->result > AK_RESULT_DRAW || s->result_reason > AK_WIN_ADJUDICATION)
        return bad(err, errlen, "unknown result");
    if ((s->result != AK_RESULT_NONE) != (s->phase == AK_PHASE_OVER))
        return bad(err, errlen, "a result is given exactly when the game is over");
    if (s->supply_roll > 6)
        return bad(err, errlen, "supply table roll %d is not a die", s->supply_roll);
    for (int k = 0; k < AK_KEYS; k++)
        if (!side_or_nobody(s->control[k]))
            return bad(err, errlen, "a key square is controlled by an unknown side");
    if (s->nbattles > AK_BATTLE_MAX)
        return bad(err, errlen, "%d battles declared (at most %d)", s->nbattles, AK_BATTLE_MAX);
    if (s->combat_locked > 1)
        return bad(err, errlen, "malformed combat lock");
    if (s->pending.stage > AK_STAGE_END || s->pending.percent > AK_LOSS_ATTRITION ||
        (s->pending.hex != AK_HEX_NONE && s->pending.hex != 0 && !ak_hex_on_map(s->pending.hex)) || s->pending.retreat > 9)
        return bad(err, errlen, "a malformed decision");
    /* An attrition loss belongs to a square of the supply phase, not a battle. */
    bool attrition = s->pending.kind == AK_PEND_LOSSES && s->pending.percent == AK_LOSS_ATTRITION;
    if (attrition && (s->phase != AK_PHASE_SUPPLY || s->pending.battle || !ak_hex_playable(s->pending.hex)))
        return bad(err, errlen, "an attrition loss owed outside the supply phase or on no square");
    if (s->pending.kind > AK_PEND_LOSSES ||
        (s->pending.kind && (s->pending.side >= AK_SIDES || (!attrition && s->pending.battle >= s->nbattles))))
        return bad(err, errlen, "a decision is owed for no battle or by no side");
    for (int b = 0; b < s->nbattles; b++)
        if (!check_battle(s, b, err, errlen))
            return false;
    for (int u = 0; u < s->units; u++)
        if (!check_unit(s, u, err, errlen))
            return false;
    if (!squares_consistent(s, err, errlen))
        return false;
    /* Battles, their lock and owed decisions belong to a combat portion
     * (or to a game that ended during one). */
    bool attrition_owed = s->pending.kind == AK_PEND_LOSSES && s->pending.percent == AK_LOSS_ATTRITION;
    if ((s->nbattles || s->combat_locked || (s->pending.kind && !attrition_owed)) && s->phase != AK_PHASE_COMBAT &&
        s->phase != AK_PHASE_OVER)
        return bad(err, errlen, "battles or a decision outside the combat portion");
    return true;
}
