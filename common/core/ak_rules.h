/* ak_rules: the ruleset interface, actions, events and rejections.
 *
 * A ruleset is one edition of the rules behind one interface (the model is
 * scalachess's variants): the 1964 rules are "classic" (ak_rules_classic.c);
 * the Updated Afrika Korps variant will be a second table of the same shape
 * that reuses the shared mechanics (ak_move.c, ak_arrival.c, ak_turn.c,
 * ak_capture.c) and replaces what differs. Parameters that editions vary
 * (stacking, road bonus, Rommel's bonus) live in the table, not in code.
 *
 * An action either succeeds, changing the state and appending events, or is
 * rejected with a stable rule code (MOVE-6, ESCARPMENT-2), the seed section
 * it comes from and a sentence for the player. ak_engine.c guarantees no
 * partial change on rejection by applying to a copy.
 */
#ifndef AK_RULES_H
#define AK_RULES_H

#include <stdarg.h>

#include "ak_state.h"

#define AK_GROUP_MAX 24
#define AK_PATH_MAX 48
#define AK_EVENTS_MAX 128

enum ak_action_kind {
    AK_ACT_MOVE,            /* units (one stack) to a hex, or along a path */
    AK_ACT_PLACE,           /* a unit from off board: arrival, supply, landing */
    AK_ACT_EMBARK,          /* units at a port put to sea (FORTRESSES 4) */
    AK_ACT_END_MOVEMENT,    /* the movement portion is over */
    AK_ACT_DESTROY_SUPPLY,  /* CAPTURE 8: destroy own endangered supply */
    AK_ACT_END_TURN,        /* the combat portion, and the player turn, is over */
    AK_ACT_BATTLE,          /* declare one battle: attackers, defenders, supply */
    AK_ACT_CANCEL,          /* withdraw a declared battle before combat starts */
    AK_ACT_ABANDON,         /* MULTIPLE UNIT BATTLES 6: remove an own unit */
    AK_ACT_RESOLVE,         /* fight one declared battle, in the attacker's order */
    AK_ACT_RETREAT,         /* the winner's route for a losing unit's BACK 2 */
    AK_ACT_EXCHANGE,        /* the units the stronger side loses in an EXCHANGE */
    AK_ACT_ADVANCE,         /* MOVEMENT AFTER BATTLE; no units declines */
    AK_ACT_SUBSTITUTE,      /* ALLIED SUBSTITUTE COUNTERS, either direction */
    AK_ACT_RESIGN,          /* the acting side concedes, at any moment */
    AK_ACT_TIMEOUT,         /* the server: the acting side lost on time */
    AK_ACT_ADJUDICATE,      /* an operator's result: side is the winner, AK_NOBODY a draw */
    AK_ACT_END_PHASE,       /* the current phase is over (Updated ruleset: combat, mech, supply) */
    AK_ACT_BURN_SUPPLY,     /* Updated supply phase: expend a supply unit for emergency supply */
    AK_ACT_SUPPLY_ATTACKS,  /* Updated combat: spend a supply unit so units near it may attack */
    AK_ACT_LOSSES,          /* Updated combat: the units reduced and eliminated to meet a loss */
    AK_ACT_REBUILD,         /* Updated replacement phase: a reduced unit back to full strength */
    AK_ACT_BREAK_OUT,       /* Updated supply phase: an isolated square's units break out (at: the square) */
    AK_ACT_FORTIFY,         /* Updated movement phase: boxes on the squares of units, supply: the unit spent */
    AK_ACT_PORT_MOVE,       /* Updated movement phase: a unit between Tobruch (hex) and its box (AK_HEX_NONE) */
    AK_ACT_KINDS
};

struct ak_action {
    uint8_t kind;
    uint8_t side;                   /* the player acting */
    uint8_t nunits;
    uint8_t npath;
    uint8_t supply;                 /* BATTLE: the supply unit, or AK_UNIT_NONE */
    uint8_t battle;                 /* CANCEL, RESOLVE: battle index from 0 */
    uint8_t nreduce;                /* LOSSES: the first nreduce units are reduced, the rest eliminated */
    uint8_t units[AK_GROUP_MAX];    /* BATTLE: attackers and defenders;
                                       SUBSTITUTE: counters out and in */
    ak_hex hex;                     /* destination, or AK_HEX_NONE */
    ak_hex path[AK_PATH_MAX];       /* explicit path after the start, ends at hex */
};

enum ak_event_kind {
    AK_EV_MOVED, AK_EV_CAPTURED, AK_EV_ROMMEL_DISPLACED, AK_EV_PLACED,
    AK_EV_EMBARKED, AK_EV_LOST_AT_SEA, AK_EV_SUPPLY_ROLL, AK_EV_SUPPLY_DESTROYED,
    AK_EV_SUPPLY_UNUSED, AK_EV_PHASE, AK_EV_TURN, AK_EV_NEVER_ARRIVED,
    AK_EV_GAME_OVER, AK_EV_AUTO_VICTORY, AK_EV_BATTLE_DECLARED, AK_EV_BATTLE_CANCELLED,
    AK_EV_BATTLE_RESOLVED, AK_EV_ELIMINATED, AK_EV_RETREATED, AK_EV_ADVANCED,
    AK_EV_SUPPLY_USED, AK_EV_ISOLATED, AK_EV_SUBSTITUTED, AK_EV_REPLACEMENTS,
    AK_EV_OUT_OF_SUPPLY,    /* Updated supply phase: a = 0 out of supply, 1 isolated too, -1 back in supply */
    AK_EV_REDUCED,          /* Updated: a unit lost a step, turned to its reduced side (a: battle) */
    AK_EV_RETREAT_CANCELLED,    /* Updated: fortress defenders gave a step to stay (a: battle) */
    AK_EV_REBUILT,          /* Updated: a reduced unit rebuilt (a: points paid, b: pool left, c: 1 + pool) */
    AK_EV_ATTRITION,        /* Updated: an isolated square (from): a roll, b modified, c 0 no loss, 1 loss owed,
                               2 broke out (d: points), 3 break-out declared */
    AK_EV_BOX,              /* Updated: a box at from, a = 1 built, 0 removed */
    AK_EV_KINDS
};

/* Why a unit went to the dead pile (AK_EV_ELIMINATED, field a). */
enum ak_elim_reason {
    AK_ELIM_COMBAT, AK_ELIM_NO_RETREAT, AK_ELIM_FORTRESS, AK_ELIM_EXCHANGE,
    AK_ELIM_ABANDONED, AK_ELIM_ISOLATED, AK_ELIM_NO_SUPPLY,
};

/* Battle events of the Updated ruleset give the odds of their column of
 * the game's table in d as AK_EV_TABLE_ODDS + 100 * attack + defense (a
 * 3-1 column: 1301; the 1964 table's columns are below it), so that an
 * event reads without the table, and no 1964 result (c = -1 when
 * resolved). */
#define AK_EV_TABLE_ODDS 1000

struct ak_event {
    uint8_t kind;
    uint8_t side;
    uint8_t unit, other;    /* units involved, AK_UNIT_NONE if none */
    ak_hex from, to;
    int16_t a, b, c, d;     /* kind-specific figures (squares, roll, turn) */
};

struct ak_events {
    int n;
    struct ak_event ev[AK_EVENTS_MAX];
};

struct ak_reject {
    const char *code;       /* stable: "ESCARPMENT-2" */
    const char *section;    /* the seed's words: "ESCARPMENT 2" */
    char text[240];         /* for the player */
};

struct ak_movement;
struct ak_mp_costs;
struct ak_hz_list;
struct ak_lister;

/* A battle as it would be fought, before it is declared
 * (ak_battle_preview): the figures the ruleset's table is read with, and
 * each result the die can give with its chance, so that a player sees the
 * odds and what they mean before he commits. Chances are exact: counts
 * out of `faces`, the die's faces (a result on several faces counts them). */
#define AK_PREVIEW_RESULTS 24
struct ak_battle_preview {
    int attack, defense;    /* strengths, in the ruleset's unit (half points where half_points) */
    int column;             /* the table's column; -1: below the table */
    bool allowed;           /* the odds allow the battle (else no result is listed) */
    int drm;                /* the die modifier (0 where the table has none) */
    char odds[16];          /* the column's odds, "3-1", in the table's words */
    bool needs_supply;      /* it must be sustained by a supply unit (SUSTAIN ATTACKS 7) */
    int supply;             /* the first of the mover's supply units that could, or AK_UNIT_NONE */
    int nsustain;           /* every one that could (the first 8), to choose among */
    uint8_t sustain[8];
    bool known;             /* the table is there to read (a game's own may be missing) */
    int faces;
    int nresults;
    struct { char name[24]; int chances; } result[AK_PREVIEW_RESULTS];
};
/* Count chances more of result (a ruleset's preview, in the order the
 * results first come). */
void ak_preview_add(struct ak_battle_preview *p, const char *result, int chances);

struct ak_ruleset {
    const char *name;       /* "classic" */
    const char *title;
    int stack_limit;        /* combat units per square (MORE THAN ONE 1) */
    int start_stack_limit;  /* PREPARE FOR PLAY 2 */
    int road_bonus;         /* SPECIAL TERRAIN MOVEMENT */
    int rommel_bonus;       /* ROMMEL HEADQUARTERS UNIT: squares, or movement points */
    int italian_stack_limit;    /* NEW STACKING: a square holding an Italian division; 0: no such rule */
    bool zoc_out_of_fortress;   /* units in a fortress exert a zone out of it (NEW ZOCS 4) */
    bool two_step_units;        /* units over 2 attack factors have a reduced side (NEW COMBAT SYSTEM 5) */
    bool fortress_retreat_kills;    /* losers told to retreat from a fortress are eliminated instead (FORTRESSES 5) */
    bool no_supply_loses_all;       /* two turns with no supply unit on board lose every unit (ISOLATION 1) */
    const char *zoc_halt_code;  /* the rule that stops a unit in an enemy zone */
    unsigned phases;            /* bit per enum ak_phase the edition has */
    /* The action kinds possible now (a bit per enum ak_action_kind), by
     * phase and owed decision; ak_possible_actions asks the ruleset. */
    unsigned (*possible_actions)(const struct ak_state *s);
    /* The squares where side's new units may be placed (queries offer
     * placements there; the place handler has the last word). */
    int (*arrival_squares)(const struct ak_state *s, int side, ak_hex *out, int max);
    /* How units move: squares and a road bonus (1964), or movement
     * points with terrain and zone costs (ak_move.h). */
    const struct ak_movement *movement;
    const struct ak_mp_costs *mp_costs;     /* movement points: their costs; NULL for squares */
    bool needs_crt_table;       /* battles are fought on the game's table (ak_crt_attach) */
    /* What a part of the player turn is called in the rules' words:
     * "portion" (1964) or "phase" (Updated). */
    const char *phase_word;
    /* What a client shows, asked here rather than guessed from the name
     * (akd publishes them in `hello`): the phases in which the mover moves
     * units, those an END_PHASE action ends, the phase that ends the
     * player turn, whether units in enemy zones must attack, what a
     * supply unit does in a battle (sustains the attack, 1964; bombards,
     * Updated) and the unit of strength (factors, or half points:
     * reduced units count half). */
    unsigned move_phases;       /* bit per enum ak_phase */
    unsigned end_phase_phases;  /* bit per enum ak_phase; 0: no END_PHASE */
    int last_phase;             /* enum ak_phase */
    bool attacks_obligatory;
    bool supply_bombards;
    bool half_points;
    /* The rule an action out of sequence breaks: the 1964 HOW TO PLAY
     * steps or the Updated SEQUENCE. */
    const char *sequence_code;
    /* The dangers of this edition for the player to move (ak_hazards.h),
     * added to the list (ak_hazards_internal.h). */
    void (*hazards)(struct ak_hz_list *l);
    /* A battle's odds and result in words: the 1964 table's, or the
     * operator's table's. */
    const char *(*odds_name)(const struct ak_state *s, int column);
    void (*result_name)(const struct ak_state *s, int b, char *buf, int len);
    /* The battle att would fight against def now (supply: the supply unit
     * named for it, AK_UNIT_NONE none), whether or not it could be declared
     * now: a player plans before his combat phase. */
    void (*battle_preview)(const struct ak_state *s, const uint8_t *att, int na, const uint8_t *def, int nd,
                           int supply, struct ak_battle_preview *p);
    /* Declared battle b (from 0) as it will be fought when resolved now:
     * the column fixed when it was declared (1964), or the figures as they
     * stand (Updated, where losses in between count). */
    void (*declared_preview)(const struct ak_state *s, int b, struct ak_battle_preview *p);
    /* in[hex] = 1 where a unit of side would be in supply now, in the
     * edition's sense (a supply line to a supply unit free of enemy zones,
     * ISOLATION 1964; traced to a source or extender, SUPPLY PHASE
     * Updated): what a player's map overlay shows. */
    void (*supply_map)(const struct ak_state *s, int side, uint8_t *in);
    /* open[hex] = 1 where a unit of side would not be isolated now, in the
     * edition's sense (a supply line or a way home free of enemy zones,
     * ISOLATION 1964; a line of any length to a supply unit, port or entry
     * square, SUPPLY PHASE 4 Updated): what a player (or the computer)
     * weighs before a pocket closes. */
    void (*isolation_map)(const struct ak_state *s, int side, uint8_t *open);
    /* Start of a player turn: control snapshot, supply due, flags reset
     * (the Updated ruleset's reinforcement phase). */
    void (*start_player_turn)(struct ak_state *s, struct ak_events *ev);
    /* One handler per action kind; false with *rej filled on rejection.
     * The state may be left half-changed on rejection: the engine
     * discards the copy. */
    bool (*apply[AK_ACT_KINDS])(const struct ak_ruleset *r, struct ak_state *s,
                                const struct ak_action *a, struct ak_events *ev,
                                struct ak_reject *rej);
    /* One lister per action kind but moves (ak_lister.h): the concrete
     * actions of that kind open now, for clients, self-play and search.
     * NULL: the edition has no such action, or nothing to list. */
    void (*list[AK_ACT_KINDS])(struct ak_lister *l);
};

const struct ak_ruleset *ak_ruleset_get(int index);
int ak_ruleset_find(const char *name);      /* index, or -1 */
int ak_ruleset_count(void);

/* Fill *rej with code, its seed section (from the rule table) and a
 * message; returns false so handlers can `return ak_reject(...)`. With
 * rej NULL it only returns false. */
bool ak_reject(struct ak_reject *rej, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *ak_rule_section(const char *code);
/* The rule table: every rule code the engine can reject with. */
struct ak_rule_info {
    const char *code, *section, *summary;
};
const struct ak_rule_info *ak_rule_table(int *count);

void ak_event_add(struct ak_events *ev, int kind, int side, int unit, int other,
                  ak_hex from, ak_hex to, int a, int b, int c);
/* The last event added, to fill in a fourth figure; NULL without events. */
struct ak_event *ak_event_last(struct ak_events *ev);

#endif
