/* ak_ai_internal: what the files of the AI library share and nobody
 * else uses (ak_ai.h is the library's door). */
#ifndef AK_AI_INTERNAL_H
#define AK_AI_INTERNAL_H

#include "ak_ai.h"

/* The best battle a unit of side on h could open next to it: its side's
 * combat units next to the best enemy square next to h, against it, by
 * ak_ai_battle_worth (ak_ai_battle.c). */
double ak_ai_opened_battle(const struct ak_ai_weights *w, const struct ak_state *s, ak_hex h, int side);
/* The battle side's combat units next to enemy square e would fight. */
double ak_ai_battle_against(const struct ak_ai_weights *w, const struct ak_state *s, ak_hex e, int side);

/* The way from h to holding every key square for side, in squares: to
 * the nearest one it does not control (control[k]: ak_control_now of
 * each key), and a leg for each other one; 0 when it controls them all
 * (ak_ai_keys.c). */
int ak_ai_key_distance(const uint8_t *control, int side, ak_hex h);
/* The Axis's advance is counted in attack factors, a unit of this many
 * attack factors at the weight `advance` says (ak_ai_eval.c; the Axis's
 * units average 2.7, so the march weighs about two thirds of what it did
 * counted by units: measured so, docs/ai.md). */
#define AK_AI_ADVANCE_UNIT 4.0

/* The key squares side could assault: those it does not control with
 * enemy combat units on them, into out[AK_KEYS]; how many
 * (ak_ai_assault.c). */
int ak_ai_assault_targets(const struct ak_state *s, int side, ak_hex *out);
/* Unit u's part in the assault on t, of its n destinations dests (valued
 * v, the best part taken, its value in *worth; HUGE_VAL when the unit
 * is in its place already): a combat unit next to t, on a square whose
 * stack (stacked[], counted by the caller for this assault, and raised
 * here) has room; a supply unit within range of every square next to t
 * by distance; the unit's own square when it is there already;
 * AK_HEX_NONE when it cannot take part this turn. With stage (no supply
 * unit can come within range of t this turn: an assault now could not
 * end its part), the march up to it instead: a combat unit to a square
 * two or three from t and next to no enemy unit, a supply unit as near t
 * as it can get next to no enemy unit. */
ak_hex ak_ai_assault_part(const struct ak_state *s, int u, ak_hex t, const struct ak_action *dests, const double *v,
                          int n, uint8_t *stacked, bool stage, double *worth);
/* Whether a supply unit of side can end this movement within range of
 * every square next to t (ak_ai_assault_part's supply part). */
bool ak_ai_assault_supplied(const struct ak_state *s, int side, ak_hex t);

/* The strong level's plan of the movement part of the turn s is in, by
 * online evolutionary planning within `evaluations` positions valued
 * (ak_ai_plan.c): at most cap moves, in the order to send them. */
int ak_ai_plan(struct ak_ai *ai, const struct ak_state *s, int evaluations, struct ak_action *plan, int cap);

/* What the enemy's best single move next turn would take from side's
 * value in s, in factors, >= 0 (ak_ai_reply.c). */
double ak_ai_reply_cost(const struct ak_ai_weights *w, const struct ak_state *s, int side);

/* Crowded squares (ak_ai_stack.c): the stricter stacking limit of the
 * edition; the side to move's combat units per square; whether unit u
 * may still move this part; its movable combat units on squares over the
 * limit, up to max, how many. */
int ak_ai_stack_limit(const struct ak_state *s);
void ak_ai_count_own(const struct ak_state *s, uint8_t *count);
bool ak_ai_may_move(const struct ak_state *s, int u);
int ak_ai_crowded_units(const struct ak_state *s, uint8_t *out, int max);
/* Whether action a places a combat unit on a square the side's stack
 * already fills: legal (the stack may be thinned later) but, with many
 * arrivals on one base, a part that can no longer end. */
bool ak_ai_crowds(const struct ak_state *s, const struct ak_action *a);
/* Supply unit sup's moves as one stack with a combat unit of its square
 * that may still move (ak_ai_escort.c), up to max; how many. Candidates:
 * the engine judges each when it is tried. */
int ak_ai_escorted_moves(const struct ak_state *s, int sup, struct ak_action *out, int max);

#endif
