/* ak_classic_preview: a battle of the 1964 rules before it is declared
 * (the table's battle_preview): the factors as the declaration counts
 * them (attack factors; defense doubled on a fortress or escarpment,
 * DEFENDING 2), the column (7-1, or 5-1 surrounded, and better win
 * outright: MULTIPLE UNIT BATTLES 7; worse than 1-6 is no battle:
 * MULTIPLE UNIT BATTLES 6), whether a supply unit must sustain it and
 * which could (SUSTAIN ATTACKS 1, 7), and the six faces of the die read
 * on the combat results table. */
#include "ak_battle.h"
#include "ak_classic.h"

#include <stdio.h>
#include <string.h>

/* Could supply unit sup of the attackers' side sustain the battle: within
 * reach of every attacker? */
static bool sustains(const struct ak_state *s, int sup, const uint8_t *att, int na, const uint8_t *def, int nd)
{
    bool all = ak_def(sup)->side == ak_def(att[0])->side && ak_def(sup)->type == AK_TYPE_SUPPLY && ak_on_board(s, sup);
    for (int i = 0; i < na && all; i++)
        all = ak_supply_reaches(s, sup, s->unit[att[i]].hex, def, nd);
    return all;
}

/* Every supply unit that could sustain it (the first 8), and the one it
 * would be: the named one if it can, else the first. */
static void sustaining(const struct ak_state *s, const uint8_t *att, int na, const uint8_t *def, int nd, int supply,
                       struct ak_battle_preview *p)
{
    for (int sup = 0; sup < s->units && p->nsustain < (int)sizeof p->sustain; sup++)
        if (sustains(s, sup, att, na, def, nd))
            p->sustain[p->nsustain++] = (uint8_t)sup;
    p->supply = supply != AK_UNIT_NONE ? (sustains(s, supply, att, na, def, nd) ? supply : AK_UNIT_NONE)
              : p->nsustain ? p->sustain[0] : AK_UNIT_NONE;
}

/* The six faces of the die on column's results. */
static void faces(int column, struct ak_battle_preview *p)
{
    p->faces = 6;
    for (int roll = 1; roll <= 6; roll++)
        ak_preview_add(p, ak_crt_result_name(column == AK_ODDS_AUTO ? AK_CRT_DE : ak_data()->crt.result[roll - 1][column]),
                       1);
}

void ak_classic_battle_preview(const struct ak_state *s, const uint8_t *att, int na, const uint8_t *def, int nd,
                               int supply, struct ak_battle_preview *p)
{
    bool surrounded = true;
    for (int i = 0; i < na; i++)
        p->attack += ak_def(att[i])->attack;
    for (int j = 0; j < nd; j++) {
        p->defense += ak_defense_now(s, def[j]);
        surrounded = surrounded && ak_surrounded(s, s->unit[def[j]].hex, ak_def(def[j])->side);
    }
    int column = ak_odds_column(p->attack, p->defense, surrounded);
    p->known = true;
    p->allowed = column != AK_ODDS_TOO_LOW;
    p->column = column;
    snprintf(p->odds, sizeof p->odds, "%s", ak_odds_name(column));
    if (!p->allowed)
        return;
    p->needs_supply = column > AK_ODDS_FREE_MAX;
    if (p->needs_supply)
        sustaining(s, att, na, def, nd, supply, p);
    faces(column, p);
}

/* A declared battle is fought on the column fixed at its declaration
 * (ak_combat.c), whatever happened around it since. */
void ak_classic_declared_preview(const struct ak_state *s, int b, struct ak_battle_preview *p)
{
    const struct ak_battle *t = &s->battle[b];
    memset(p, 0, sizeof *p);
    p->supply = t->supply;
    p->attack = t->attack;
    p->defense = t->defense;
    p->column = t->column;
    p->known = p->allowed = true;
    snprintf(p->odds, sizeof p->odds, "%s", ak_odds_name(t->column));
    faces(t->column, p);
}
