/* ak_hazards_classic: the dangers of the 1964 rules (the classic ruleset's
 * `hazards`, ak_hazards.h): supply not placed, reinforcements and units at
 * sea lost when the movement portion ends, ports that will not be held,
 * turns without a supply unit, isolation, units in enemy zones beyond
 * supply reach and battles owed. */
#include <stdio.h>
#include <string.h>

#include "ak_arrival.h"
#include "ak_battle.h"
#include "ak_combat.h"
#include "ak_engine.h"
#include "ak_classic.h"
#include "ak_hazards_internal.h"
#include "ak_sustain.h"
#include "ak_zoc.h"

/* LOGISTICS, MOVEMENT 6: supply not taken is not accumulated. */
static void supply_unplaced(struct ak_hz_list *l)
{
    const struct ak_state *s = l->s;
    if (s->phase != AK_PHASE_MOVEMENT || s->supply_due == 0)
        return;
    char a[8], b[8];
    const struct ak_map *m = ak_map();
    bool port = s->control[s->side == AK_AXIS ? AK_KEY_AXIS_BASE : AK_KEY_ALLIED_BASE] == s->side ||
                s->control[AK_KEY_TOBRUCH] == s->side;
    bool spare = false;
    for (int u = 0; u < s->units && !spare; u++)
        spare = ak_def(u)->side == s->side && ak_def(u)->type == AK_TYPE_SUPPLY &&
                !ak_def(u)->captured_counter && s->unit[u].where == AK_AT_POOL;
    if (ak_own_supply_on_board(s, s->side) >= ak_data()->scenario.supply_max[s->side] || !spare)
        /* Nothing the player can do about it: said, not asked about. */
        ak_hz_add(l, AK_HZ_SUPPLY_UNPLACED, "LOGISTICS-QUOTA", 0,
               "A new supply unit is due but cannot be placed: %s; it is not accumulated",
               spare ? "you already have the most supply units on board the rules allow"
                     : "every supply counter of yours is on the board");
    else if (port)
        ak_hz_add(l, AK_HZ_SUPPLY_UNPLACED, "LOGISTICS-M6", AK_ACT_END_MOVEMENT,
               "A new supply unit is due and not yet placed: place it at your home base %s or Tobruch %s (whichever you controlled at the start of the turn) before the movement portion ends, or it is lost; supply is not accumulated",
               ak_hex_format(m->homebase[s->side], a), ak_hex_format(m->tobruch, b));
    else
        ak_hz_add(l, AK_HZ_SUPPLY_UNPLACED, "LOGISTICS-M1", AK_ACT_END_MOVEMENT,
               "A new supply unit is due but you controlled neither your home base %s nor Tobruch %s at the start of the turn: it cannot be placed and is lost when the movement portion ends",
               ak_hex_format(m->homebase[s->side], a), ak_hex_format(m->tobruch, b));
}

/* REINFORCEMENTS 7 and FORTRESSES 4: units lost when the portion ends. */
static void units_lost_at_end(struct ak_hz_list *l)
{
    const struct ak_state *s = l->s;
    uint8_t late[AK_HAZARD_UNITS], sea[AK_HAZARD_UNITS];
    int nl = 0, ns = 0;
    if (s->phase != AK_PHASE_MOVEMENT)
        return;
    bool last = s->turn == ak_data()->scenario.turns;
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit *x = &s->unit[u];
        if (ak_def(u)->side != s->side)
            continue;
        if (last && ak_def(u)->arrival_turn > 0 && x->where == AK_AT_POOL && nl < AK_HAZARD_UNITS)
            late[nl++] = (uint8_t)u;
        if (x->where == AK_AT_SEA && x->sea_turn < s->turn && ns < AK_HAZARD_UNITS)
            sea[ns++] = (uint8_t)u;
    }
    if (nl > 0)
        ak_hz_units(l, AK_HZ_REINFORCEMENTS_LOST, "REINF-7", AK_ACT_END_MOVEMENT, late, nl,
                        "This is the last turn: %s, never placed, %s eliminated when the movement portion ends");
    if (ns > 0)
        ak_hz_units(l, AK_HZ_AT_SEA, "FORTRESS-4", AK_ACT_END_MOVEMENT, sea, ns,
                        "%s %s at sea since your last turn and must land this movement portion at Tobruch or your home base, or be lost");
}

static bool garrisoned(const struct ak_state *s, ak_hex h, int side)
{
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == side && ak_on_board(s, u) && s->unit[u].hex == h)
            return true;
    return false;
}

/* An enemy combat unit close enough to put a zone on h next turn: within
 * its movement factor plus one square (distance only: a warning, not a
 * verdict). */
static bool threatened(const struct ak_state *s, ak_hex h, int side)
{
    for (int e = 0; e < s->units; e++)
        if (ak_def(e)->side != side && ak_on_board(s, e) && ak_unit_is_combat(ak_def(e)) &&
            ak_hex_distance(s->unit[e].hex, h) <= ak_def(e)->movement + 1)
            return true;
    return false;
}

/* CONTROL, REINFORCEMENTS 1 and 5: arrivals come only at a port the side
 * controls at the start of its turn. */
static void ports(struct ak_hz_list *l)
{
    const struct ak_state *s = l->s;
    int side = s->side, bites = s->phase == AK_PHASE_MOVEMENT ? AK_ACT_END_MOVEMENT : AK_ACT_END_TURN;
    ak_hex base = ak_map()->homebase[side], tob = ak_map()->tobruch;
    bool tob_held = garrisoned(s, tob, side);
    bool base_empty = !garrisoned(s, base, side);
    bool base_zoc = !base_empty && ak_in_enemy_zoc(s, base, side);
    char a[8], b[8];
    const char *nowhere = tob_held ? "" : " (nor at Tobruch, which you do not hold)";
    if (base_empty || base_zoc) {
        struct ak_hazard *h = ak_hz_add(l, AK_HZ_PORT, "CONTROL", bites,
               "Your home base %s %s: at the start of your next turn you will not control it, and no reinforcement or new supply unit can arrive there%s",
               ak_hex_format(base, a), base_empty ? "has no unit on it" : "is in an enemy zone of control (unless the enemy unit is beaten or leaves first)", nowhere);
        h->hex = base;
    } else if (threatened(s, base, side)) {
        struct ak_hazard *h = ak_hz_add(l, AK_HZ_PORT, "CONTROL", 0,
               "Enemy units can reach the squares around your home base %s: if one puts it in its zone of control, you will not control it next turn and nothing can arrive there%s",
               ak_hex_format(base, a), nowhere);
        h->hex = base;
    }
    if (!tob_held && s->control[AK_KEY_TOBRUCH] == side) {
        struct ak_hazard *h = ak_hz_add(l, AK_HZ_PORT, "CONTROL", bites,
               "Tobruch %s has no unit of yours in it: at the start of your next turn you will not control it, and nothing can arrive there%s",
               ak_hex_format(tob, b), base_empty || base_zoc ? " nor at your home base" : "");
        h->hex = tob;
    }
}

/* Supply units of side on board, own or captured (ISOLATION 1 counts
 * both), and how many of them battles already use (they leave at the end
 * of the turn: SUSTAIN ATTACKS 5). */
static int supply_on_board(const struct ak_state *s, int side, int *used)
{
    int n = 0;
    *used = 0;
    for (int u = 0; u < s->units; u++) {
        if (ak_def(u)->side != side || ak_def(u)->type != AK_TYPE_SUPPLY || !ak_on_board(s, u))
            continue;
        n++;
        for (int b = 0; b < s->nbattles; b++)
            if (s->battle[b].supply == u) {
                (*used)++;
                break;
            }
    }
    return n;
}

/* The chance the next turn brings side no new supply unit, in words
 * (SUPPLY TABLE: the Axis rolls one die at the start of each German turn;
 * LOGISTICS: the Allies receive theirs every turn), appended to the
 * warnings of ISOLATION 1: "; the supply unit due ... (1 chance in 3)". */
static void next_supply_odds(const struct ak_state *s, char *out, size_t size)
{
    const struct ak_scenario *sc = &ak_data()->scenario;
    int next = s->turn + 1, k = 0;
    char faces[32] = "";
    out[0] = 0;
    if (next > sc->turns)
        return;
    if (s->side == AK_ALLIED) {
        if (sc->supply_per_turn[AK_ALLIED] > 0)
            snprintf(out, size, "; a supply unit is due at the start of your next turn (LOGISTICS)");
        return;
    }
    for (int r = 1; r <= 6; r++)
        k += (sc->sunk[next] >> r) & 1;
    for (int r = 1, listed = 0; r <= 6; r++)
        if ((sc->sunk[next] >> r) & 1) {
            size_t len = strlen(faces);
            snprintf(faces + len, sizeof faces - len, "%s%d", listed == 0 ? "" : listed == k - 1 ? " or " : ", ", r);
            listed++;
        }
    int g = 6;                  /* gcd(k, 6), for "1 chance in 3" */
    while (k % g || 6 % g)
        g--;
    if (k == 0)
        snprintf(out, size, "; the supply roll at the start of your next turn cannot sink the supply unit due");
    else if (k == 6)
        snprintf(out, size, "; the supply unit due at the start of your next turn is SUNK whatever the roll "
                 "(SUPPLY TABLE, %s)", sc->date[next]);
    else
        snprintf(out, size, "; the supply unit due at the start of your next turn is SUNK on a roll of %s "
                 "(%d chance%s in %d: SUPPLY TABLE, %s)", faces, k / g, k / g > 1 ? "s" : "", 6 / g, sc->date[next]);
}

/* ISOLATION 1: two consecutive turns without a supply unit on board. */
static void no_supply(struct ak_hz_list *l)
{
    const struct ak_state *s = l->s;
    int used, have = supply_on_board(s, s->side, &used);
    int before = s->no_supply_turns[s->side];
    char odds[200];
    next_supply_odds(s, odds, sizeof odds);
    if (s->phase == AK_PHASE_MOVEMENT && have == 0) {
        struct ak_hazard *h;
        if (before >= 1)
            h = ak_hz_add(l, AK_HZ_NO_SUPPLY, "ISOLATION-1", AK_ACT_END_MOVEMENT,
                       "You have no supply unit on board, and had none when your last movement portion ended: if this one ends without one, every unit of yours on the board is lost");
        else
            h = ak_hz_add(l, AK_HZ_NO_SUPPLY, "ISOLATION-1", 0,
                       "You have no supply unit on board: if the movement portion ends so, that is turn 1 of 2; a second such turn in a row loses every unit of yours on the board");
        h->count = (uint8_t)(before + 1);
        h->of = 2;
        /* the second turn: what next turn brings is too late; this
         * turn's roll is what matters */
        if (before >= 1)
            odds[0] = 0;
        if (before >= 1 && s->side == AK_AXIS && s->supply_roll && !s->supply_due &&
            (ak_data()->scenario.sunk[s->turn] & (1u << s->supply_roll)))
            snprintf(odds, sizeof odds, "; this turn's supply roll (%d) was SUNK: only a supply unit captured in "
                     "this portion can save them", s->supply_roll);
        size_t len = strlen(h->text);
        snprintf(h->text + len, sizeof h->text - len, "%s", odds);
    } else if (s->phase == AK_PHASE_COMBAT && have - used == 0) {
        struct ak_hazard *h = ak_hz_add(l, AK_HZ_NO_SUPPLY, "ISOLATION-1", 0, "%s",
               have > 0 ? "The supply used by your battles leaves the board at the end of this turn and no other supply unit of yours is on board: unless one is placed or captured in your next movement portion, that is turn 1 of 2 without supply; a second such turn in a row loses every unit of yours on the board"
               : before >= 1 ? "You have no supply unit on board, and had none when your last movement portion ended: unless one is placed or captured in your next movement portion, every unit of yours on the board is lost when it ends"
                             : "You have no supply unit on board: unless one is placed or captured in your next movement portion, that is turn 1 of 2 without supply; a second such turn in a row loses every unit of yours on the board");
        h->count = (uint8_t)(have > 0 || before == 0 ? 1 : 2);
        h->of = 2;
        size_t len = strlen(h->text);
        snprintf(h->text + len, sizeof h->text - len, "%s", odds);
    }
}

/* ISOLATION: units isolated since the start of the turn and still so. */
static void isolated(struct ak_hz_list *l)
{
    static uint8_t line[AK_HEX_COUNT];
    const struct ak_state *s = l->s;
    uint8_t turn[2][AK_HAZARD_UNITS];
    int n[2] = {0, 0};
    bool lines = false;
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit *x = &s->unit[u];
        if (ak_def(u)->side != s->side || !x->isolated || !ak_on_board(s, u))
            continue;
        if (!lines) {
            ak_isolation_map(s, s->side, line);
            lines = true;
        }
        int k = x->isolated >= 2;
        if (ak_isolated(s, u, line) && n[k] < AK_HAZARD_UNITS)
            turn[k][n[k]++] = (uint8_t)u;
    }
    if (n[1] > 0) {
        struct ak_hazard *h = ak_hz_units(l, AK_HZ_ISOLATED, "ISOLATION", AK_ACT_END_TURN, turn[1], n[1],
                        "%s %s isolated for the second turn (encircled: no supply line, no way to the home base): unless a supply line reaches them or their pocket is opened by the end of this turn, they are eliminated");
        h->count = 2;
        h->of = 2;
    }
    if (n[0] > 0) {
        struct ak_hazard *h = ak_hz_units(l, AK_HZ_ISOLATED, "ISOLATION", 0, turn[0], n[0],
                        "%s %s isolated (turn 1 of 2, encircled: no supply line, no way to the home base) and cannot attack; isolated again at the start of your next turn and still at its end, they are eliminated");
        h->count = 1;
        h->of = 2;
    }
}

/* SUSTAIN ATTACKS 2 and ATTACKING 6: what holds the portion open. */
static void obligations(struct ak_hz_list *l)
{
    const struct ak_state *s = l->s;
    uint8_t units[AK_GROUP_MAX];
    if (s->phase == AK_PHASE_MOVEMENT) {
        int n = ak_sustain_out_of_reach(s, units, AK_GROUP_MAX);
        if (n > 0)
            ak_hz_units(l, AK_HZ_OUT_OF_REACH, "SUSTAIN-2", 0, units, n,
                            "%s %s in an enemy zone of control more than 5 squares from any of your supply units: bring a supply unit within reach, or the movement portion cannot end");
    } else if (!s->combat_locked) {
        int n = ak_combat_owed(s, units, AK_GROUP_MAX);
        if (n > 0)
            ak_hz_units(l, AK_HZ_BATTLES_OWED, "ATTACKING-6", 0, units, n,
                            "%s %s in enemy zones of control and must attack this turn (or be removed if they cannot attack at 1-6)");
    }
}

void ak_hazards_classic(struct ak_hz_list *l)
{
    supply_unplaced(l);
    units_lost_at_end(l);
    ports(l);
    no_supply(l);
    isolated(l);
    obligations(l);
}
