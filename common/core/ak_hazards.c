/* ak_hazards: the dangers the rules hold for the player to move (see
 * ak_hazards.h): the list and its sentences, the checks both rulesets
 * share, and the door that asks the game's ruleset for its own checks
 * (ak_hazards_classic.c, ak_hazards_updated.c: the ruleset table's
 * `hazards`). Each check reads the same state and the same rule functions
 * the engine judges with, so a warning and the verdict that follows it
 * cannot disagree. */
#include "ak_hazards.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ak_battle.h"
#include "ak_engine.h"
#include "ak_hazards_internal.h"

static const char *const kind_names[AK_HZ_KINDS] = {
    "supply_unplaced", "reinforcements_lost", "at_sea", "port", "no_supply",
    "isolated", "out_of_reach", "battles_owed", "cannot_end",
    "key_squares", "out_of_supply", "attrition", "box_lost", "attack_supply_unused", "battle_odds",
};

const char *ak_hazard_kind_name(int kind)
{
    return kind >= 0 && kind < AK_HZ_KINDS ? kind_names[kind] : "?";
}

struct ak_hazard *ak_hz_add(struct ak_hz_list *l, int kind, const char *code, int bites_at, const char *fmt, ...)
{
    static struct ak_hazard spare;
    if (l->n >= l->max)
        return &spare;      /* full: later ones are dropped, not written out of bounds */
    struct ak_hazard *h = &l->out[l->n++];
    memset(h, 0, sizeof *h);
    h->kind = (uint8_t)kind;
    h->bites_at = (uint8_t)bites_at;
    h->hex = AK_HEX_NONE;
    h->code = code;
    h->section = ak_rule_section(code);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(h->text, sizeof h->text, fmt, ap);
    va_end(ap);
    return h;
}

/* "21pz5, 15pz8 and ariete" for a sentence; also copies the units. */
static const char *hz_units(struct ak_hazard *h, const uint8_t *units, int n, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && h->nunits < AK_HAZARD_UNITS; i++)
        h->units[h->nunits++] = units[i];
    for (int i = 0; i < n; i++) {
        int k = snprintf(buf + at, len - at, "%s%s", i == 0 ? "" : i == n - 1 ? " and " : ", ",
                         ak_def(units[i])->shortname);
        if (k < 0 || (size_t)k >= len - at)
            break;      /* the sentence is cut; the list of units is whole */
        at += (size_t)k;
    }
    return buf;
}

struct ak_hazard *ak_hz_units(struct ak_hz_list *l, int kind, const char *code, int bites_at,
                              const uint8_t *units, int n, const char *fmt)
{
    char names[160];
    struct ak_hazard *h = ak_hz_add(l, kind, code, bites_at, "%s", "");
    hz_units(h, units, n, names, sizeof names);
    snprintf(h->text, sizeof h->text, fmt, names, n > 1 ? "are" : "is");
    return h;
}

bool ak_hz_has_code(const struct ak_hz_list *l, const char *code)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->out[i].code, code) == 0)
            return true;
    return false;
}

/* HOW TO WIN: the enemy held both fortresses and both home bases at the
 * start of its last turn; holding them again at the start of its next one
 * wins. The same in both rulesets (the Updated one keeps the 1964 victory:
 * docs/rules-notes.md). */
static void key_squares(struct ak_hz_list *l)
{
    const struct ak_state *s = l->s;
    int enemy = !s->side;
    if (s->hold_turns[enemy] < 1)
        return;
    for (int k = 0; k < AK_KEYS; k++)   /* one taken back already: judged so at its next turn's start */
        if (ak_control_now(s, k) != enemy)
            return;
    struct ak_hazard *h = ak_hz_add(l, AK_HZ_KEY_SQUARES, "WIN", AK_ACT_END_TURN,
        "The %s held both fortresses and both home bases at the start of %s last turn and still does: holding "
        "them at the start of the next, %s win%s. Take one back this turn (a unit of yours in a fortress, or a home base "
        "entered or put in your zone of control)", enemy == AK_AXIS ? "Axis" : "Allies",
        enemy == AK_AXIS ? "its" : "their", enemy == AK_AXIS ? "it" : "they", enemy == AK_AXIS ? "s" : "");
    h->count = s->hold_turns[enemy];
    h->of = 2;
}

/* Why the phase cannot end right now, unless a hazard above says so. */
static void cannot_end(struct ak_hz_list *l)
{
    const struct ak_state *s = l->s;
    int kind = ak_ending_action(s);
    struct ak_action end = {.kind = (uint8_t)kind, .side = s->side, .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
    struct ak_reject rej;
    if (ak_try(s, &end, &rej) || ak_hz_has_code(l, rej.code))
        return;
    ak_hz_add(l, AK_HZ_CANNOT_END, rej.code, 0, "The %s cannot end yet: %s", ak_phase_words(s), rej.text);
}

/* Each battle the mover declared and has not fought: what the die can do,
 * result by result, in chances out of the die's faces, read from the
 * game's own table (ak_battle_preview), so the player sees the risk to
 * his attackers before he rolls. Listed last: the cap on hazards drops
 * these before any other. */
static void battle_odds(struct ak_hz_list *l)
{
    const struct ak_state *s = l->s;
    for (int b = 0; b < s->nbattles; b++) {
        uint8_t att[AK_GROUP_MAX], def[AK_GROUP_MAX];
        int na, nd;
        if (s->battle[b].resolved)
            continue;
        ak_battle_sides(s, b, att, &na, def, &nd);
        struct ak_battle_preview p;
        ak_ruleset_get(s->ruleset)->declared_preview(s, b, &p);
        if (!p.known || !p.allowed || p.nresults == 0)
            continue;
        struct ak_hazard *h = ak_hz_add(l, AK_HZ_BATTLE_ODDS, "COMBAT", 0, "Battle %d at %s, the die decides:",
                                        b + 1, p.odds);
        for (int i = 0; i < p.nresults; i++) {
            size_t len = strlen(h->text);
            snprintf(h->text + len, sizeof h->text - len, "%s %s %d in %d", i ? "," : "", p.result[i].name,
                     p.result[i].chances, p.faces);
        }
        for (int i = 0; i < na + nd && h->nunits < AK_HAZARD_UNITS; i++)
            h->units[h->nunits++] = i < na ? att[i] : def[i - na];
        h->hex = s->battle[b].ndef_hex > 0 ? s->battle[b].def_hex[0] : AK_HEX_NONE;
    }
}

int ak_hazards(const struct ak_state *s, struct ak_hazard *out, int max)
{
    struct ak_hz_list l = {.s = s, .out = out, .n = 0, .max = max};
    if (s->phase == AK_PHASE_OVER || s->pending.kind || ak_waiting_for(s) != s->side)
        return 0;
    ak_ruleset_get(s->ruleset)->hazards(&l);
    key_squares(&l);
    cannot_end(&l);
    battle_odds(&l);
    return l.n;
}
