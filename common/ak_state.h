/* ak_state: the complete state of one game, a plain value.
 *
 * Everything the rules need to decide the next action is here and nowhere
 * else: positions, the turn and its portion, what each unit has spent of its
 * movement this turn, control of the key squares at the start of the player
 * turn, supply entitlement and the dice generator. The struct has no
 * pointers, so copying it is a memcpy; the engine applies an action to a
 * copy and keeps the copy only when the action is legal.
 */
#ifndef AK_STATE_H
#define AK_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "ak_data.h"
#include "ak_rng.h"

enum ak_where {
    AK_AT_POOL = 0,   /* not yet in play: reinforcement, or counter in the mix */
    AK_AT_BOARD,
    AK_AT_SEA,        /* embarked at a port, lands next own turn (FORTRESSES 4) */
    AK_AT_DEAD,       /* the dead pile: eliminated units (REPLACEMENTS) */
};

enum ak_phase { AK_PHASE_MOVEMENT = 0, AK_PHASE_COMBAT = 1, AK_PHASE_OVER = 2 };

/* Per-unit flags for the current player turn. */
enum {
    AK_U_HALTED = 1 << 0,     /* entered an enemy zone or escarpment: done */
    AK_U_MOVED = 1 << 1,      /* has moved this turn */
    AK_U_ARRIVED = 1 << 2,    /* placed on board this turn */
    AK_U_NO_MOVE = 1 << 3,    /* may not move this turn (substitute, landed late) */
    AK_U_SUPPLY_NEAR_ENEMY = 1 << 4,  /* supply moved next to the enemy */
    AK_U_ZOC_OFF = 1 << 5,    /* zone ignored: automatic victory (ATTACKING) */
    AK_U_AT_SEA_LATE = 1 << 6,/* at sea since the previous own turn */
};

struct ak_unit {
    uint8_t where;        /* enum ak_where */
    uint8_t flags;
    uint8_t mp_spent;     /* squares paid from the movement factor this turn */
    uint8_t road_spent;   /* squares paid from the Coast Road bonus */
    uint8_t rommel_spent; /* squares paid from Rommel's bonus */
    uint8_t sea_turn;     /* turn it put to sea */
    uint8_t isolated;     /* consecutive own turns isolated */
    uint8_t pad;
    ak_hex hex;           /* on board, or the port it sailed from */
    ak_hex start_hex;     /* where it began this player turn */
};

enum ak_result {
    AK_RESULT_NONE = 0, AK_RESULT_AXIS_WINS, AK_RESULT_ALLIED_WINS, AK_RESULT_DRAW,
};

/* Key squares whose control is judged at the start of a player turn. */
enum { AK_KEY_AXIS_BASE, AK_KEY_ALLIED_BASE, AK_KEY_TOBRUCH, AK_KEY_BENGASI, AK_KEYS };

struct ak_state {
    uint8_t ruleset;          /* index into the ruleset table */
    uint8_t turn;             /* 1..38 complete turns */
    uint8_t side;             /* whose player turn */
    uint8_t phase;            /* enum ak_phase */
    uint8_t result;           /* enum ak_result */
    uint8_t supply_roll;      /* this Axis turn's supply table roll, 0 if none */
    uint8_t supply_due;       /* new supply units the mover may still start */
    uint8_t control[AK_KEYS]; /* controller at the start of this player turn */
    uint8_t replacement[AK_SIDES];
    uint8_t no_supply_turns[AK_SIDES];
    uint16_t units;           /* number of counters */
    uint32_t actions;         /* actions applied so far */
    struct ak_rng rng;
    struct ak_unit unit[AK_UNIT_MAX];
};

/* A new game of the 1941 campaign: the situation of 31 March 1941, turn 1,
 * the Axis to move, dice from seed. Runs the start of the first player turn
 * (the supply roll) as every later turn does. */
void ak_state_init(struct ak_state *s, int ruleset, uint64_t seed);

/* A 64-bit hash of everything in the state (FNV-1a over its fields), for
 * replay checks and the record format. */
uint64_t ak_state_hash(const struct ak_state *s);

/* Queries on positions. */
static inline bool ak_on_board(const struct ak_state *s, int u)
{
    return s->unit[u].where == AK_AT_BOARD;
}
int ak_units_at(const struct ak_state *s, ak_hex h, uint8_t *out, int max);
int ak_combat_units_at(const struct ak_state *s, ak_hex h, int side);
bool ak_side_occupies(const struct ak_state *s, ak_hex h, int side);
bool ak_enemy_combat_at(const struct ak_state *s, ak_hex h, int side);
int ak_own_supply_on_board(const struct ak_state *s, int side);

/* Who controls a key square now (CONTROL, under LOGISTICS MOVEMENT). */
int ak_control_now(const struct ak_state *s, int key);
ak_hex ak_key_hex(int key);

static inline const struct ak_unit_def *ak_def(int u) { return &ak_data()->unit[u]; }
static inline const struct ak_map *ak_map(void) { return &ak_data()->map; }

#endif
