/* ak_auto_victory: AUTOMATIC VICTORY, judged on a battle the attacker
 * could actually fight.
 *
 * "As soon as enough attacking Units are in combat against a defending
 * Unit to create an automatic elimination situation (7 to 1 normal or 5 to
 * 1 surrounded) that defending Unit's zone of control is immediately
 * ignored for the remainder of the attacker's Turn." The odds are those of
 * a battle, so the battle rules bound them: an attacker must fight every
 * defender in whose zone he stands, in one battle or another (MULTIPLE
 * UNIT BATTLES 3a), every attacker of a battle is next to every defender of
 * it (3b), and a unit's factors count in one battle only (7). Seven factors
 * next to two defenders are therefore 7 against both (3-1 at best), unless
 * other attackers can take the second defender on.
 *
 * After every move the mover makes, for each enemy stack whose zone still
 * counts, this file looks for a division of battles in which that stack
 * is beaten at automatic odds: a set T of defending stacks (the stack
 * alone, or with neighbours fought together), a set S of attackers next to
 * every stack of T, each with a supply unit in reach (SUSTAIN ATTACKS 6),
 * and every other defender that obliges a unit of S taken on by some
 * attacker outside S. Stacks are judged whole: a unit of a stack whose
 * zone is ignored while its companions' zones still count changes no
 * square, so nothing is lost by it. The search is small (at most six
 * attacking squares around a stack, three choices each, and subsets of the
 * few stacks near it) and runs only where the factors next to a stack could
 * reach automatic odds at all. The zone stays off for the rest of the turn
 * (the text's "immediately ... for the remainder"), and the stacks remain
 * to be fought in the combat portion at the odds of the battle declared.
 */
#include <string.h>

#include "ak_battle.h"
#include "ak_combat.h"
#include "ak_zoc.h"

#define AV_STACKS 8         /* the stack in question and neighbours fought with it */
#define AV_SQUARES 6        /* squares next to every stack of one battle */
#define AV_OBLIGERS 32      /* enemy units outside the battle next to its squares */

/* A candidate battle: the defending stacks of T and the squares of the
 * mover's combat units next to all of them. */
struct av_battle {
    uint8_t def[AK_GROUP_MAX];      /* the defending units */
    int ndef, defense;
    bool surrounded;
    ak_hex stack[AV_STACKS];
    int nstacks;
    ak_hex sq[AV_SQUARES];          /* attacking squares with a supply unit in reach */
    int sq_attack[AV_SQUARES];      /* the attack of all their units */
    int sq_units[AV_SQUARES];
    int sq_weakest[AV_SQUARES];     /* the smallest attack factor there */
    int nsq;
};

/* An enemy unit outside the battle that obliges a unit of it (MULTIPLE
 * UNIT BATTLES 3a): some attacker outside the battle must take it on. */
struct av_obliger {
    unsigned obliges;       /* attacking squares (bits of sq) in its zone */
    unsigned adjacent;      /* attacking squares next to it */
    bool free_attacker;     /* a mover's combat unit next to it on no attacking square */
};

/* The combat units on the board, the mover's and the enemy's, listed once
 * per call: every search below walks these short lists, not all counters
 * (this runs after every move). */
static struct {
    int nmine, nfoes;
    uint8_t mine[AK_UNIT_MAX], foes[AK_UNIT_MAX];
    /* Squares taken by another automatic victory while it is checked
     * that this one leaves that one standing (see consistent()). */
    ak_hex taken[AV_SQUARES];
    int ntaken;
    bool checking;
} on;

static void list_combat_units(const struct ak_state *s)
{
    on.nmine = on.nfoes = 0;
    for (int u = 0; u < s->units; u++)
        if (ak_on_board(s, u) && ak_unit_is_combat(ak_def(u))) {
            /* A unit isolated since the start of the turn cannot attack
             * (ISOLATION 2): it neither makes nor takes on a battle. */
            if (ak_def(u)->side == s->side && !s->unit[u].isolated)
                on.mine[on.nmine++] = (uint8_t)u;
            else if (ak_def(u)->side == s->side)
                continue;
            else
                on.foes[on.nfoes++] = (uint8_t)u;
        }
}

static int hex_index(const ak_hex *list, int n, ak_hex h)
{
    for (int i = 0; i < n; i++)
        if (list[i] == h)
            return i;
    return -1;
}

static bool next_to_every_stack(const struct av_battle *b, ak_hex h)
{
    for (int i = 0; i < b->nstacks; i++)
        if (!ak_adjacent(h, b->stack[i]))
            return false;
    return true;
}

/* The defenders of the stacks in b->stack, their defense and whether all
 * are surrounded (the 5-1 column). */
static void gather_defenders(const struct ak_state *s, struct av_battle *b)
{
    b->ndef = b->defense = 0;
    b->surrounded = true;
    for (int i = 0; i < b->nstacks; i++)
        b->surrounded = b->surrounded && ak_surrounded(s, b->stack[i], !s->side);
    for (int i = 0; i < on.nfoes; i++) {
        int e = on.foes[i];
        if (hex_index(b->stack, b->nstacks, s->unit[e].hex) < 0)
            continue;
        if (b->ndef == AK_GROUP_MAX) {  /* more than a battle can name: no automatic victory */
            b->defense = 1 << 20;
            return;
        }
        b->def[b->ndef++] = (uint8_t)e;
        b->defense += ak_defense_now(s, e);
    }
}

/* The mover's squares next to every stack whose units a supply unit can
 * sustain against these defenders (SUSTAIN ATTACKS 1, 6). Returns their
 * total attack. Units out of supply reach stay out of the battle, free to
 * fight another. */
static int gather_squares(const struct ak_state *s, struct av_battle *b)
{
    int total = 0;
    b->nsq = 0;
    for (int k = 0; k < on.nmine; k++) {
        int u = on.mine[k];
        ak_hex h = s->unit[u].hex;
        if (!next_to_every_stack(b, h) || hex_index(on.taken, on.ntaken, h) >= 0)
            continue;
        int i = hex_index(b->sq, b->nsq, h);
        if (i < 0) {
            if (b->nsq == AV_SQUARES || ak_supply_near(s, s->side, h, b->def, b->ndef) == AK_UNIT_NONE)
                continue;
            i = b->nsq++;
            b->sq[i] = h;
            b->sq_attack[i] = b->sq_units[i] = 0;
            b->sq_weakest[i] = 255;
        }
        int a = ak_def(u)->attack;
        b->sq_attack[i] += a;
        b->sq_units[i]++;
        if (a < b->sq_weakest[i])
            b->sq_weakest[i] = a;
        total += a;
    }
    return total;
}

/* Enemy units outside the battle whose zones reach its squares. */
static int gather_obligers(const struct ak_state *s, const struct av_battle *b,
                           struct av_obliger *out)
{
    int n = 0;
    for (int k = 0; k < on.nfoes; k++) {
        int r = on.foes[k];
        if (hex_index(b->stack, b->nstacks, s->unit[r].hex) >= 0)
            continue;
        struct av_obliger o = {0};
        for (int i = 0; i < b->nsq; i++) {
            /* A sortie from a fortress takes on every adjacent enemy unit
             * (FORTRESSES 2), zone or not. */
            bool sortie = ak_map()->terrain[b->sq[i]] == AK_TERRAIN_FORTRESS &&
                          ak_adjacent(b->sq[i], s->unit[r].hex);
            if (sortie || ak_battle_zoc(s, r, b->sq[i]))
                o.obliges |= 1u << i;
            if (ak_adjacent(b->sq[i], s->unit[r].hex))
                o.adjacent |= 1u << i;
        }
        if (!o.obliges)
            continue;
        if (n == AV_OBLIGERS)
            return -1;      /* too many to judge: no automatic victory */
        for (int i = 0; i < on.nmine && !o.free_attacker; i++) {
            ak_hex ch = s->unit[on.mine[i]].hex;
            o.free_attacker = ak_adjacent(ch, s->unit[r].hex) && hex_index(b->sq, b->nsq, ch) < 0;
        }
        out[n++] = o;
    }
    return n;
}

/* Some division of the attacking squares reaches automatic odds: each
 * square gives none of its units, all but its weakest (who stays free for
 * another battle), or all; every obliger of a unit given is left an
 * attacker outside. Three choices a square, at most 729 divisions. */
static bool consistent(const struct ak_state *s, const struct av_battle *b, unsigned given);

static int best_automatic_attack(const struct ak_state *s, const struct av_battle *b,
                                 const struct av_obliger *ob, int nob)
{
    int combos = 1;
    for (int i = 0; i < b->nsq; i++)
        combos *= 3;
    for (int c = 1; c < combos; c++) {
        unsigned given = 0, outside = 0;
        int attack = 0, k = c;
        bool valid = true;
        for (int i = 0; i < b->nsq; i++, k /= 3) {
            int choice = k % 3;     /* 0 none, 1 all but the weakest, 2 all */
            if (choice == 1 && b->sq_units[i] < 2)
                valid = false;
            if (choice > 0)
                given |= 1u << i;
            if (choice < 2)
                outside |= 1u << i;
            attack += choice == 2 ? b->sq_attack[i] : choice == 1 ? b->sq_attack[i] - b->sq_weakest[i] : 0;
        }
        if (!valid || ak_odds_column(attack, b->defense, b->surrounded) != AK_ODDS_AUTO)
            continue;
        for (int j = 0; j < nob && valid; j++)
            valid = !(ob[j].obliges & given) || ob[j].free_attacker || (ob[j].adjacent & outside);
        if (valid && consistent(s, b, given))
            return attack;
    }
    return 0;
}

/* The enemy stacks next to the mover's units that are next to h: the ones
 * a battle against h could include. */
static int neighbour_stacks(const struct ak_state *s, ak_hex h, ak_hex *out, int max)
{
    int n = 0;
    for (int k = 0; k < on.nfoes && n < max; k++) {
        ak_hex eh = s->unit[on.foes[k]].hex;
        if (eh == h || hex_index(out, n, eh) >= 0)
            continue;
        for (int i = 0; i < on.nmine; i++) {
            ak_hex uh = s->unit[on.mine[i]].hex;
            if (ak_adjacent(uh, h) && ak_adjacent(uh, eh)) {
                out[n++] = eh;
                break;
            }
        }
    }
    return n;
}

/* The battle against h and the stacks of mask (bits of near) could be won
 * at automatic odds; fills b. */
static bool automatic_battle(const struct ak_state *s, ak_hex h, const ak_hex *near, unsigned mask,
                             struct av_battle *b, int *attack)
{
    struct av_obliger ob[AV_OBLIGERS];
    b->nstacks = 0;
    b->stack[b->nstacks++] = h;
    for (int i = 0; i < AV_STACKS - 1; i++)
        if (mask & (1u << i))
            b->stack[b->nstacks++] = near[i];
    gather_defenders(s, b);
    int total = gather_squares(s, b);
    if (ak_odds_column(total, b->defense, b->surrounded) != AK_ODDS_AUTO)
        return false;
    int nob = gather_obligers(s, b, ob);
    if (nob < 0)
        return false;
    *attack = best_automatic_attack(s, b, ob, nob);
    return *attack > 0;
}

static bool stack_automatic(const struct ak_state *s, ak_hex h, struct av_battle *b, int *attack);

/* A unit's factors count in one battle only (MULTIPLE UNIT BATTLES 7):
 * the squares this division gives must leave every stack whose zone an
 * automatic victory already switched off still beaten at automatic odds
 * by the other squares. Checked one level deep (the stacks already off
 * are not checked against each other again). */
static bool consistent(const struct ak_state *s, const struct av_battle *b, unsigned given)
{
    if (on.checking)
        return true;
    static uint8_t seen[AK_HEX_COUNT];
    memset(seen, 0, sizeof seen);
    bool ok = true;
    for (int k = 0; k < on.nfoes && ok; k++) {
        int e = on.foes[k];
        ak_hex eh = s->unit[e].hex;
        if (!(s->unit[e].flags & AK_U_ZOC_OFF) || seen[eh] || hex_index(b->stack, b->nstacks, eh) >= 0)
            continue;
        seen[eh] = 1;
        bool touched = false;
        on.ntaken = 0;
        for (int i = 0; i < b->nsq; i++)
            if (given & (1u << i)) {
                on.taken[on.ntaken++] = b->sq[i];
                touched = touched || ak_adjacent(b->sq[i], eh);
            }
        if (!touched)
            continue;
        struct av_battle other;
        int attack;
        on.checking = true;
        ok = stack_automatic(s, eh, &other, &attack);
        on.checking = false;
    }
    on.ntaken = 0;
    return ok;
}

/* attack_near[h]: the factors of the mover's units next to h, for every
 * square a unit may stand on (one pass over the mover's units, where a
 * sum per enemy stack walked them all for each). No battle against h can
 * have more. */
static uint16_t attack_near[AK_HEX_COUNT];

/* Adds (sign 1) or takes away (-1) the mover's factors next to each
 * square: taken away again after the search, so that the map is all
 * zeros between calls without clearing every square (this runs after
 * every 1964 move). */
static void mark_attack_near(const struct ak_state *s, int sign)
{
    const struct ak_map *m = ak_map();
    for (int i = 0; i < on.nmine; i++) {
        ak_hex h = s->unit[on.mine[i]].hex;
        unsigned open = m->open[h];     /* ak_adjacent, onto squares a unit may stand on */
        for (int d = 0; d < AK_DIRS; d++)
            if (open & (1u << d))
                attack_near[ak_hex_step(h, d)] += (uint16_t)(sign * ak_def(on.mine[i])->attack);
    }
}

static int stack_defense(const struct ak_state *s, ak_hex h)
{
    int defense = 0;
    for (int i = 0; i < on.nfoes; i++)
        if (s->unit[on.foes[i]].hex == h)
            defense += ak_defense_now(s, on.foes[i]);
    return defense;
}

static void switch_off(struct ak_state *s, const struct av_battle *b, int attack, struct ak_events *ev)
{
    for (int i = 0; i < b->ndef; i++)
        s->unit[b->def[i]].flags |= AK_U_ZOC_OFF;
    for (int k = 0; k < b->nstacks; k++)
        for (int i = 0; i < b->ndef; i++)
            if (s->unit[b->def[i]].hex == b->stack[k]) {
                ak_event_add(ev, AK_EV_AUTO_VICTORY, s->side, b->def[i], AK_UNIT_NONE, AK_HEX_NONE,
                             b->stack[k], attack, b->defense, b->surrounded);
                break;
            }
}

/* The stack on h can be beaten at automatic odds: alone, or together with
 * some of the stacks near it. Fills b with that battle. */
static bool stack_automatic(const struct ak_state *s, ak_hex h, struct av_battle *b, int *attack)
{
    ak_hex near[AV_STACKS - 1];
    int nnear = neighbour_stacks(s, h, near, AV_STACKS - 1);
    for (unsigned mask = 0; mask < (1u << nnear); mask++)
        if (automatic_battle(s, h, near, mask, b, attack))
            return true;
    return false;
}

void ak_combat_auto_victory(struct ak_state *s, struct ak_events *ev)
{
    static uint8_t seen[AK_HEX_COUNT];      /* all zeros between calls, like attack_near */
    list_combat_units(s);
    if (on.nmine == 0 || on.nfoes == 0)
        return;
    mark_attack_near(s, 1);
    for (int k = 0; k < on.nfoes; k++) {
        int e = on.foes[k];
        if ((s->unit[e].flags & AK_U_ZOC_OFF) || seen[s->unit[e].hex])
            continue;
        ak_hex h = s->unit[e].hex;
        seen[h] = 1;
        /* Cheap bounds first: no attacker next to it (a combat stack
         * defends with at least 1), then 5 to 1, the least automatic odds. */
        if (attack_near[h] == 0 || attack_near[h] < 5 * stack_defense(s, h))
            continue;
        struct av_battle b;
        int attack;
        if (stack_automatic(s, h, &b, &attack))
            switch_off(s, &b, attack, ev);
    }
    mark_attack_near(s, -1);
    for (int k = 0; k < on.nfoes; k++)
        seen[s->unit[on.foes[k]].hex] = 0;
}
