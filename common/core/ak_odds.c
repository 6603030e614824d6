/* ak_odds: exact battle chances, each face of the die fought on a copy by
 * the engine (ak_odds.h says what is counted and what is not followed). */
#include "ak_odds.h"

#include <stdio.h>
#include <string.h>

#include "ak_battle.h"
#include "ak_engine.h"
#include "ak_query.h"

#define DECISIONS_MAX 16        /* answers followed after one resolution */
#define ANSWERS_MAX 256         /* candidates weighed for one decision */
#define LOSS_UNITS_MAX 5        /* a loss choice over more units: 3^5 ways at most */
#define LOSS_CODES_MAX 243

/* The work area: copies and candidate lists too big for the stack, and
 * the work done (engine applications) against the query's cap. */
static struct {
    struct ak_state copy, trial, best;
    struct ak_events ev;
    struct ak_action answers[ANSWERS_MAX];
    long applies, cap;          /* cap 0: none */
} wk;

static bool over_budget(void)
{
    return wk.cap > 0 && wk.applies >= wk.cap;
}

/* a applied to a copy of s in wk.trial, counted against the cap. */
static bool try_apply(const struct ak_state *s, const struct ak_action *a)
{
    wk.applies++;
    wk.trial = *s;
    return ak_apply(&wk.trial, a, &wk.ev, NULL);
}

/* ---- loaded dice --------------------------------------------------------- */

/* Generator states whose next rolls are d1 (and d2): found by trying seeds
 * in order, so the same for every query and every machine. */
struct loaded { struct ak_rng rng[6][6]; };

static void load_dice(struct loaded *l, bool two)
{
    bool found[6][6] = {{false}};
    int missing = two ? 36 : 6;
    for (uint64_t seed = 1; missing > 0 && seed < 100000; seed++) {
        struct ak_rng r;
        ak_rng_seed(&r, seed);
        struct ak_rng start = r;
        int d1 = ak_rng_die(&r) - 1, d2 = two ? ak_rng_die(&r) - 1 : 0;
        if (!found[d1][d2]) {
            found[d1][d2] = true;
            l->rng[d1][d2] = start;
            missing--;
        }
    }
}

/* ---- one face ------------------------------------------------------------ */

static int units_kept(const struct ak_state *s, const uint8_t *units, int n)
{
    int kept = 0;
    for (int i = 0; i < n; i++)
        kept += ak_on_board(s, units[i]) ? 2 - s->unit[units[i]].reduced : 0;
    return kept;
}

/* The chooser's units in battle b that a loss can take. */
static int chooser_units(const struct ak_state *s, const uint8_t *both, int nboth, uint8_t *out)
{
    int n = 0;
    for (int k = 0; k < nboth && n < LOSS_UNITS_MAX; k++)
        if (ak_def(both[k])->side == s->pending.side && ak_on_board(s, both[k]))
            out[n++] = both[k];
    return n;
}

/* An EXCHANGE or LOSSES decision: every way of taking the chooser's units
 * (each kept, reduced where a loss may reduce, or eliminated), tried from
 * the one that keeps the most units on board, then loses the fewest
 * steps; the first the engine accepts is applied. The listed answers
 * (ak_legal_actions) offer only a few of these, and the odds must follow
 * the choice a player would make. */
static bool answer_losses(struct ak_state *s, const uint8_t *both, int nboth)
{
    uint8_t u[LOSS_UNITS_MAX] = {0};
    int n = chooser_units(s, both, nboth, u), choices = s->pending.kind == AK_PEND_LOSSES ? 3 : 2, total = 1;
    for (int i = 0; i < n; i++)
        total *= choices;
    static int order[LOSS_CODES_MAX], score[LOSS_CODES_MAX];
    for (int code = 0; code < total; code++) {
        int kept = 0, steps = 0;
        for (int i = 0, c = code; i < n; i++, c /= choices) {
            int pick = c % choices;     /* 0 kept, 1 eliminated, 2 reduced */
            kept += pick != 1;
            steps += pick == 1 ? 2 - s->unit[u[i]].reduced : pick == 2;
        }
        score[code] = kept * 64 - steps;    /* units kept first, then steps */
        int at = code;
        while (at > 0 && score[order[at - 1]] < score[code]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = code;
    }
    for (int k = 0; k < total && !over_budget(); k++) {
        int code = order[k];
        struct ak_action a = {.kind = s->pending.kind == AK_PEND_LOSSES ? AK_ACT_LOSSES : AK_ACT_EXCHANGE,
                              .side = s->pending.side, .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
        uint8_t eliminated[LOSS_UNITS_MAX];
        int ne = 0;
        for (int i = 0, c = code; i < n; i++, c /= choices) {
            int pick = c % choices;
            if (pick == 2)
                a.units[a.nunits++] = u[i];
            else if (pick == 1)
                eliminated[ne++] = u[i];
        }
        a.nreduce = a.nunits;
        for (int i = 0; i < ne; i++)
            a.units[a.nunits++] = eliminated[i];
        if (try_apply(s, &a)) {
            *s = wk.trial;
            return true;
        }
    }
    return false;
}

/* The decision owed after the resolution of battle b, answered as its
 * chooser would to keep most of his units there; false when none is owed
 * (or only an advance, never taken). */
static bool answer_decision(struct ak_state *s, int b, const uint8_t *both, int nboth)
{
    if (!s->pending.kind || s->pending.kind == AK_PEND_ADVANCE || s->pending.battle != b)
        return false;
    if ((s->pending.kind == AK_PEND_EXCHANGE || s->pending.kind == AK_PEND_LOSSES) && answer_losses(s, both, nboth))
        return true;
    /* A route keeps every unit (one without a route was eliminated when
     * the battle was fought): the first route listed will do. */
    int max = s->pending.kind == AK_PEND_RETREAT ? 1 : ANSWERS_MAX;
    int n = ak_legal_actions(s, 0, wk.answers, max), best = -1, best_kept = -1;
    for (int i = 0; i < n && !over_budget(); i++) {
        if (wk.answers[i].kind == AK_ACT_RESIGN || !try_apply(s, &wk.answers[i]))
            continue;
        uint8_t mine[LOSS_UNITS_MAX];
        int kept = units_kept(&wk.trial, mine, chooser_units(s, both, nboth, mine));
        if (kept > best_kept) {
            best_kept = kept;
            best = i;
        }
    }
    wk.applies++;
    return best >= 0 && ak_apply(s, &wk.answers[best], &wk.ev, NULL);
}

struct face_seen {
    bool eliminated, vacated, hit, all_hit;
    bool hex_vacated[AK_BATTLE_HEXES];
};

static bool on_hex(const struct ak_state *s, const uint8_t *units, const ak_hex *was, int n, ak_hex h)
{
    for (int i = 0; i < n; i++)
        if (was[i] == h && ak_on_board(s, units[i]) && s->unit[units[i]].hex == h)
            return true;
    return false;
}

/* Battle b fought on a copy of s with the die loaded; false when the roll
 * the engine read is not the one loaded (a ruleset rolling otherwise). */
static bool fight_face(const struct ak_state *s, int b, const struct ak_rng *die, int roll,
                       const struct ak_odds_battle *ob, struct face_seen *seen)
{
    uint8_t att[AK_GROUP_MAX], def[AK_GROUP_MAX], both[2 * AK_GROUP_MAX];
    ak_hex was[AK_GROUP_MAX];
    int na, nd;
    ak_battle_sides(s, b, att, &na, def, &nd);
    for (int i = 0; i < nd; i++)
        was[i] = s->unit[def[i]].hex;
    memcpy(both, att, (size_t)na);
    memcpy(both + na, def, (size_t)nd);
    wk.copy = *s;
    wk.copy.rng = *die;
    struct ak_action a = {.kind = AK_ACT_RESOLVE, .side = (uint8_t)s->side, .battle = (uint8_t)b,
                          .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
    wk.applies++;
    if (!ak_apply(&wk.copy, &a, &wk.ev, NULL))
        return false;
    if (wk.copy.battle[b].roll != 0 && wk.copy.battle[b].roll != roll)
        return false;
    for (int k = 0; k < DECISIONS_MAX && answer_decision(&wk.copy, b, both, na + nd); k++)
        ;
    if (over_budget())
        return false;
    const struct ak_state *t = &wk.copy;
    memset(seen, 0, sizeof *seen);
    seen->eliminated = units_kept(t, def, nd) == 0;
    seen->all_hit = units_kept(t, att, na) == 0;
    for (int i = 0; i < na; i++)
        seen->hit |= !ak_on_board(t, att[i]) || t->unit[att[i]].reduced > s->unit[att[i]].reduced;
    seen->vacated = true;
    for (int h = 0; h < ob->nhex; h++) {
        seen->hex_vacated[h] = !on_hex(t, def, was, nd, ob->hex[h]);
        seen->vacated &= seen->hex_vacated[h];
    }
    return true;
}

/* ---- one battle ---------------------------------------------------------- */

static void defended_squares(const struct ak_state *s, int b, struct ak_odds_battle *ob)
{
    uint8_t att[AK_GROUP_MAX], def[AK_GROUP_MAX];
    int na, nd;
    ak_battle_sides(s, b, att, &na, def, &nd);
    for (int i = 0; i < nd; i++) {
        ak_hex h = s->unit[def[i]].hex;
        bool known = false;
        for (int k = 0; k < ob->nhex; k++)
            known |= ob->hex[k] == h;
        if (!known && ob->nhex < AK_BATTLE_HEXES)
            ob->hex[ob->nhex++] = h;
    }
}

static void count_faces(const struct ak_state *s, int b, struct ak_odds_battle *ob)
{
    bool two = ob->preview.faces == 36;
    struct loaded dice;
    load_dice(&dice, two);
    for (int d1 = 0; d1 < 6; d1++)
        for (int d2 = 0; d2 < (two ? 6 : 1); d2++) {
            struct face_seen seen;
            if (!fight_face(s, b, &dice.rng[d1][d2], d1 + 1 + (two ? d2 + 1 : 0), ob, &seen)) {
                ob->fightable = false;
                snprintf(ob->why, sizeof ob->why, "%s", over_budget() ? "too many battles to work out at once"
                                                                     : "the engine did not roll the die as loaded");
                return;
            }
            ob->eliminated += seen.eliminated;
            ob->vacated += seen.vacated;
            ob->attackers_hit += seen.hit;
            ob->attackers_eliminated += seen.all_hit;
            for (int h = 0; h < ob->nhex; h++)
                ob->hex_vacated[h] += seen.hex_vacated[h];
        }
}

static void battle_odds(const struct ak_state *s, int b, int *budget, struct ak_odds_battle *ob)
{
    memset(ob, 0, sizeof *ob);
    ob->battle = b;
    ak_ruleset_get(s->ruleset)->declared_preview(s, b, &ob->preview);
    defended_squares(s, b, ob);
    struct ak_action a = {.kind = AK_ACT_RESOLVE, .side = (uint8_t)s->side, .battle = (uint8_t)b,
                          .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
    struct ak_reject rej = {0};
    if (!ob->preview.known || ob->preview.faces <= 0) {
        snprintf(ob->why, sizeof ob->why, "the game's combat results table is not known here");
        return;
    }
    if (!ak_try(s, &a, &rej)) {
        snprintf(ob->why, sizeof ob->why, "%s (%s)", rej.text, rej.code ? rej.code : "");
        return;
    }
    if (*budget >= 0 && *budget < ob->preview.faces) {
        snprintf(ob->why, sizeof ob->why, "too many battles to work out at once");
        return;
    }
    if (*budget >= 0)
        *budget -= ob->preview.faces;
    ob->faces = ob->preview.faces;
    ob->fightable = true;
    count_faces(s, b, ob);
}

/* ---- joint chances -------------------------------------------------------- */

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static struct ak_chance certain(void)
{
    return (struct ak_chance){1, 1, 1.0};
}

/* c times num/den: exact while the fraction fits, else p alone (den 0). */
static void times(struct ak_chance *c, uint64_t num, uint64_t den)
{
    c->p *= (double)num / (double)den;
    if (c->den == 0)
        return;
    if (num == 0 || c->num == 0) {
        *c = (struct ak_chance){0, 1, 0.0};
        return;
    }
    uint64_t g1 = gcd(c->num, den), g2 = gcd(num, c->den);
    uint64_t n1 = c->num / g1, d2 = den / g1, n2 = num / g2, d1 = c->den / g2;
    if (__builtin_mul_overflow(n1, n2, &c->num) || __builtin_mul_overflow(d1, d2, &c->den)) {
        c->num = c->den = 0;
        return;
    }
    uint64_t g = gcd(c->num, c->den);
    c->num /= g;
    c->den /= g;
}

static void add_square(struct ak_odds *o, ak_hex h, int vacated, int faces)
{
    for (int i = 0; i < o->nsquares; i++)
        if (o->square[i].hex == h) {
            times(&o->square[i].taken, (uint64_t)vacated, (uint64_t)faces);
            return;
        }
    if (o->nsquares == AK_ODDS_SQUARES)
        return;
    struct ak_odds_square *q = &o->square[o->nsquares++];
    q->hex = h;
    q->taken = certain();
    times(&q->taken, (uint64_t)vacated, (uint64_t)faces);
}

int ak_battle_odds(const struct ak_state *s, int max_resolutions, struct ak_odds *out)
{
    memset(out, 0, sizeof *out);
    out->all_eliminated = out->all_taken = out->none_lost = certain();
    int budget = max_resolutions > 0 ? max_resolutions : -1;
    wk.applies = 0;
    wk.cap = max_resolutions > 0 ? (long)max_resolutions * AK_ODDS_APPLIES_PER_FACE : 0;
    for (int b = 0; b < s->nbattles; b++) {
        if (s->battle[b].resolved)
            continue;
        struct ak_odds_battle *ob = &out->battle[out->nbattles++];
        battle_odds(s, b, &budget, ob);
        out->resolutions += ob->faces;
        if (!ob->fightable)
            continue;
        out->fightable++;
        uint64_t f = (uint64_t)ob->faces;
        times(&out->all_eliminated, (uint64_t)ob->eliminated, f);
        times(&out->all_taken, (uint64_t)ob->vacated, f);
        times(&out->none_lost, f - (uint64_t)ob->attackers_hit, f);
        for (int h = 0; h < ob->nhex; h++)
            add_square(out, ob->hex[h], ob->hex_vacated[h], ob->faces);
    }
    return out->nbattles;
}

const char *ak_chance_words(const struct ak_chance *c, char *buf, size_t size)
{
    if (c->den == 0)
        snprintf(buf, size, "%.1f%%", 100.0 * c->p);
    else if (c->num == 0 || c->num == c->den)
        snprintf(buf, size, "%s", c->num ? "certain" : "none");
    else
        snprintf(buf, size, "%llu/%llu (%.1f%%)", (unsigned long long)c->num, (unsigned long long)c->den,
                 100.0 * c->p);
    return buf;
}
