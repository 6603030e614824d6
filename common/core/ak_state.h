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
    AK_AT_WITHDRAWN,  /* exchanged for a substitute counter (ALLIED SUBSTITUTE) */
};

/* The phases of a player turn. The 1964 rules have a movement and a
 * combat portion; the Updated ruleset adds the mechanized movement, supply
 * and replacement phases after combat (SEQUENCE); its reinforcement phase
 * is carried out as the turn starts. OVER stays 2: stored states use it. */
enum ak_phase {
    AK_PHASE_MOVEMENT = 0, AK_PHASE_COMBAT = 1, AK_PHASE_OVER = 2,
    AK_PHASE_MECH = 3, AK_PHASE_SUPPLY = 4, AK_PHASE_REPLACEMENT = 5, AK_PHASES
};

/* Per-unit flags for the current player turn. */
enum {
    AK_U_HALTED = 1 << 0,     /* entered an enemy zone or escarpment: done */
    AK_U_MOVED = 1 << 1,      /* has moved this turn */
    AK_U_ARRIVED = 1 << 2,    /* placed on board this turn */
    AK_U_NO_MOVE = 1 << 3,    /* may not move this turn (substitute, landed late) */
    AK_U_SUPPLY_NEAR_ENEMY = 1 << 4,  /* supply moved next to the enemy */
    AK_U_ZOC_OFF = 1 << 5,    /* zone ignored: automatic victory (ATTACKING) */
    AK_U_AT_SEA_LATE = 1 << 6,/* at sea since the previous own turn */
    AK_U_MUST_RETREAT = 1 << 7,  /* lost a battle: BACK 2 still owed */
};

/* Marks a unit carries between turns in the Updated ruleset (ak_unit.marks). */
enum {
    AK_MARK_OOS = 1 << 0,         /* out of supply since its side's last supply phase */
    AK_MARK_ISOLATED = 1 << 1,    /* isolated as well (SUPPLY PHASE 4) */
    AK_MARK_MECH_MOVED = 1 << 2,  /* moved in this turn's mechanized movement phase */
    AK_MARK_BREAK_OUT = 1 << 3,   /* its isolated square declared a break-out (ISOLATION ATTRITION 1) */
    AK_MARK_IN_BOX = 1 << 4,      /* off the board in its side's off-board box, shipped there (PORTS 1) */
    AK_MARK_FORTIFIED = 1 << 5,   /* built a box this player turn: stays put until it ends (BOXES 1) */
};
#define AK_MARK_ALL (AK_MARK_OOS | AK_MARK_ISOLATED | AK_MARK_MECH_MOVED | AK_MARK_BREAK_OUT | AK_MARK_IN_BOX | \
                     AK_MARK_FORTIFIED)

struct ak_unit {
    uint8_t where;        /* enum ak_where */
    uint8_t flags;        /* AK_U_* */
    uint8_t mp_spent;     /* squares paid from the movement factor this turn
                             (movement points: twelfths of a point, AK_MP) */
    uint8_t road_spent;   /* squares paid from the Coast Road bonus */
    uint8_t rommel_spent; /* squares paid from Rommel's bonus */
    uint8_t sea_turn;     /* turn it put to sea */
    uint8_t isolated;     /* consecutive own turns begun isolated (ISOLATION) */
    uint8_t battle;       /* 1 + index of its battle this turn, 0 if none */
    uint8_t reduced;      /* 1: on its reduced side (two-step units, Updated ruleset) */
    uint8_t marks;        /* AK_MARK_* (Updated ruleset) */
    ak_hex hex;           /* on board, or the port it sailed from */
    ak_hex start_hex;     /* where it began this player turn */
};

/* One declared battle of the combat portion (ATTACKING 3-5). Its units
 * are those whose ak_unit.battle names it. */
#define AK_BATTLE_MAX 40
#define AK_BATTLE_HEXES 6
struct ak_battle {
    uint8_t supply;       /* the supply unit stated for it, AK_UNIT_NONE if none */
    uint8_t resolved;
    uint8_t column;       /* combat results table column, or AK_ODDS_AUTO */
    uint8_t roll;         /* the die, 0 when none was rolled */
    uint8_t result;       /* enum ak_crt_result once resolved */
    uint8_t attack, defense;
    uint8_t ndef_hex;
    ak_hex def_hex[AK_BATTLE_HEXES];  /* defenders' squares when declared */
    /* The Updated ruleset: supply is the bombarding supply unit; attack
     * and defense are in half points (out of supply halves exactly);
     * column indexes the loaded table; these are set when it is fought. */
    int8_t drm;           /* die roll modifier */
    int8_t modified;      /* the modified roll, clamped to the table */
    uint8_t counted;      /* the column's side's strength when fought: percentages count it */
};

/* A decision the rules leave to a player in the middle of combat. */
enum ak_pending_kind {
    AK_PEND_NONE = 0,
    AK_PEND_RETREAT,      /* the winner routes the losers' BACK 2 */
    AK_PEND_EXCHANGE,     /* the stronger side picks its EXCHANGE losses */
    AK_PEND_ADVANCE,      /* MOVEMENT AFTER BATTLE, or decline */
    AK_PEND_LOSSES,       /* Updated: the losing side assigns its loss requirement */
};
/* Updated ruleset: what of a fought battle is still to be carried out. */
enum { AK_STAGE_DONE = 0, AK_STAGE_DEFENDER_LOSSES, AK_STAGE_ATTACKER_LOSSES, AK_STAGE_RETREATS,
       AK_STAGE_ADVANCE, AK_STAGE_END };
/* pending.percent for LOSSES: 1 a percentage result (reduced odd units
 * count half), 2 a step owed for a retreat through a zone (no excess). */
enum { AK_LOSS_POINTS = 0, AK_LOSS_PERCENT = 1, AK_LOSS_STEP = 2,
       AK_LOSS_CANCEL = 3,      /* a step the fortress defenders may give instead of retreating (none: retreat) */
       AK_LOSS_ATTRITION = 4 }; /* a 50% loss of the isolated stack on pending.hex (ISOLATION ATTRITION 2) */
struct ak_pending {
    uint8_t kind, side;   /* what is owed, and by whom */
    uint8_t battle;       /* index of the battle it belongs to */
    uint8_t need;         /* EXCHANGE: attack factors still to remove;
                             Updated LOSSES: the requirement in half points */
    uint8_t stage;        /* Updated: AK_STAGE_* next to carry out */
    uint8_t percent;      /* Updated LOSSES: AK_LOSS_* */
    uint8_t removed;      /* Updated: factors the defender removed (exchanges) */
    uint8_t retreat;      /* Updated RETREAT: squares to retreat */
    ak_hex hex;           /* Updated attrition: the isolated square (AK_HEX_NONE: none yet) */
};

enum ak_result {
    AK_RESULT_NONE = 0, AK_RESULT_AXIS_WINS, AK_RESULT_ALLIED_WINS, AK_RESULT_DRAW,
};

/* HOW TO WIN: the three ways a game ends. */
enum ak_win_reason {
    AK_WIN_NONE = 0, AK_WIN_ELIMINATION, AK_WIN_KEY_SQUARES, AK_WIN_DENIAL,
    AK_WIN_RESIGNATION, AK_WIN_TIME,    /* not rules: a player conceded or ran out of time, */
    AK_WIN_ADJUDICATION,                /* or an operator decided the game */
};

/* Replacement pools of the Updated ruleset, per side (NEW COMBAT SYSTEM 7). */
enum { AK_POOL_INFANTRY, AK_POOL_ARMOR, AK_POOLS };

/* State-wide flags of the Updated ruleset (ak_state.flags). */
enum {
    AK_SF_AXIS_SUPPLY_MISSED = 1 << 0,  /* the last month-start convoy roll gave no supply unit */
    AK_SF_BOMBARDED = 1 << 1,           /* this combat phase's bombardment is spent */
    AK_SF_TOBRUCH_TAKEN = 1 << 2,       /* the Axis has held Tobruch once (TOBRUK CAPTURE) */
    AK_SF_FORTIFIED = 1 << 3,           /* this player turn's supply unit for boxes is spent */
    AK_SF_PORT_MOVED = 1 << 4,          /* this player turn's unit moved between ports (MOVEMENT PHASE) */
    AK_SF_TOBRUCH_FIRST = 1 << 5,       /* the Axis first took Tobruch this player turn: a port from its next */
};
#define AK_SF_ALL (AK_SF_AXIS_SUPPLY_MISSED | AK_SF_BOMBARDED | AK_SF_TOBRUCH_TAKEN | AK_SF_FORTIFIED | AK_SF_PORT_MOVED | \
                   AK_SF_TOBRUCH_FIRST)
#define AK_BOX_MAX 24       /* hedgehog markers on the map at once (BOXES) */
#define AK_CRT_SLOTS 32     /* combat results tables attached at once, less one (ak_crt_attach) */
#define AK_ATTACK_SUPPLY_MAX 4

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
    uint8_t hold_turns[AK_SIDES];  /* consecutive turns holding all four key squares */
    uint8_t result_reason;    /* enum ak_win_reason */
    uint8_t nbattles;         /* battles declared this combat portion */
    uint8_t combat_locked;    /* the first battle was resolved: no new ones */
    uint8_t flags;            /* AK_SF_* */
    uint8_t pool[AK_SIDES][AK_POOLS];   /* replacement points (Updated ruleset) */
    uint8_t nattack_supply;   /* supply units spent on attacks this combat phase (Updated) */
    ak_hex attack_supply[AK_ATTACK_SUPPLY_MAX];     /* where they stood */
    uint8_t nboxes;           /* Updated: field fortification boxes (hedgehogs) */
    /* Updated: the slot of the combat results table its battles are fought
     * on (ak_crt_attach), 0 none. Not the game's state but where this
     * process keeps its table: neither hashed nor in the JSON. (It sits in
     * what was padding, so stored snapshots keep their size.) */
    uint8_t crt;
    struct { ak_hex hex; uint8_t side; } box[AK_BOX_MAX];
    struct ak_pending pending;
    uint16_t units;           /* number of counters */
    uint32_t actions;         /* actions applied so far */
    struct ak_rng rng;
    struct ak_unit unit[AK_UNIT_MAX];
    struct ak_battle battle[AK_BATTLE_MAX];
};

/* A new game of the 1941 campaign: the situation of 31 March 1941, turn 1,
 * the Axis to move, dice from seed. Runs the start of the first player turn
 * (the supply roll) as every later turn does. */
void ak_state_init(struct ak_state *s, int ruleset, uint64_t seed);
/* The same with the dice generator's state given whole (ak_dice.h). */
void ak_state_init_rng(struct ak_state *s, int ruleset, const struct ak_rng *rng);

/* A 64-bit hash of everything in the state (FNV-1a over its fields), for
 * replay checks and the record format. */
uint64_t ak_state_hash(const struct ak_state *s);

/* Is s safe for the engine: every hex, unit, battle and enumeration in
 * range, every unit on board on a square a unit may occupy? False with a
 * sentence in err. Every loader of outside states calls it
 * (ak_state_check.c). */
bool ak_state_check(const struct ak_state *s, char *err, int errlen);
/* h is a printed square of the map (sea and the Qattara Depression too). */
bool ak_hex_on_map(ak_hex h);
/* h is a square of the map a unit may stand on. */
bool ak_hex_playable(ak_hex h);

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
