/* ak_hazards: the dangers the rules hold for the player to move, shown
 * before they bite.
 *
 * The rules end games by conditions a new player may never have read about:
 * supply not placed is lost when the movement portion ends (LOGISTICS,
 * MOVEMENT 6), an empty home base denies next turn's arrivals (CONTROL,
 * REINFORCEMENTS 5), two turns without a supply unit on board lose every
 * unit (ISOLATION 1), isolated units die after two turns (ISOLATION), units
 * in enemy zones must have supply in reach when the portion ends (SUSTAIN
 * ATTACKS 2) and must fight (ATTACKING 6), and the enemy may be one turn
 * from holding the four key squares long enough to win (HOW TO WIN). The
 * Updated ruleset has its own: units out of supply, isolated squares that
 * roll for attrition when the supply phase ends, empty boxes, supply spent
 * on attacks not made. Each ruleset lists its checks (its table's
 * `hazards`). ak_hazards() lists those that
 * hold now for the side the game waits for, each with its rule, the units
 * or square concerned, a sentence for the player, and the ending action
 * (end_movement, end_phase or end_turn) that would make it bite, so that a
 * client can ask before sending it. It is a query: the state is not changed, and the
 * engine's verdicts are not altered by it.
 */
#ifndef AK_HAZARDS_H
#define AK_HAZARDS_H

#include "ak_rules.h"

enum ak_hazard_kind {
    AK_HZ_SUPPLY_UNPLACED,      /* supply due, lost when the portion ends */
    AK_HZ_REINFORCEMENTS_LOST,  /* the last turn: units never placed are lost */
    AK_HZ_AT_SEA,               /* units at sea since last turn: land or be lost */
    AK_HZ_PORT,                 /* a home base or Tobruch that will not be yours */
    AK_HZ_NO_SUPPLY,            /* no supply unit on board: turn N of 2 */
    AK_HZ_ISOLATED,             /* units isolated: turn N of 2 */
    AK_HZ_OUT_OF_REACH,         /* units in enemy zones beyond supply reach */
    AK_HZ_BATTLES_OWED,         /* units that must still attack */
    AK_HZ_CANNOT_END,           /* why the portion (phase) cannot end right now */
    AK_HZ_KEY_SQUARES,          /* the enemy holds the four key squares: turn N of 2 */
    AK_HZ_OUT_OF_SUPPLY,        /* Updated: units out of supply, and what saves them */
    AK_HZ_ATTRITION,            /* Updated: isolated squares roll when the supply phase ends */
    AK_HZ_BOX_LOST,             /* Updated: an empty box, removed as the supply phase begins */
    AK_HZ_ATTACK_SUPPLY_UNUSED, /* Updated: supply spent on attacks, no battle declared */
    AK_HZ_BATTLE_ODDS,          /* a declared battle not fought yet: what the die can do, exactly */
    AK_HZ_KINDS
};

#define AK_HAZARDS_MAX 16
#define AK_HAZARD_UNITS 24

struct ak_hazard {
    uint8_t kind;               /* enum ak_hazard_kind */
    uint8_t count, of;          /* "turn count of of" (of 0: not a count) */
    uint8_t bites_at;           /* AK_ACT_END_MOVEMENT, AK_ACT_END_PHASE or AK_ACT_END_TURN, or 0 */
    ak_hex hex;                 /* the square concerned, or AK_HEX_NONE */
    uint8_t nunits;
    uint8_t units[AK_HAZARD_UNITS];
    const char *code, *section; /* the rule, as in rejections */
    char text[640];             /* for the player */
};

/* The hazards for the side the game waits for (none when it is over or
 * waits for a decision after a battle). Fills out, returns the count. */
int ak_hazards(const struct ak_state *s, struct ak_hazard *out, int max);
/* "supply_unplaced", ... for the protocol. */
const char *ak_hazard_kind_name(int kind);

#endif
