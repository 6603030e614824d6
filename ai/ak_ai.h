/* ak_ai: the computer player, a library on the rules engine (issue 31).
 *
 * Pure like the engine: no I/O, no clock, deterministic for a seed. It
 * sees the game through the engine's door only (ak_engine.h, ak_query.h:
 * the legal actions, each unit's moves, the battle preview, the overlay)
 * and every action it returns passed ak_try on the state it was given, so
 * it can never play an illegal move. docs/ai.md says the method, the
 * evaluation and the figures; bench/ai_bench.c measures its strength.
 *
 * One call, one action: ak_ai_choose() answers for the player the game
 * waits for, whatever he owes (a move, a placement, a battle, a retreat,
 * a loss, the end of a phase). A whole player turn is many calls; what
 * the AI keeps between them (moves made this portion) lives in struct
 * ak_ai, so one struct per seat.
 */
#ifndef AK_AI_H
#define AK_AI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ak_engine.h"
#include "ak_rng.h"

enum ak_ai_level {
    AK_AI_RANDOM = 0,       /* any legal action: the yardstick */
    AK_AI_BEGINNER = 1,     /* greedy over a few units, battles at good odds */
    AK_AI_STANDARD = 2,     /* a plan of the movement part on a quarter of the strong level's budget, not hardened; greedy over every unit and every battle */
    AK_AI_STRONG = 3,       /* a plan of the whole movement part by evolution, hardened against the enemy's reply, then greedy moves weighed against it; every battle that gains */
    AK_AI_LEVELS
};

/* What the evaluation counts, in factor points (a 4-4 unit is worth 8). */
struct ak_ai_weights {
    double material;        /* combat factors on board, own minus the enemy's */
    double supply_unit;     /* each supply unit on board */
    double tobruch;         /* holding Tobruch */
    double home_threat;     /* an enemy combat unit within 3 squares of one's home base */
    double advance;         /* per square, per Axis unit, of the way left to holding every key square (ak_ai_keys.c) */
    double out_of_supply;   /* a combat unit with no supply line, times its factors */
    double isolated;        /* a combat unit cut off now, times its factors and 1 + the turns it has been isolated */
    double battle;          /* a battle's expected gain, in factors */
    double supply_exposed;  /* a supply unit an enemy combat unit can reach, with no own one on its square */
    double threat;          /* the enemy's best attack on a stack next turn, its expected gain */
    double home_garrison;   /* a combat unit on one's own home base: supply and reinforcements arrive only there (LOGISTICS) */
    double no_supply;       /* per turn without a supply unit on board (two: every unit lost, ISOLATION 1) */
    double key_square;      /* each fortress and home base one controls now (HOW TO WIN, CONTROL) */
    double reply;           /* the strong level: what the enemy's best single move next would cost (ak_ai_reply.c) */
    double supply_front;    /* a supply unit within supply range of own units in contact (SUSTAIN ATTACKS) */
};

#define AK_AI_PLAN_MAX 40

struct ak_ai {
    int level;
    struct ak_rng rng;
    struct ak_ai_weights w;
    int move_cap;           /* moves at most in one movement portion or phase */
    int plan_evaluations;   /* the plan's budget (ak_ai_plan.c), by level; 0: no plan, the greedy search alone */
    /* the part of the turn the last choice was made in, and what was done in it */
    int turn, side, phase, moves, steps;
    bool cancelled;         /* a battle was called off this part (the engine's way forward): no more declared by choice */
    /* the strong level's plan of this movement part (ak_ai_plan.c), and how far it went */
    bool planned;
    int nplan, plan_at;
    struct ak_action plan[AK_AI_PLAN_MAX];
    /* the engine's way forward (ak_way_forward_path), followed to its end */
    int nforward, forward_at;
    struct ak_action forward[AK_AI_PLAN_MAX];
};

/* The default weights (docs/ai.md: how they were chosen). */
extern const struct ak_ai_weights ak_ai_default_weights;

/* Each weight by name (j from 0 to AK_AI_WEIGHTS - 1): the tuning prints
 * them as name=value, the benches read them back. */
#define AK_AI_WEIGHTS ((int)(sizeof(struct ak_ai_weights) / sizeof(double)))
const char *ak_ai_weight_name(int j);
double *ak_ai_weight(struct ak_ai_weights *w, int j);
double ak_ai_weight_value(const struct ak_ai_weights *w, int j);
/* Set weights from "name=value" items apart by commas or spaces (values
 * >= 0, the last of a name counts): false, with w unchanged and the
 * reason in err, on a name it does not know or a value that is not a
 * number. */
bool ak_ai_weights_parse(struct ak_ai_weights *w, const char *text, char *err, size_t errlen);

void ak_ai_init(struct ak_ai *ai, int level, uint64_t seed);
/* The AI's action for the player s waits for: true with *out legal in s;
 * false only when nothing can be done (the game is over). */
bool ak_ai_choose(struct ak_ai *ai, const struct ak_state *s, struct ak_action *out);

/* A playout (ak_ai_rollout.c): s played by both sides with a light random
 * policy to its end, or until max_actions were applied; how many were
 * (the game may not be over at the cap), or -1 when the policy found no
 * legal way on. Deterministic for the seed. */
int ak_ai_rollout(struct ak_state *s, uint64_t seed, int max_actions);

/* The position for side, higher better (ak_ai_eval.c). */
double ak_ai_evaluate(const struct ak_ai_weights *w, const struct ak_state *s, int side);
/* What spending one of side's supply units costs now (the last one most). */
double ak_ai_supply_worth(const struct ak_ai_weights *w, const struct ak_state *s, int side);
/* A battle action's expected gain for its attacker, in factors, from the
 * ruleset's battle preview: each result's exact chance times what it
 * costs each side (ak_ai_battle.c). */
double ak_ai_battle_value(const struct ak_state *s, const struct ak_action *battle);
/* What a battle is worth to its attacker with the weights: its expected
 * gain in factors (ak_ai_battle_value) times the battle weight, and the
 * chance it empties the defenders' squares times what taking them is
 * worth (a fortress, a home base: ak_ai_square_worth). */
double ak_ai_battle_worth(const struct ak_ai_weights *w, const struct ak_state *s, const struct ak_action *battle);
/* What taking square h would be worth to side beyond the material: a key
 * square it does not hold (HOW TO WIN), 0 for any other (ak_ai_keys.c). */
double ak_ai_square_worth(const struct ak_ai_weights *w, const struct ak_state *s, ak_hex h, int side);

#endif
