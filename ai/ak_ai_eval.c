/* ak_ai_eval: what a position is worth to one side, for the computer
 * player's search. A sum of what the rules reward, in factor points:
 * combat factors on board (material), supply units, Tobruch, the enemy's
 * threat to one's home base, the Axis's advance toward the nearest key
 * square it does not hold (the Axis must take ground to win; the Allies
 * hold it), and the risks
 * the rules punish: units with no supply line (ISOLATION, SUPPLY PHASE)
 * and units isolated for turns. Counted for both sides, the enemy's
 * subtracted, so the value is symmetric. The game's end outweighs all. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_ai_internal.h"
#include "ak_battle.h"
#include "ak_zoc.h"

#define WON 100000.0

const struct ak_ai_weights ak_ai_default_weights = {
    .material = 1.0,
    .supply_unit = 3.0,
    .tobruch = 8.0,
    .home_threat = 6.0,
    .advance = 0.08,
    .out_of_supply = 0.35,
    .isolated = 0.5,
    .battle = 1.0,
    .supply_exposed = 5.0,
    .home_garrison = 20.0,
    .threat = 0.0,     /* off: at 0.5 a player turn took ten times as long (docs/ai.md) */
    .no_supply = 40.0,
    .key_square = 10.0,
    .reply = 1.0,
    .supply_front = 8.0,
};

/* Each weight's name and place in the struct: a table, not the struct's
 * order, so that a name can never name the wrong weight. */
#define WEIGHT(name) {#name, offsetof(struct ak_ai_weights, name)}
static const struct {
    const char *name;
    size_t offset;
} weight_table[] = {
    WEIGHT(material),      WEIGHT(supply_unit),   WEIGHT(tobruch),   WEIGHT(home_threat), WEIGHT(advance),
    WEIGHT(out_of_supply), WEIGHT(isolated),      WEIGHT(battle),    WEIGHT(supply_exposed), WEIGHT(threat),
    WEIGHT(home_garrison), WEIGHT(no_supply),     WEIGHT(key_square), WEIGHT(reply),      WEIGHT(supply_front),
};
_Static_assert(sizeof(struct ak_ai_weights) == AK_AI_WEIGHTS * sizeof(double), "ak_ai_weights holds doubles only");
_Static_assert(sizeof weight_table / sizeof weight_table[0] == AK_AI_WEIGHTS, "a name per weight");

const char *ak_ai_weight_name(int j)
{
    return weight_table[j].name;
}

double *ak_ai_weight(struct ak_ai_weights *w, int j)
{
    return (double *)((char *)w + weight_table[j].offset);
}

double ak_ai_weight_value(const struct ak_ai_weights *w, int j)
{
    return *(const double *)((const char *)w + weight_table[j].offset);
}

#define SEPARATORS ", \t\n"

/* One "name=value" of the text, at p (len characters): into out. */
static bool parse_one(struct ak_ai_weights *out, const char *p, size_t len, char *err, size_t errlen)
{
    size_t name = strcspn(p, "=");
    if (name > len)
        name = len;
    int j = 0;
    while (j < AK_AI_WEIGHTS && !(strlen(weight_table[j].name) == name && strncmp(p, weight_table[j].name, name) == 0))
        j++;
    if (j == AK_AI_WEIGHTS) {
        snprintf(err, errlen, "unknown weight '%.*s'", (int)name, p);
        return false;
    }
    char *end;
    double v = name < len ? strtod(p + name + 1, &end) : 0;
    if (name == len || end == p + name + 1 || end != p + len || !(v >= 0) || !isfinite(v)) {
        snprintf(err, errlen, "weight %s: name=value with a number >= 0", weight_table[j].name);
        return false;
    }
    *ak_ai_weight(out, j) = v;
    return true;
}

bool ak_ai_weights_parse(struct ak_ai_weights *w, const char *text, char *err, size_t errlen)
{
    struct ak_ai_weights out = *w;
    for (const char *p = text + strspn(text, SEPARATORS); *p; p += strspn(p, SEPARATORS)) {
        size_t len = strcspn(p, SEPARATORS);
        if (!parse_one(&out, p, len, err, errlen))
            return false;
        p += len;
    }
    *w = out;
    return true;
}

/* A supply unit on h with no own combat unit on h, within an enemy combat
 * unit's movement: the enemy can take it (CAPTURE). */
static bool exposed(const struct ak_state *s, ak_hex h, int side)
{
    bool guarded = false, threatened = false;
    for (int u = 0; u < s->units && !guarded; u++) {
        if (!ak_on_board(s, u) || !ak_unit_is_combat(ak_def(u)))
            continue;
        ak_hex x = s->unit[u].hex;
        if (ak_def(u)->side == side)
            guarded = x == h;
        else if (ak_hex_distance(x, h) <= ak_def(u)->movement)
            threatened = true;
    }
    return threatened && !guarded;
}

#define FRONT_REACH 80     /* squares: a supply unit this far behind the front still feels its pull (the map is 69 wide) */

/* What side_value needs of the whole position for one side, worked out
 * once an evaluation: where its units would be in supply and where they
 * would not be isolated (the ruleset's senses), who controls each key
 * square, and its front: the squares of its combat units next to an
 * enemy combat unit, and the key squares it could assault (enemy units
 * on a key it does not hold: the siege its supply must come up to before
 * any unit is next to the enemy; ak_ai_assault.c). */
struct side_view {
    const uint8_t *supply, *open;
    const uint8_t *zone;        /* in an enemy zone of control (ak_overlay) */
    const uint8_t *control;     /* [AK_KEYS] */
    int nfront;
    ak_hex front[AK_UNIT_MAX + AK_KEYS];
};

static void find_front(const struct ak_state *s, int side, struct side_view *v)
{
    static uint8_t enemy[AK_HEX_COUNT];
    memset(enemy, 0, sizeof enemy);
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side != side && ak_on_board(s, u) && ak_unit_is_combat(ak_def(u)))
            enemy[s->unit[u].hex] = 1;
    v->nfront = 0;
    for (int u = 0; u < s->units; u++) {
        if (ak_def(u)->side != side || !ak_on_board(s, u) || !ak_unit_is_combat(ak_def(u)))
            continue;
        ak_hex h = s->unit[u].hex;
        for (int d = 0; d < AK_DIRS; d++) {
            ak_hex n = ak_hex_neighbor(h, d);
            if (n != AK_HEX_NONE && enemy[n] && ak_adjacent(h, n)) {
                v->front[v->nfront++] = h;
                break;
            }
        }
    }
    for (int k = 0; k < AK_KEYS; k++)      /* the assault targets (ak_ai_assault_targets), from what is at hand */
        if (v->control[k] != side && enemy[ak_key_hex(k)])
            v->front[v->nfront++] = ak_key_hex(k);
}

/* How near a supply unit on h is to the front (SUSTAIN ATTACKS: attacks
 * need one within AK_SUPPLY_RANGE squares): 1 within supply range of the
 * front; beyond, half as much falling to 0 FRONT_REACH squares further
 * back (a gradient that brings it up over the turns it takes, and a step
 * that is worth the last square into range); 0 with no front. */
static double at_front(const struct side_view *v, ak_hex h)
{
    int nearest = -1;
    for (int i = 0; i < v->nfront; i++) {
        int d = ak_hex_distance(v->front[i], h);
        nearest = nearest < 0 || d < nearest ? d : nearest;
    }
    if (nearest < 0 || nearest > AK_SUPPLY_RANGE + FRONT_REACH)
        return 0;
    return nearest <= AK_SUPPLY_RANGE ? 1 : 0.5 * (1 - (double)(nearest - AK_SUPPLY_RANGE) / FRONT_REACH);
}

/* A combat unit's factors as they stand (a reduced unit at half). */
static double factors(const struct ak_state *s, int u)
{
    const struct ak_unit_def *d = ak_def(u);
    int a = d->attack, f = d->defense;
    if (s->unit[u].reduced) {
        a = ak_reduced_factor(a);
        f = ak_reduced_factor(f);
    }
    return a + f;
}

/* Every combat unit of side on board, in factors. */
static double own_material(const struct ak_state *s, int side)
{
    double f = 0;
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == side && ak_on_board(s, u) && ak_unit_is_combat(ak_def(u)))
            f += factors(s, u);
    return f;
}

#define THREAT_REACH 3     /* enemy combat units this near may attack a stack next turn */

/* The enemy's best attack on the stack on h next turn, as if every enemy
 * combat unit within THREAT_REACH squares joined it: its expected gain
 * for the enemy (ak_ai_battle_value), in factors. */
static double threat_on(const struct ak_state *s, ak_hex h, int side)
{
    struct ak_action b = {.kind = AK_ACT_BATTLE, .side = (uint8_t)!side, .supply = AK_UNIT_NONE, .hex = AK_HEX_NONE};
    int attackers = 0;
    for (int u = 0; u < s->units && b.nunits < AK_GROUP_MAX; u++) {
        if (!ak_on_board(s, u) || !ak_unit_is_combat(ak_def(u)))
            continue;
        ak_hex x = s->unit[u].hex;
        if (ak_def(u)->side == side ? x == h : ak_hex_distance(x, h) <= THREAT_REACH) {
            b.units[b.nunits++] = (uint8_t)u;
            attackers += ak_def(u)->side != side;
        }
    }
    double v = attackers ? ak_ai_battle_value(s, &b) : 0;
    return v > 0 ? v : 0;
}

/* A stack on h in an enemy zone must attack (1964: ATTACKING 6; units
 * that cannot, even at 1-6, are abandoned): its best attack on a square
 * next to it, when even that loses, is what being there costs. */
static double forced_attack(const struct ak_state *s, const struct side_view *view, ak_hex h, int side)
{
    if (!ak_ruleset_get(s->ruleset)->attacks_obligatory || !view->zone[h])
        return 0;
    double best = -HUGE_VAL;
    for (int d = 0; d < AK_DIRS; d++) {
        ak_hex e = ak_hex_neighbor(h, d);
        if (e == AK_HEX_NONE || !ak_adjacent(h, e))
            continue;
        struct ak_action b = {.kind = AK_ACT_BATTLE, .side = (uint8_t)side, .supply = AK_UNIT_NONE, .hex = AK_HEX_NONE};
        int defenders = 0;
        for (int u = 0; u < s->units && b.nunits < AK_GROUP_MAX; u++) {
            if (!ak_on_board(s, u) || !ak_unit_is_combat(ak_def(u)))
                continue;
            bool mine = ak_def(u)->side == side;
            if ((mine && s->unit[u].hex == h) || (!mine && s->unit[u].hex == e)) {
                b.units[b.nunits++] = (uint8_t)u;
                defenders += !mine;
            }
        }
        if (defenders) {
            double v = ak_ai_battle_value(s, &b);
            best = v > best ? v : best;
        }
    }
    return best < 0 && best > -HUGE_VAL ? best : 0;
}

/* The chance that side has no supply unit at the start of its next turn
 * if it has none now, where the ruleset makes two such turns lose every
 * unit on board (ISOLATION 1); 0 elsewhere. None can come without a port
 * held (its home base or Tobruch, LOGISTICS); one still due this turn can
 * be placed; a side given one a turn never misses; the Axis's is SUNK on
 * the faces the scenario's supply table gives its next turn. */
static double supply_miss_chance(const struct ak_state *s, int side)
{
    const struct ak_scenario *sc = &ak_data()->scenario;
    const struct ak_map *m = ak_map();
    int next = s->turn + 1, faces = 0;
    if (!ak_ruleset_get(s->ruleset)->no_supply_loses_all || next > sc->turns)
        return 0;
    bool port = false;
    for (int k = 0; k < AK_KEYS; k++)
        port = port || (s->control[k] == side && (ak_key_hex(k) == m->homebase[side] || ak_key_hex(k) == m->tobruch));
    if (!port)
        return 1;
    if ((side == s->side && s->supply_due > 0) || sc->supply_per_turn[side] > 0)
        return 0;
    for (int r = 1; r <= 6; r++)
        faces += (sc->sunk[next] >> r) & 1;
    return faces / 6.0;
}

/* What spending one of one's supply units costs: much more for the last
 * one (without any for two turns, every unit is lost: ISOLATION 1, at the
 * chance the next one is sunk). The position counts the same: each
 * supply unit at supply_unit, having any at all no_supply / 2 more, and
 * having none that chance of every unit (side_value). */
double ak_ai_supply_worth(const struct ak_ai_weights *w, const struct ak_state *s, int side)
{
    int n = 0;
    for (int u = 0; u < s->units; u++)
        n += ak_def(u)->side == side && ak_def(u)->type == AK_TYPE_SUPPLY && ak_on_board(s, u);
    if (n > 1)
        return w->supply_unit;
    return w->supply_unit + w->no_supply / 2 + supply_miss_chance(s, side) * w->material * own_material(s, side);
}

static bool all_in_supply(const struct ak_state *s, int side, const uint8_t *supply)
{
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == side && ak_on_board(s, u) && ak_unit_is_combat(ak_def(u)) && !supply[s->unit[u].hex])
            return false;
    return true;
}

/* One side's part of the value (the caller subtracts the enemy's). */
static double side_value(const struct ak_ai_weights *w, const struct ak_state *s, int side,
                         const struct side_view *view)
{
    const uint8_t *supply = view->supply, *open = view->open;
    const struct ak_map *m = ak_map();
    ak_hex goal = m->homebase[!side];
    double v = 0, front = 0;    /* front: the supply unit nearest the front's at_front */
    double material = 0;
    int supply_units = 0;
    for (int u = 0; u < s->units; u++)
        supply_units += ak_def(u)->side == side && ak_def(u)->type == AK_TYPE_SUPPLY && ak_on_board(s, u);
    bool last_supply = supply_units == 1;
    bool garrison = false, any_supply = false;
    /* the Axis's march counts no further than its supply can follow: a
     * unit more than AK_SUPPLY_RANGE squares ahead of the most advanced
     * supply unit cannot attack (SUSTAIN ATTACKS 1), so its advance stops
     * there and the supply unit's next step carries every unit waiting
     * on it (the army and its supply go up together) */
    int supply_way = -1;    /* none on board: no bound */
    for (int u = 0; u < s->units && side == AK_AXIS; u++)
        if (ak_def(u)->side == side && ak_def(u)->type == AK_TYPE_SUPPLY && ak_on_board(s, u)) {
            int d = ak_ai_key_distance(view->control, side, s->unit[u].hex) - AK_SUPPLY_RANGE;
            if (supply_way < 0 || d < supply_way)
                supply_way = d > 0 ? d : 0;
        }
    static uint8_t seen[AK_HEX_COUNT];
    memset(seen, 0, sizeof seen);
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit_def *d = ak_def(u);
        if (d->side != side || !ak_on_board(s, u))
            continue;
        ak_hex h = s->unit[u].hex;
        if (d->type == AK_TYPE_SUPPLY) {
            /* an exposed supply unit is taken if the enemy can; the last
             * one then takes with it what having any is worth
             * (ak_ai_supply_worth), so that it counts as much as having
             * none: no gain in spending or burning it */
            if (exposed(s, h, side))
                v -= last_supply ? ak_ai_supply_worth(w, s, side) - w->supply_unit + fmin(w->supply_exposed, w->supply_unit)
                                 : w->supply_exposed;
            v += w->supply_unit;
            double f = at_front(view, h);
            front = f > front ? f : front;
            any_supply = true;
            continue;
        }
        if (!ak_unit_is_combat(d))
            continue;
        double f = factors(s, u);
        material += f;
        v += w->material * f;
        if (!seen[h]) {
            seen[h] = 1;
            if (w->threat)
                v -= w->threat * threat_on(s, h, side);
            v += w->battle * forced_attack(s, view, h, side);
        }
        /* the march measured in attack factors (AK_AI_ADVANCE_UNIT a
         * unit): the assault needs them at the front, and the weakest are
         * the ones to leave behind as garrisons */
        if (side == AK_AXIS) {
            int way = ak_ai_key_distance(view->control, side, h);
            v -= w->advance * (way > supply_way ? way : supply_way) * d->attack / AK_AI_ADVANCE_UNIT;
        }
        if (!supply[h])
            v -= w->out_of_supply * f;
        /* cut off now, not as the turn began: a unit that walks out of a
         * pocket is saved, one that a pocket closes on counts from now, and
         * the turns it has been isolated already bring it nearer its end
         * (1964: eliminated at the end of its second turn) */
        if (!open[h])
            v -= w->isolated * f * (1 + s->unit[u].isolated);
        if (ak_hex_distance(h, goal) <= 3)
            v += w->home_threat;       /* the enemy's base threatened */
        if (h == m->tobruch)
            v += w->tobruch;
        garrison = garrison || h == m->homebase[side];
    }
    for (int k = 0; k < AK_KEYS; k++)
        v += view->control[k] == side ? w->key_square : 0;
    /* one supply unit in range sustains every attack (SUSTAIN ATTACKS 4-5):
     * the front is worth its weight once */
    if (!any_supply)    /* every unit lost if the next supply unit is sunk (ISOLATION 1) */
        v -= supply_miss_chance(s, side) * w->material * material;
    return v + w->supply_front * front + (garrison ? w->home_garrison : 0) + (any_supply ? w->no_supply / 2 : 0) -
           w->no_supply * s->no_supply_turns[side];
}

double ak_ai_evaluate(const struct ak_ai_weights *w, const struct ak_state *s, int side)
{
    if (s->phase == AK_PHASE_OVER)
            return s->result == AK_RESULT_DRAW ? 0
               : s->result == (side == AK_AXIS ? AK_RESULT_AXIS_WINS : AK_RESULT_ALLIED_WINS) ? WON : -WON;
    static uint8_t supply[AK_SIDES][AK_HEX_COUNT], open[AK_SIDES][AK_HEX_COUNT], zone[AK_SIDES][AK_HEX_COUNT];
    static struct side_view view[AK_SIDES];
    static uint8_t control[AK_KEYS];
    for (int k = 0; k < AK_KEYS; k++)
        control[k] = (uint8_t)ak_control_now(s, k);
    for (int x = 0; x < AK_SIDES; x++) {
        ak_overlay(s, x, zone[x], supply[x]);
        view[x].supply = supply[x];
        view[x].zone = zone[x];
        /* a unit in supply is never isolated (in both rulesets): the
         * isolation map is worked out only when some unit is out of supply */
        view[x].open = all_in_supply(s, x, supply[x]) ? supply[x] : (ak_isolation_overlay(s, x, open[x]), open[x]);
        view[x].control = control;
        find_front(s, x, &view[x]);
    }
    return side_value(w, s, side, &view[side]) - side_value(w, s, !side, &view[!side]);
}
