/* ak_updated_combat: the Updated ruleset's combat phase (seed 003, NEW
 * COMBAT SYSTEM 1-7, TERRAIN EFFECTS 1-2, COMBAT PHASE).
 *
 *   - Attack supply: the mover spends a supply unit (`supply_attacks`) and
 *     every unit of his within 5 squares of where it stood may attack this
 *     phase; a second one may bombard one battle (+1), once a phase.
 *   - Battles are voluntary; each unit attacks or is attacked once a
 *     phase, attackers next to every defender, a fortress taken whole.
 *     They are fought one at a time, in the order the mover likes, each
 *     finished before the next is fought.
 *   - Strength: a unit's factors halved (rounding up) when reduced,
 *     halved exactly out of supply, infantry doubled in Tobruch and
 *     Bengasi; +1 for each defending escarpment square. Kept in half
 *     points. The table's column by the odds, rounded for the defender.
 *   - Die modifiers: armor advantage of the defender (-1) or the attacker
 *     (+1), bombardment (+1); the roll is clamped to the table's rows.
 *   - Losses: a requirement in strength points of the column's counted
 *     side (ak_losses.c), met by the losing side's choice of reductions
 *     and eliminations among its engaged units (`losses`); the excess
 *     that meeting it forces goes to a replacement pool. Exchanges: the
 *     defender loses all (EX) or half (HX), then the attacker at least as
 *     many factors as the defender removed.
 *
 * The table itself is the operator's (akd's updated_crt), read from a
 * file and attached to each game's state (ak_crt_attach): a game keeps
 * the table it was started on even when the operator loads another for
 * later games. Without one no battle can be declared. Readings in
 * docs/rules-notes.md; retreats and the advance after combat are built in
 * ak_updated_retreat.c. */
#include <stdio.h>
#include <string.h>

#include "ak_battle.h"
#include "ak_combat.h"
#include "ak_losses.h"
#include "ak_updated.h"
#include "ak_zoc.h"

#define SUPPLY_RANGE 5  /* NEW COMBAT SYSTEM 3, COMBAT PHASE */

const char *ak_updated_odds_name(const struct ak_state *s, int column)
{
    static char buf[8];
    const struct ak_crt_table *table = ak_crt_of(s);
    if (!table || column < 0 || column >= table->ncolumns)
        return "?";
    snprintf(buf, sizeof buf, "%d-%d", table->odds[column].attack, table->odds[column].defense);
    return buf;
}

/* A battle event's odds in d (ak_rules.h: AK_EV_TABLE_ODDS). */
static void event_odds(struct ak_events *ev, int kind, const struct ak_crt_table *table, int column)
{
    struct ak_event *e = ak_event_last(ev);
    if (e && e->kind == kind)
        e->d = (int16_t)(AK_EV_TABLE_ODDS + table->odds[column].attack * 100 + table->odds[column].defense);
}

/* ---- strength ---------------------------------------------------------- */

int ak_updated_step_factor(const struct ak_state *s, int u, bool attacking)
{
    int f = attacking ? ak_def(u)->attack : ak_def(u)->defense;
    return s->unit[u].reduced ? ak_reduced_factor(f) : f;
}

static bool fortress_infantry(const struct ak_state *s, int u)
{
    return ak_def(u)->type == AK_TYPE_INFANTRY && ak_map()->terrain[s->unit[u].hex] == AK_TERRAIN_FORTRESS;
}

int ak_updated_loss_factor(const struct ak_state *s, int u, bool attacking)
{
    int f = ak_updated_step_factor(s, u, attacking);
    return !attacking && fortress_infantry(s, u) ? 2 * f : f;
}

/* The factor as it fights, in half points: out of supply halves it. */
static int fighting_halves(const struct ak_state *s, int u, bool attacking)
{
    int f = 2 * ak_updated_loss_factor(s, u, attacking);
    return (s->unit[u].marks & AK_MARK_OOS) ? f / 2 : f;
}

void ak_updated_figures(const struct ak_state *s, const uint8_t *att, int na, const uint8_t *def, int nd,
                        bool bombard, struct ak_updated_figures *f)
{
    memset(f, 0, sizeof *f);
    ak_hex seen[AK_GROUP_MAX];
    int nseen = 0;
    for (int i = 0; i < na; i++) {
        f->attack2 += fighting_halves(s, att[i], true);
        f->attack_loss += ak_updated_loss_factor(s, att[i], true);
        if (ak_def(att[i])->type == AK_TYPE_ARMOR)
            f->armor_attack2 += fighting_halves(s, att[i], true);
    }
    for (int i = 0; i < nd; i++) {
        ak_hex h = s->unit[def[i]].hex;
        f->defense2 += fighting_halves(s, def[i], false);
        f->defense_loss += ak_updated_loss_factor(s, def[i], false);
        if (ak_def(def[i])->type == AK_TYPE_ARMOR)
            f->armor_defense2 += fighting_halves(s, def[i], false);
        bool counted = false;
        for (int k = 0; k < nseen; k++)
            counted |= seen[k] == h;
        /* TERRAIN EFFECTS 1: +1 per escarpment or box square defended,
         * whatever holds it (never both: boxes are only in clear terrain);
         * the defenders' own boxes (a preview may be asked off-turn). */
        if (!counted && (ak_map()->terrain[h] == AK_TERRAIN_ESCARPMENT || ak_updated_box_at(s, h, ak_def(def[i])->side) >= 0)) {
            seen[nseen++] = h;
            f->terrain += 1;
        }
    }
    f->defense2 += 2 * f->terrain;
    /* NEW COMBAT SYSTEM 2: armor advantage. */
    if (f->armor_defense2 > 0 && f->armor_attack2 < f->armor_defense2)
        f->drm -= 1;
    else if (f->armor_attack2 > 0 && f->armor_attack2 >= 3 * f->armor_defense2 && f->armor_attack2 >= f->defense2)
        f->drm += 1;
    f->armor_drm = f->drm;
    if (bombard)
        f->drm += 1;
    const struct ak_crt_table *table = ak_crt_of(s);
    f->column = table ? ak_crt_table_column(table, f->attack2, f->defense2 > 0 ? f->defense2 : 1) : -1;
}

/* ---- attack supply ----------------------------------------------------- */

static bool own_supply(const struct ak_state *s, int u)
{
    return ak_def(u)->side == s->side && ak_def(u)->type == AK_TYPE_SUPPLY && ak_on_board(s, u);
}

bool ak_updated_supply_attacks(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                               struct ak_events *ev, struct ak_reject *rej)
{
    (void)r;
    if (a->nunits != 1)
        return ak_reject(rej, "ACTION", "name one supply unit to spend on attacks");
    int su = a->units[0];
    if (!own_supply(s, su))
        return ak_reject(rej, "UPD-ATTACK-SUPPLY", "%s is not one of your supply units on the board", ak_def(su)->shortname);
    if (s->nattack_supply >= AK_ATTACK_SUPPLY_MAX)
        return ak_reject(rej, "UPD-ATTACK-SUPPLY", "%d supply units are already spent on attacks this phase",
                         s->nattack_supply);
    s->attack_supply[s->nattack_supply++] = s->unit[su].hex;
    ak_event_add(ev, AK_EV_SUPPLY_USED, s->side, su, AK_UNIT_NONE, s->unit[su].hex, AK_HEX_NONE, 0, 0, 0);
    s->unit[su].where = AK_AT_POOL;
    s->unit[su].hex = s->unit[su].start_hex = AK_HEX_NONE;
    return true;
}

static bool attack_supplied(const struct ak_state *s, int u)
{
    for (int i = 0; i < s->nattack_supply; i++)
        if (ak_hex_distance(s->attack_supply[i], s->unit[u].hex) <= SUPPLY_RANGE)
            return true;
    return false;
}

/* ---- declaring a battle ------------------------------------------------ */

static bool sides_of(const struct ak_state *s, const struct ak_action *a, uint8_t *att, int *na, uint8_t *def,
                     int *nd, struct ak_reject *rej)
{
    if (!ak_combat_split_sides(s, a, att, na, def, nd, rej))
        return false;
    for (int i = 0; i < a->nunits; i++) {
        int u = a->units[i];
        if (!ak_on_board(s, u) || !ak_unit_is_combat(ak_def(u)))
            return ak_reject(rej, "COMBAT", "%s is not a combat unit on the board", ak_def(u)->shortname);
        if (s->unit[u].battle)
            return ak_reject(rej, ak_def(u)->side == s->side ? "MULTI-8" : "MULTI-9",
                             "%s has already fought a battle this phase", ak_def(u)->shortname);
    }
    return true;
}

static bool placement_ok(const struct ak_state *s, const uint8_t *att, int na, const uint8_t *def, int nd,
                         struct ak_reject *rej)
{
    if (!ak_combat_positions_ok(s, att, na, def, nd, rej))    /* the 1964 placement rules, kept */
        return false;
    for (int i = 0; i < na; i++)
        if (!attack_supplied(s, att[i]))
            return ak_reject(rej, "UPD-ATTACK-SUPPLY", "%s is not within 5 squares of a supply unit spent on attacks this phase (supply_attacks first)",
                             ak_def(att[i])->shortname);
    return true;
}

static bool bombardment_ok(const struct ak_state *s, int su, const uint8_t *att, int na, struct ak_reject *rej)
{
    if (s->flags & AK_SF_BOMBARDED)
        return ak_reject(rej, "UPD-BOMBARD", "the bombardment of this combat phase is spent");
    if (!own_supply(s, su))
        return ak_reject(rej, "UPD-BOMBARD", "%s is not one of your supply units on the board", ak_def(su)->shortname);
    for (int i = 0; i < na; i++)
        if (ak_hex_distance(s->unit[su].hex, s->unit[att[i]].hex) <= SUPPLY_RANGE)
            return true;
    return ak_reject(rej, "UPD-BOMBARD", "%s is more than 5 squares from every attacker of the battle", ak_def(su)->shortname);
}

bool ak_updated_battle(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                       struct ak_events *ev, struct ak_reject *rej)
{
    (void)r;
    uint8_t att[AK_GROUP_MAX], def[AK_GROUP_MAX];
    int na, nd;
    const struct ak_crt_table *table = ak_crt_of(s);
    if (!table)
        return ak_reject(rej, "UPD-CRT", "the server has no combat results table for the Updated ruleset");
    if (s->nbattles >= AK_BATTLE_MAX)
        return ak_reject(rej, "COMBAT", "at most %d battles a phase", AK_BATTLE_MAX);
    if (!sides_of(s, a, att, &na, def, &nd, rej) || !placement_ok(s, att, na, def, nd, rej))
        return false;
    bool bombard = a->supply != AK_UNIT_NONE;
    if (bombard && !bombardment_ok(s, a->supply, att, na, rej))
        return false;
    struct ak_updated_figures f;
    ak_updated_figures(s, att, na, def, nd, bombard, &f);
    if (f.column < 0)
        return ak_reject(rej, "UPD-ODDS", "%d.%d against %d.%d is below the table's first column, %d-%d",
                         f.attack2 / 2, f.attack2 % 2 * 5, f.defense2 / 2, f.defense2 % 2 * 5,
                         table->odds[0].attack, table->odds[0].defense);
    int b = s->nbattles++;
    struct ak_battle *t = &s->battle[b];
    memset(t, 0, sizeof *t);
    t->supply = a->supply;
    t->column = (uint8_t)f.column;
    t->attack = (uint8_t)(f.attack2 > 255 ? 255 : f.attack2);
    t->defense = (uint8_t)(f.defense2 > 255 ? 255 : f.defense2);
    t->drm = (int8_t)f.drm;
    for (int i = 0; i < nd && t->ndef_hex < AK_BATTLE_HEXES; i++) {
        bool seen = false;
        for (int k = 0; k < t->ndef_hex; k++)
            seen |= t->def_hex[k] == s->unit[def[i]].hex;
        if (!seen)
            t->def_hex[t->ndef_hex++] = s->unit[def[i]].hex;
    }
    for (int i = 0; i < na; i++)
        s->unit[att[i]].battle = (uint8_t)(b + 1);
    for (int i = 0; i < nd; i++)
        s->unit[def[i]].battle = (uint8_t)(b + 1);
    if (bombard) {
        s->flags |= AK_SF_BOMBARDED;
        ak_event_add(ev, AK_EV_SUPPLY_USED, s->side, a->supply, AK_UNIT_NONE, s->unit[a->supply].hex, AK_HEX_NONE, 0,
                     0, 0);
        s->unit[a->supply].where = AK_AT_POOL;
        s->unit[a->supply].hex = s->unit[a->supply].start_hex = AK_HEX_NONE;
    }
    ak_event_add(ev, AK_EV_BATTLE_DECLARED, s->side, att[0], def[0], s->unit[att[0]].hex, s->unit[def[0]].hex, b + 1,
                 f.attack2 / 2, f.defense2 / 2);
    event_odds(ev, AK_EV_BATTLE_DECLARED, table, f.column);
    return true;
}

/* The preview of figures f (battle_preview, declared_preview): in half points as the
 * declaration counts them (a supply unit named bombards: +1), the column
 * and die modifier, and every roll of the table's die read on the column,
 * modified and clamped as a resolution reads it (NEW COMBAT SYSTEM). */
static void preview_of(const struct ak_state *s, const struct ak_updated_figures *figures, int supply,
                       struct ak_battle_preview *p)
{
    const struct ak_updated_figures f = *figures;
    const struct ak_crt_table *table = ak_crt_of(s);
    p->attack = f.attack2;
    p->defense = f.defense2;
    p->column = f.column;
    p->drm = f.drm;
    p->known = table != NULL;
    p->allowed = f.column >= 0;
    p->supply = supply;
    snprintf(p->odds, sizeof p->odds, "%s", f.column >= 0 ? ak_updated_odds_name(s, f.column) : "below the table");
    if (!table || f.column < 0)
        return;
    bool two_dice = table->die_max == 12;   /* as roll_table_die throws it */
    p->faces = two_dice ? 36 : 6;
    for (int d1 = 1; d1 <= 6; d1++)
        for (int d2 = 1; d2 <= (two_dice ? 6 : 1); d2++) {
            char name[24];
            ak_crt_effect_format(ak_crt_table_result(table, f.column, d1 + (two_dice ? d2 : 0) + f.drm), name,
                                 sizeof name);
            ak_preview_add(p, name, 1);
        }
}

void ak_updated_battle_preview(const struct ak_state *s, const uint8_t *att, int na, const uint8_t *def, int nd,
                               int supply, struct ak_battle_preview *p)
{
    struct ak_updated_figures f;
    ak_updated_figures(s, att, na, def, nd, supply != AK_UNIT_NONE, &f);
    preview_of(s, &f, supply, p);
}

/* A declared battle is fought on the figures as they stand when it is
 * resolved, and one that losses since pushed below the table on its
 * first column (resolve, below). */
void ak_updated_declared_preview(const struct ak_state *s, int b, struct ak_battle_preview *p)
{
    uint8_t att[AK_GROUP_MAX], def[AK_GROUP_MAX];
    int na, nd;
    memset(p, 0, sizeof *p);
    p->column = -1;
    ak_battle_sides(s, b, att, &na, def, &nd);
    if (na == 0 || nd == 0)
        return;
    struct ak_updated_figures f;
    ak_updated_figures(s, att, na, def, nd, s->battle[b].supply != AK_UNIT_NONE, &f);
    if (f.column < 0)
        f.column = 0;
    preview_of(s, &f, s->battle[b].supply, p);
}

/* ---- fighting it ------------------------------------------------------- */

static int roll_table_die(struct ak_state *s, const struct ak_crt_table *table)
{
    int roll = ak_rng_die(&s->rng);
    if (table->die_max == 12)
        roll += ak_rng_die(&s->rng);
    return roll;
}


static int engaged(const struct ak_state *s, int b, int side, uint8_t *out)
{
    int n = 0;
    for (int u = 0; u < s->units; u++)
        if (ak_on_board(s, u) && s->unit[u].battle == b + 1 && ak_def(u)->side == side)
            out[n++] = (uint8_t)u;
    return n;
}

static int counted_strength(const struct ak_state *s, int b);

bool ak_updated_resolve(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                        struct ak_events *ev, struct ak_reject *rej)
{
    (void)r;
    int b = a->battle;
    struct ak_battle *t = ak_combat_unfought(s, a, "ATTACKING-5", rej);
    if (!t)
        return false;
    const struct ak_crt_table *table = ak_crt_of(s);
    if (!table)
        return ak_reject(rej, "UPD-CRT", "the server has no combat results table for the Updated ruleset");
    /* The figures as they stand now: earlier battles may have changed them. */
    uint8_t att[AK_GROUP_MAX], def[AK_GROUP_MAX];
    int na, nd;
    ak_battle_sides(s, b, att, &na, def, &nd);
    if (na == 0 || nd == 0) {       /* nothing left to fight (units lost in between) */
        t->resolved = 1;
        return true;
    }
    struct ak_updated_figures f;
    ak_updated_figures(s, att, na, def, nd, t->supply != AK_UNIT_NONE, &f);
    if (f.column < 0)
        f.column = 0;   /* declared within the table; losses since then read its first column */
    int roll = roll_table_die(s, table);
    int modified = roll + f.drm;
    modified = modified < table->row_min ? table->row_min : modified > table->row_max ? table->row_max : modified;
    t->column = (uint8_t)f.column;
    t->roll = (uint8_t)roll;
    t->drm = (int8_t)f.drm;
    t->modified = (int8_t)modified;
    t->attack = (uint8_t)(f.attack2 > 255 ? 255 : f.attack2);
    t->defense = (uint8_t)(f.defense2 > 255 ? 255 : f.defense2);
    t->resolved = 1;
    t->counted = (uint8_t)counted_strength(s, b);    /* before any loss (NEW COMBAT SYSTEM 4) */
    s->combat_locked = 0;
    ak_event_add(ev, AK_EV_BATTLE_RESOLVED, s->side, AK_UNIT_NONE, AK_UNIT_NONE, AK_HEX_NONE, AK_HEX_NONE, b + 1,
                 roll, -1);
    event_odds(ev, AK_EV_BATTLE_RESOLVED, table, f.column);
    s->pending = (struct ak_pending){0};
    s->pending.battle = (uint8_t)b;
    s->pending.stage = AK_STAGE_DEFENDER_LOSSES;
    ak_updated_next_step(s, b, ev);
    return true;
}

void ak_updated_result_name(const struct ak_state *s, int b, char *buf, int len)
{
    const struct ak_crt_effect *e = ak_updated_effect(s, b);
    if (e)
        ak_crt_effect_format(e, buf, len);
    else if (len > 0)
        buf[0] = '\0';
}

const struct ak_crt_effect *ak_updated_effect(const struct ak_state *s, int b)
{
    const struct ak_battle *t = &s->battle[b];
    const struct ak_crt_table *table = ak_crt_of(s);
    if (!table || !t->resolved || !t->roll || t->column >= table->ncolumns)
        return NULL;    /* not fought (nothing left on one side): no cell */
    return ak_crt_table_result(table, t->column, t->modified);
}

/* The strength a percentage result is counted in: the column's side. */
static int counted_strength(const struct ak_state *s, int b)
{
    uint8_t att[AK_GROUP_MAX], def[AK_GROUP_MAX];
    int na, nd;
    ak_battle_sides(s, b, att, &na, def, &nd);
    struct ak_updated_figures f;
    ak_updated_figures(s, att, na, def, nd, false, &f);
    const struct ak_crt_table *table = ak_crt_of(s);
    return table && table->attacker_counts[s->battle[b].column] ? f.attack_loss : f.defense_loss;
}

static void owe_losses(struct ak_state *s, int b, int side, struct ak_loss_requirement req)
{
    s->pending.kind = AK_PEND_LOSSES;
    s->pending.side = (uint8_t)side;
    s->pending.battle = (uint8_t)b;
    s->pending.need = (uint8_t)(req.halves > 255 ? 255 : req.halves);
    s->pending.percent = req.percent ? AK_LOSS_PERCENT : AK_LOSS_POINTS;
}

/* The next decision a fought battle owes, or none: the defender's losses,
 * then the attacker's, then retreats and the advance (ak_updated_retreat.c). */
void ak_updated_next_step(struct ak_state *s, int b, struct ak_events *ev)
{
    const struct ak_crt_effect *e = ak_updated_effect(s, b);
    uint8_t units[AK_GROUP_MAX];
    int defender = !s->side;
    if (!e) {       /* no table attached (a state its holder did not equip): nothing is owed */
        s->pending = (struct ak_pending){0};
        return;
    }
    while (s->pending.stage != AK_STAGE_DONE) {
        int stage = s->pending.stage++;
        if (stage == AK_STAGE_DEFENDER_LOSSES && engaged(s, b, defender, units) > 0) {
            struct ak_crt_side_effect loss = e->defender;
            if (e->exchange != AK_CRT_NO_EXCHANGE)   /* EX: all of it; HX: half */
                loss = (struct ak_crt_side_effect){e->exchange == AK_CRT_EXCHANGE ? 100 : 50, true, 0};
            if (loss.loss) {
                struct ak_loss_requirement req = ak_loss_required(&loss, e->exchange != AK_CRT_NO_EXCHANGE
                                                                         ? ak_updated_side_strength(s, b, defender)
                                                                         : s->battle[b].counted);
                owe_losses(s, b, defender, req);
                return;
            }
        } else if (stage == AK_STAGE_ATTACKER_LOSSES && engaged(s, b, s->side, units) > 0) {
            struct ak_loss_requirement req = {0, false};
            if (e->exchange != AK_CRT_NO_EXCHANGE)  /* at least what the defender removed */
                req.halves = (uint16_t)(2 * s->pending.removed);
            else if (e->attacker.loss)
                req = ak_loss_required(&e->attacker, s->battle[b].counted);
            if (req.halves) {
                owe_losses(s, b, s->side, req);
                return;
            }
        } else if (stage == AK_STAGE_RETREATS) {
            if (ak_updated_retreat_step(s, b, ev))
                return;
        } else if (stage == AK_STAGE_ADVANCE) {
            if (ak_updated_advance_step(s, b, ev))
                return;
            s->pending.stage = AK_STAGE_DONE;
        }
    }
    s->pending = (struct ak_pending){0};
}

int ak_updated_side_strength(const struct ak_state *s, int b, int side)
{
    uint8_t units[AK_GROUP_MAX];
    int n = engaged(s, b, side, units), total = 0;
    for (int i = 0; i < n; i++)
        total += ak_updated_loss_factor(s, units[i], side == s->side);
    return total;
}

/* ---- the losses action ------------------------------------------------- */

bool ak_updated_losses(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                       struct ak_events *ev, struct ak_reject *rej)
{
    (void)r;
    int b = s->pending.battle, side = s->pending.side;
    bool attrition = s->pending.percent == AK_LOSS_ATTRITION;
    bool attacking = side == s->side && !attrition;
    uint8_t units[AK_GROUP_MAX], choice[AK_GROUP_MAX] = {0};
    struct ak_loss_unit lu[AK_GROUP_MAX];
    int n = attrition ? ak_updated_isolated_stack(s, s->pending.hex, units) : engaged(s, b, side, units);
    for (int i = 0; i < a->nunits; i++) {
        int u = a->units[i], at = -1;
        for (int k = 0; k < n; k++)
            if (units[k] == u)
                at = k;
        if (at < 0)
            return attrition ? ak_reject(rej, "UPD-LOSSES", "%s is not one of your units on the isolated square",
                                         ak_def(u)->shortname)
                             : ak_reject(rej, "UPD-LOSSES", "%s is not one of your units in battle %d", ak_def(u)->shortname,
                                         b + 1);
        if (choice[at])
            return ak_reject(rej, "ACTION", "%s is named twice", ak_def(u)->shortname);
        choice[at] = i < a->nreduce ? AK_LOSS_REDUCE : AK_LOSS_ELIMINATE;
    }
    for (int k = 0; k < n; k++) {
        /* attrition counts the printed step factors (A-29 (a)) */
        lu[k].factor = (uint8_t)(attrition ? ak_updated_step_factor(s, units[k], false)
                                           : ak_updated_loss_factor(s, units[k], attacking));
        lu[k].reducible = !s->unit[units[k]].reduced && ak_steps_of(ak_def(units[k])->attack) == 2;
        /* what it counts once reduced: halved, then doubled in a fortress */
        int full = attrition ? ak_def(units[k])->defense : attacking ? ak_def(units[k])->attack : ak_def(units[k])->defense;
        int doubling = !attrition && !attacking && fortress_infantry(s, units[k]) ? 2 : 1;
        lu[k].reduced_to = (uint8_t)(doubling * ak_reduced_factor(full));
        if (choice[k] == AK_LOSS_REDUCE && !lu[k].reducible)
            return ak_reject(rej, "UPD-LOSSES", "%s has no step to lose but itself: eliminate it", ak_def(units[k])->shortname);
    }
    if (s->pending.percent == AK_LOSS_CANCEL && a->nunits == 0) {
        /* the fortress defenders decline to pay: they retreat */
        int n = s->pending.retreat;
        s->pending.kind = AK_PEND_NONE;
        if (!ak_updated_start_retreat(s, b, side, n, false, ev)) {
            s->pending.retreat = 0;
            ak_updated_next_step(s, b, ev);
        }
        return true;
    }
    /* a step for a retreat through a zone, or to stay in a fortress */
    bool step = s->pending.percent == AK_LOSS_STEP || s->pending.percent == AK_LOSS_CANCEL;
    struct ak_loss_requirement req = {step ? 1 : s->pending.need, s->pending.percent == AK_LOSS_PERCENT || attrition};
    int actual;
    if (!ak_loss_meets(req, lu, choice, n, &actual))
        return ak_reject(rej, "UPD-LOSSES", "those losses remove %d; battle %d requires %d%s%s of %s factors", actual, b + 1,
                         req.halves / 2, req.halves % 2 ? ".5" : "", req.percent ? " (50% results: a reduced odd unit counts half its factor)" : "",
                         attacking ? "attack" : "defense");
    /* A step lost for a retreat through a zone fulfils no loss: nothing
     * comes back (reading A-30 (a)). */
    int excess = step ? 0 : ak_loss_forced_excess(req, lu, n), biggest = -1, biggest_loss = -1;
    for (int k = 0; k < n; k++) {
        if (!choice[k])
            continue;
        int loss = choice[k] == AK_LOSS_ELIMINATE ? lu[k].factor : lu[k].factor - lu[k].reduced_to;
        if (loss > biggest_loss || (loss == biggest_loss && ak_updated_pool_of(units[k]) == AK_POOL_ARMOR)) {
            biggest = units[k];
            biggest_loss = loss;
        }
        if (choice[k] == AK_LOSS_REDUCE) {
            s->unit[units[k]].reduced = 1;
            ak_event_add(ev, AK_EV_REDUCED, side, units[k], AK_UNIT_NONE, s->unit[units[k]].hex, AK_HEX_NONE, b + 1, 0, 0);
        } else {
            ak_eliminate(s, units[k], AK_ELIM_COMBAT, ev);
        }
    }
    /* NEW COMBAT SYSTEM 7: the forced excess goes back to the pool of the
     * unit whose loss made it (the largest loss taken; armor on a tie). */
    if (excess > 0 && biggest >= 0) {
        int k = ak_updated_pool_of(biggest), total = s->pool[side][k] + excess;
        s->pool[side][k] = (uint8_t)(total > 255 ? 255 : total);
        ak_event_add(ev, AK_EV_REPLACEMENTS, side, AK_UNIT_NONE, AK_UNIT_NONE, AK_HEX_NONE, AK_HEX_NONE, excess,
                     s->pool[side][k], 1 + k);
    }
    if (!step)
        s->pending.removed = (uint8_t)(actual > 255 ? 255 : actual);
    bool cancelled = s->pending.percent == AK_LOSS_CANCEL;
    int retreat = s->pending.retreat;
    if (cancelled)
        ak_event_add(ev, AK_EV_RETREAT_CANCELLED, side, AK_UNIT_NONE, AK_UNIT_NONE, AK_HEX_NONE, AK_HEX_NONE, b + 1, 0, 0);
    s->pending.retreat = 0;
    s->pending.kind = AK_PEND_NONE;
    s->pending.percent = AK_LOSS_POINTS;
    s->pending.need = 0;
    if (attrition) {    /* the next isolated square, then the replacement phase */
        ak_hex done = s->pending.hex;
        s->pending = (struct ak_pending){0};
        ak_updated_attrition(s, done, ev);
        return true;
    }
    /* the garrison stays; defenders of the battle outside it still retreat */
    if (cancelled && ak_updated_start_retreat(s, b, side, retreat, true, ev))
        return true;
    ak_updated_next_step(s, b, ev);
    return true;
}
