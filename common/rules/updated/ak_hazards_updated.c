/* ak_hazards_updated: the dangers of the Updated ruleset (seed 003; its
 * table's `hazards`, ak_hazards.h), for the player to move:
 *
 *   - supply spent on attacks (NEW COMBAT SYSTEM 3) with no battle
 *     declared: ending the combat phase wastes it;
 *   - a box with no unit of its side in it is removed as the next supply
 *     phase begins (BOXES 3), which ending the mechanized phase starts;
 *   - in the supply phase: units out of supply (SUPPLY PHASE 1) and the
 *     supply units whose burning would save them (SUPPLY PHASE 3); the
 *     isolated squares that roll for attrition when the phase ends
 *     (ISOLATION ATTRITION 1-2), and that may break out first;
 *   - Tobruch held at the start of the turn and empty now: not held at the
 *     next one, so no supply by sea and no port movement (PORTS 1).
 *
 * The 1964 dangers it does not keep (supply placed at a home base, units
 * at sea, battles owed, two turns without supply) are not listed: its
 * supply units arrive at the entry square, battles are voluntary, supply
 * is traced each supply phase. What both share (the key squares, why a
 * phase cannot end) is in ak_hazards.c. */
#include <stdio.h>
#include <string.h>

#include "ak_engine.h"
#include "ak_hazards_internal.h"
#include "ak_updated.h"

static bool own_combat_on_board(const struct ak_state *s, int u)
{
    return ak_on_board(s, u) && ak_def(u)->side == s->side && ak_unit_is_combat(ak_def(u));
}

/* NEW COMBAT SYSTEM 3: a supply unit spent on attacks lets units attack
 * this phase only. */
static void attack_supply_unused(struct ak_hz_list *l)
{
    const struct ak_state *s = l->s;
    if (s->phase != AK_PHASE_COMBAT || s->nattack_supply == 0 || s->nbattles > 0)
        return;
    ak_hz_add(l, AK_HZ_ATTACK_SUPPLY_UNUSED, "UPD-ATTACK-SUPPLY", AK_ACT_END_PHASE,
              "You spent %d supply unit%s on attacks this combat phase and have declared no battle: ending the phase "
              "wastes %s", s->nattack_supply, s->nattack_supply > 1 ? "s" : "", s->nattack_supply > 1 ? "them" : "it");
}

/* BOXES 3: "If in any friendly supply phase a hedgehog marker no longer
 * contains any friendly unit, remove it." Shown from the movement phase on;
 * it bites when the mechanized phase ends (the supply phase begins). */
static void boxes_empty(struct ak_hz_list *l)
{
    const struct ak_state *s = l->s;
    char h[8];
    if (s->phase != AK_PHASE_MOVEMENT && s->phase != AK_PHASE_COMBAT && s->phase != AK_PHASE_MECH)
        return;
    for (int i = 0; i < s->nboxes; i++) {
        if (s->box[i].side != s->side)
            continue;
        bool held = false;
        for (int u = 0; u < s->units && !held; u++)
            held = ak_on_board(s, u) && ak_def(u)->side == s->side && s->unit[u].hex == s->box[i].hex;
        if (held)
            continue;
        struct ak_hazard *z = ak_hz_add(l, AK_HZ_BOX_LOST, "UPD-BOX", s->phase == AK_PHASE_MECH ? AK_ACT_END_PHASE : 0,
                                        "Your box at %s has no unit of yours in it: it is removed when your supply "
                                        "phase begins unless a unit is back in it by then",
                                        ak_hex_format(s->box[i].hex, h));
        z->hex = s->box[i].hex;
    }
}

/* SUPPLY PHASE 1 and 3: units marked out of supply this phase, and the
 * burnable supply units that would bring them back into supply. */
static void out_of_supply(struct ak_hz_list *l)
{
    const struct ak_state *s = l->s;
    uint8_t oos[AK_HAZARD_UNITS], burn[AK_HAZARD_UNITS];
    int n = 0, nb = 0;
    if (s->phase != AK_PHASE_SUPPLY)
        return;
    for (int u = 0; u < s->units && n < AK_HAZARD_UNITS; u++)
        if (own_combat_on_board(s, u) && (s->unit[u].marks & AK_MARK_OOS) && !(s->unit[u].marks & AK_MARK_ISOLATED))
            oos[n++] = (uint8_t)u;
    if (n == 0)
        return;
    /* The engine says which burnings would save anyone (ak_try). */
    for (int su = 0; su < s->units && nb < AK_HAZARD_UNITS; su++) {
        if (!ak_on_board(s, su) || ak_def(su)->side != s->side || ak_def(su)->type != AK_TYPE_SUPPLY)
            continue;
        struct ak_action a = {.kind = AK_ACT_BURN_SUPPLY, .side = s->side, .nunits = 1, .units = {(uint8_t)su},
                              .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
        if (ak_try(s, &a, NULL))
            burn[nb++] = (uint8_t)su;
    }
    char names[200] = "";
    for (int i = 0, at = 0; i < nb && at < (int)sizeof names; i++)
        at += snprintf(names + at, sizeof names - (size_t)at, "%s%s", i ? (i == nb - 1 ? " or " : ", ") : "",
                       ak_def(burn[i])->shortname);
    struct ak_hazard *h = ak_hz_units(l, AK_HZ_OUT_OF_SUPPLY, "UPD-OOS", nb ? AK_ACT_END_PHASE : 0, oos, n,
        "%s %s out of supply until your next supply phase: combat values halved, and mechanized units at half "
        "their movement allowance with no mechanized movement");
    if (nb) {
        size_t len = strlen(h->text);
        snprintf(h->text + len, sizeof h->text - len, ". Burning %s (emergency supply) before the phase ends "
                 "would supply some of them", names);
    }
}

/* ISOLATION ATTRITION 2: the chance each isolated square (marked in seen)
 * loses half its strength, exactly: two dice, 7 or less, a -1 with enemy
 * combat units next to it: 21 chances in 36, or 26 in 36. */
static void attrition_odds(const struct ak_state *s, const uint8_t *seen, struct ak_hazard *h)
{
    static const int at_most[13] = {0, 0, 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36};  /* two dice <= n, of 36 */
    size_t len = strlen(h->text);
    snprintf(h->text + len, sizeof h->text - len, "; the chance of the loss, in 36:");
    for (int hx = 0, listed = 0; hx < AK_HEX_COUNT; hx++) {
        if (!seen[hx])
            continue;
        bool enemy = ak_updated_enemy_adjacent(s, (ak_hex)hx);
        int loss = at_most[enemy ? 8 : 7];
        char a[8];
        len = strlen(h->text);
        snprintf(h->text + len, sizeof h->text - len, "%s %s %d%s", listed++ ? "," : "", ak_hex_format((ak_hex)hx, a),
                 loss, enemy ? " (an enemy next to it)" : "");
    }
}

/* ISOLATION ATTRITION 1-2: each square of isolated units rolls two dice
 * when the supply phase ends; a break-out is declared before. */
static void attrition(struct ak_hz_list *l)
{
    const struct ak_state *s = l->s;
    uint8_t units[AK_HAZARD_UNITS];
    int n = 0, squares = 0, breaking = 0;
    static uint8_t seen[AK_HEX_COUNT];
    if (s->phase != AK_PHASE_SUPPLY)
        return;
    memset(seen, 0, sizeof seen);
    for (int u = 0; u < s->units; u++) {
        if (!own_combat_on_board(s, u) || !(s->unit[u].marks & AK_MARK_ISOLATED))
            continue;
        if (!seen[s->unit[u].hex]) {
            seen[s->unit[u].hex] = 1;
            squares++;
            breaking += (s->unit[u].marks & AK_MARK_BREAK_OUT) != 0;
        }
        if (n < AK_HAZARD_UNITS)
            units[n++] = (uint8_t)u;
    }
    if (n == 0)
        return;
    struct ak_hazard *h = ak_hz_units(l, AK_HZ_ATTRITION, "UPD-ATTRITION", AK_ACT_END_PHASE, units, n,
        "%s %s isolated: when the supply phase ends each isolated square rolls two dice, and on 7 or less (1 less "
        "with enemy combat units next to it) loses half its strength");
    attrition_odds(s, seen, h);
    size_t len = strlen(h->text);
    if (breaking < squares)
        snprintf(h->text + len, sizeof h->text - len, ". A square may break out first (all its units go; half "
                 "the strength points beyond the loss become infantry replacement points)");
}

/* PORTS 1, TOBRUK CAPTURE: Tobruch is a port and a supply source by sea
 * for the side holding it at the start of a turn. */
static void tobruch(struct ak_hz_list *l)
{
    const struct ak_state *s = l->s;
    ak_hex t = ak_map()->tobruch;
    char h[8];
    if (s->control[AK_KEY_TOBRUCH] != s->side)
        return;
    for (int u = 0; u < s->units; u++)
        if (ak_on_board(s, u) && ak_def(u)->side == s->side && s->unit[u].hex == t)
            return;
    struct ak_hazard *z = ak_hz_add(l, AK_HZ_PORT, "UPD-PORT", AK_ACT_END_TURN,
        "Tobruch %s has no unit of yours in it: while it stays empty you do not control it, and it is neither "
        "your port nor your supply source by sea", ak_hex_format(t, h));
    z->hex = t;
}

/* REINFORCEMENT PHASE: a supply unit due is placed on the entry square
 * during the movement phase or lost with it (reading: the 1964 LOGISTICS,
 * MOVEMENT 6 stands: supply is not accumulated). Asked before the phase
 * ends, as the 1964 rules' danger is; said only when nothing can be done. */
static void supply_unplaced(struct ak_hz_list *l)
{
    const struct ak_state *s = l->s;
    if (s->phase != AK_PHASE_MOVEMENT || s->supply_due == 0)
        return;
    bool spare = false;
    for (int u = 0; u < s->units && !spare; u++)
        spare = ak_def(u)->side == s->side && ak_def(u)->type == AK_TYPE_SUPPLY && !ak_def(u)->captured_counter &&
                s->unit[u].where == AK_AT_POOL;
    ak_hex entry[4];
    char h[8];
    int n = ak_updated_entries(s, s->side, entry, 4);
    if (ak_own_supply_on_board(s, s->side) >= ak_data()->scenario.supply_max[s->side] || !spare)
        ak_hz_add(l, AK_HZ_SUPPLY_UNPLACED, "LOGISTICS-QUOTA", 0,
                  "A new supply unit is due but cannot be placed: %s; it is not accumulated",
                  spare ? "you already have the most supply units on board the rules allow"
                        : "every supply counter of yours is on the board");
    else
        ak_hz_add(l, AK_HZ_SUPPLY_UNPLACED, "UPD-REINF", AK_ACT_END_MOVEMENT,
                  "A new supply unit is due and not yet placed: place it on your entry square %s before the movement "
                  "phase ends, or it is lost; supply is not accumulated",
                  n > 0 ? ak_hex_format(entry[0], h) : "?");
}

void ak_hazards_updated(struct ak_hz_list *l)
{
    supply_unplaced(l);
    attack_supply_unused(l);
    boxes_empty(l);
    out_of_supply(l);
    attrition(l);
    tobruch(l);
}
