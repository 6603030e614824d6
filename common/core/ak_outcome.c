/* ak_outcome: what an action's outcome is made of, shared by every
 * ruleset: the rule code table (each code with the seed section it
 * enforces and the rule in words), rejections that name it, and the
 * event list an applied action fills. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ak_rules.h"

/* Every code a rejection can carry, with the seed section it enforces. */
static const struct ak_rule_info rules[] = {
    {"PLAY-1", "HOW TO PLAY, STEP 1", "only the player whose turn it is may act"},
    {"PLAY-2", "HOW TO PLAY, STEPS 1-4", "movement comes before combat in each player turn"},
    {"PLAY-5", "HOW TO PLAY, STEP 5", "the game ends after the last October 1942 turn"},
    {"MOVE-1", "HOW TO MOVE UNITS 1", "you may move only your own units on board"},
    {"MOVE-2", "HOW TO MOVE UNITS 2", "no unit moves more squares than its movement factor"},
    {"MOVE-4", "HOW TO MOVE UNITS 4", "a move is a chain of adjacent squares"},
    {"MOVE-6", "HOW TO MOVE UNITS 6", "no moving onto or over enemy units"},
    {"MOVE-7", "HOW TO MOVE UNITS 7", "movement factors are not transferable or accumulated"},
    {"MOVE-8", "HOW TO MOVE UNITS 8", "no Qattara squares, sea or board-edge squares without a coordinate"},
    {"STACK-1", "MORE THAN ONE UNIT PER SQUARE 1", "at most three combat units in a square"},
    {"STACK-4", "MORE THAN ONE UNIT PER SQUARE 4", "a stack moves together from one square"},
    {"ATTACKING-1", "ATTACKING 1", "a unit stops on entering an enemy zone of control"},
    {"ATTACKING-2", "ATTACKING 2", "no moving through enemy zones of control"},
    {"ATTACKING-6", "ATTACKING 6", "every enemy unit you moved next to must be fought"},
    {"ESCARPMENT-2", "ESCARPMENT 2", "a unit that lands on an escarpment stops for the turn"},
    {"LOGISTICS-M1", "LOGISTICS, MOVEMENT 1", "new supply starts at your home base or Tobruch, controlled at the start of your turn"},
    {"LOGISTICS-M5", "LOGISTICS, MOVEMENT 5", "supply units go next to the enemy only to sustain an attack that turn"},
    {"LOGISTICS-M6", "LOGISTICS, MOVEMENT 6", "one new supply unit per turn, not accumulated"},
    {"LOGISTICS-QUOTA", "LOGISTICS", "Allied at most 4, Axis at most 3 own supply units on board"},
    {"BID", "LOGISTICS (a side bid: docs/rules-notes.md)", "a side bid's extra supply units start beside the initial supply, within the quota"},
    {"SUPPLY-TABLE", "SUPPLY TABLE", "the Axis gets a supply unit only when the roll is not SUNK"},
    {"CAPTURE-5", "CAPTURE 5", "supply units never move next to enemy supply without combat units"},
    {"CAPTURE-8", "CAPTURE 8", "only your own supply units in danger of capture may be destroyed, at the end of your turn"},
    {"REINF-1", "REINFORCEMENTS 1", "arrivals start at your home base or Tobruch, controlled at the start of your turn"},
    {"REINF-3", "REINFORCEMENTS 3", "over three high on placement only, never in a besieged Tobruch"},
    {"REINF-ORDER", "REINFORCEMENTS (Order of Appearance)", "a reinforcement enters no earlier than its turn"},
    {"REINF-6", "REINFORCEMENTS 6", "the enemy home base is never an arrival square"},
    {"REINF-7", "REINFORCEMENTS 7", "reinforcements not in play by the last turn are eliminated"},
    {"WIN", "HOW TO WIN", "either side wins by controlling both fortresses and both home bases for 2 consecutive turns, or by eliminating all enemy combat units; the Allies also by holding out to the end of October 1942"},
    {"CONTROL", "LOGISTICS, MOVEMENT: CONTROL", "a home base is yours when garrisoned and out of enemy zones, a fortress when garrisoned"},
    {"FORTRESS-3", "FORTRESSES 3", "no sea movement in or out of Bengasi"},
    {"FORTRESS-4", "FORTRESSES 4", "sea movement only between Tobruch and your own home base"},
    {"ROMMEL", "ROMMEL HEADQUARTERS UNIT", "Rommel's bonus is for units moving with him"},
    {"COMBAT", "HOW TO HAVE COMBAT", "only combat units fight; battles follow movement"},
    {"ATTACKING-4", "ATTACKING 4", "all declared battles are resolved before the turn ends"},
    {"ATTACKING-5", "ATTACKING 5", "the attacker resolves battles in the order he chooses, one at a time"},
    {"MULTI-3a", "MULTIPLE UNIT BATTLES 3a", "every enemy unit whose zone holds an attacking unit must be fought"},
    {"MULTI-3b", "MULTIPLE UNIT BATTLES 3b", "attacking units must be in the zone of every defender of their battle"},
    {"MULTI-6", "MULTIPLE UNIT BATTLES 6", "no battle at odds worse than 1 to 6; a unit that cannot attack at 1-6 is removed"},
    {"MULTI-8", "MULTIPLE UNIT BATTLES 8", "no attacking unit fights more than one battle per turn"},
    {"MULTI-9", "MULTIPLE UNIT BATTLES 9", "no defending unit is fought more than once per turn"},
    {"SUSTAIN-1", "SUSTAIN ATTACKS 1", "attackers must be within 5 squares of the supply unit, by a route free of enemy zones"},
    {"SUSTAIN-2", "SUSTAIN ATTACKS 2", "no unit stands in an enemy zone more than 5 squares from a supply unit when the movement portion ends"},
    {"SUSTAIN-3", "SUSTAIN ATTACKS 3", "the supply unit sustaining a battle is stated before combat"},
    {"SUSTAIN-7", "SUSTAIN ATTACKS 7", "attacks at 1 to 2 or better need a supply unit; 1 to 3 or worse do not"},
    {"ISOLATION", "ISOLATION", "a unit without a supply line and surrounded is isolated; isolated two consecutive turns, it is eliminated"},
    {"ISOLATION-1", "ISOLATION 1", "a side without a supply unit on board two consecutive turns loses every unit on board"},
    {"ISOLATION-2", "ISOLATION 2", "isolated units cannot attack"},
    {"FORTRESS-1", "FORTRESSES 1", "an attack into a fortress takes on every unit in it"},
    {"FORTRESS-2", "FORTRESSES 2", "a sortie from a fortress attacks every adjacent enemy unit"},
    {"RETREAT", "COMBAT RESULTS: BACK 2", "a retreat is two squares, chosen by the winner, by an unblocked route where one exists"},
    {"EXCHANGE", "COMBAT RESULTS: EXCHANGE", "the stronger side removes units of at least the loser's defense factors"},
    {"ADVANCE", "MOVEMENT AFTER BATTLE", "survivors may move onto a vacated escarpment or fortress square"},
    {"REPLACEMENTS", "REPLACEMENTS", "dead units return for accumulated attack factors from March 1942"},
    {"SUBSTITUTE", "ALLIED SUBSTITUTE COUNTERS", "from August 1942, equal attack factors, matching types, on one square"},
    /* The Updated Afrika Korps variant (seed 003). */
    {"UPD-MP", "TERRAIN EFFECTS 3, ROAD MOVEMENT", "a unit pays movement points for every square: 1, escarpment 2 (infantry) or 3, along the road 1/4 (Italian infantry) or 1/3"},
    {"UPD-ZOC-1", "NEW ZOCS 1", "infantry stops on entering an enemy zone of control, pays half its allowance to leave one and never moves from one zone square to another"},
    {"UPD-ZOC-2", "NEW ZOCS 2", "mechanized units pay 2 more movement points to enter, and 2 to leave, an enemy zone of control"},
    {"UPD-MECH", "MECH PHASE", "only mechanized units not out of supply move in the mechanized movement phase, on half their allowance"},
    {"UPD-SUPPLY-3", "SUPPLY PHASE 3", "a supply unit that cannot reach a road within 5 squares may be burned to supply the units within 5 squares of it"},
    {"UPD-REINF", "REINFORCEMENT PHASE", "new units and supply units enter at the side's entry square: the road's end towards its off-board box"},
    {"UPD-CRT", "NEW COMBAT SYSTEM 1", "battles are fought on the combat results table the server's operator loaded"},
    {"UPD-ODDS", "NEW COMBAT SYSTEM 4", "no battle at odds below the table's first column"},
    {"UPD-ATTACK-SUPPLY", "NEW COMBAT SYSTEM 3", "attackers must be within 5 squares of a supply unit spent on attacks this combat phase"},
    {"UPD-BOMBARD", "NEW COMBAT SYSTEM 3", "one bombardment a combat phase, by a second supply unit within 5 squares of the battle's attackers"},
    {"UPD-LOSSES", "NEW COMBAT SYSTEM 4", "the losing side reduces or eliminates its engaged units to meet the loss requirement"},
    {"UPD-RETREAT", "NEW ZOCS 3", "a retreat goes its number of squares, each farther away, onto no enemy unit; through enemy zones it costs a step"},
    {"UPD-ADVANCE", "COMBAT PHASE", "winning attackers may advance one square into an emptied defenders' square"},
    {"UPD-REPLACE", "REPLACEMENT PHASE", "replacement points rebuild reduced units in supply (mechanized ones not moved in the mechanized phase) or bring whole units back at the entry square"},
    {"UPD-ATTRITION", "ISOLATION ATTRITION 1", "a square of isolated units may break out, declared before the attrition roll"},
    {"UPD-BOX", "BOXES 1-2", "stationary infantry and mechanized infantry in supply, in clear terrain, fortify up to 4 squares with one supply unit within 5 squares, once a player turn, at the end of the movement phase"},
    {"UPD-PORT", "MOVEMENT PHASE, PORTS 1", "one unit a player turn moves, as its whole move, between the side's off-board box and Tobruch held at the start of the turn"},
    {"UPD-SEQUENCE", "SEQUENCE", "each player turn runs the reinforcement, movement, combat, mechanized movement, supply and replacement phases, in that order"},
    {"UPD-OOS", "SUPPLY PHASE 1", "units that trace no supply line are out of supply until their side's next supply phase: combat values halved; mechanized units at half their movement allowance, and no mechanized movement"},
    {"UPD-STACK", "NEW STACKING", "at most 3 combat units in a square, 2 where an Italian division is among them"},
    {"RULESET", "(ruleset)", "the action is not part of this edition of the rules"},
    {"ACTION", "(protocol)", "the action is not well formed"},
};

const struct ak_rule_info *ak_rule_table(int *count)
{
    *count = (int)(sizeof rules / sizeof rules[0]);
    return rules;
}

const char *ak_rule_section(const char *code)
{
    int n;
    const struct ak_rule_info *t = ak_rule_table(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(t[i].code, code) == 0)
            return t[i].section;
    return "?";
}

bool ak_reject(struct ak_reject *rej, const char *code, const char *fmt, ...)
{
    va_list ap;
    if (!rej)       /* a search that only wants the verdict */
        return false;
    rej->code = code;
    rej->section = ak_rule_section(code);
    va_start(ap, fmt);
    vsnprintf(rej->text, sizeof rej->text, fmt, ap);
    va_end(ap);
    return false;
}

void ak_event_add(struct ak_events *ev, int kind, int side, int unit, int other,
                  ak_hex from, ak_hex to, int a, int b, int c)
{
    if (!ev || ev->n >= AK_EVENTS_MAX)
        return;
    struct ak_event *e = &ev->ev[ev->n++];
    e->kind = (uint8_t)kind;
    e->side = (uint8_t)side;
    e->unit = (uint8_t)unit;
    e->other = (uint8_t)other;
    e->from = from;
    e->to = to;
    e->a = (int16_t)a;
    e->b = (int16_t)b;
    e->c = (int16_t)c;
    e->d = 0;
}

struct ak_event *ak_event_last(struct ak_events *ev)
{
    return ev && ev->n > 0 ? &ev->ev[ev->n - 1] : NULL;
}

void ak_preview_add(struct ak_battle_preview *p, const char *result, int chances)
{
    for (int i = 0; i < p->nresults; i++)
        if (strcmp(p->result[i].name, result) == 0) {
            p->result[i].chances += chances;
            return;
        }
    if (p->nresults == AK_PREVIEW_RESULTS)
        return;
    snprintf(p->result[p->nresults].name, sizeof p->result[0].name, "%s", result);
    p->result[p->nresults++].chances = chances;
}
