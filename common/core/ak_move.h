/* ak_move: where a stack may go this turn, and by which path.
 *
 * One step rule (ak_move.c: step_check) serves both the search for legal
 * destinations and the check of an explicit path, so the two can never
 * disagree. A step costs one square of the movement factor, or of the
 * Coast Road bonus when it crosses a road hexside (SPECIAL TERRAIN
 * MOVEMENT), or of Rommel's bonus when he moves with the stack (ROMMEL).
 * Bonuses are spent before the movement factor because they are the
 * narrower resources: road squares only on the road, Rommel's only with him.
 *
 * When a move gives only a destination, the engine picks the path that
 * spends the fewest movement-factor squares, then the fewest road-bonus
 * squares, preferring a path that does not halt the stack, then the first
 * found in the fixed direction order. The destination listing searches
 * breadth first; a single route searches states in order of that cost and
 * stops at the destination, which finds the same cost far sooner.
 *
 * Not reentrant: the search uses one static work area (the engine runs on
 * one thread in akd and akc).
 */
#ifndef AK_MOVE_H
#define AK_MOVE_H

#include "ak_rules.h"

struct ak_dest {
    ak_hex hex;
    uint8_t road, clear;    /* road-hexside steps and other steps */
    uint8_t halts;          /* the stack (movement points: its infantry) must stop there */
    uint16_t cost;          /* movement points: the first unit's cost, in twelfths */
    uint8_t npath;
    ak_hex path[AK_PATH_MAX];
};

/* A way of moving, one per ruleset (ak_ruleset.movement): squares with a
 * road bonus (1964, ak_move.c) or movement points (ak_move_points.c).
 * The functions below dispatch to the state's ruleset. */
struct ak_movement {
    int (*destinations)(const struct ak_state *s, int side, const uint8_t *units, int n,
                        struct ak_dest *out, int max, struct ak_reject *rej);
    bool (*route)(const struct ak_state *s, int side, const uint8_t *units, int n, ak_hex dest,
                  struct ak_dest *out, struct ak_reject *rej);
    bool (*check_path)(const struct ak_state *s, int side, const uint8_t *units, int n,
                       const ak_hex *path, int npath, struct ak_dest *out, struct ak_reject *rej);
    /* Charge each unit for a checked route and mark those that must stop. */
    void (*pay)(const struct ak_ruleset *r, struct ak_state *s, int side, const uint8_t *units, int n,
                const struct ak_dest *route);
};
extern const struct ak_movement ak_movement_squares, ak_movement_points;

/* Movement points (the Updated ruleset) are counted in twelfths, so that a
 * quarter and a third of a point are whole numbers (ROAD MOVEMENT). */
#define AK_MP 12
/* How a unit pays for movement points (NEW ZOCS 1-2, TERRAIN EFFECTS 3,
 * ROAD MOVEMENT; supply units and Rommel ignore enemy zones, reading A-28). */
enum ak_move_class {
    AK_MOVE_ITALIAN_INFANTRY, AK_MOVE_INFANTRY, AK_MOVE_MECHANIZED, AK_MOVE_OTHER, AK_MOVE_CLASSES
};
struct ak_mp_costs {
    int clear;                          /* a square off the road, not escarpment */
    int escarpment[AK_MOVE_CLASSES];    /* an escarpment square off the road */
    int road[AK_MOVE_CLASSES];          /* a square along the road, whatever its terrain */
    int zoc_mechanized;                 /* mechanized units: to enter, and to leave, an enemy zone */
    int infantry_leave_divisor;         /* infantry leaving a zone pays its allowance / this */
};

/* May these units move together now? false with *rej if not. */
bool ak_move_group_ok(const struct ak_state *s, int side, const uint8_t *units, int n,
                      struct ak_reject *rej);
/* Every square the group can end its move on, with the chosen path.
 * Returns the count (at most max), or -1 with *rej. */
int ak_move_destinations(const struct ak_state *s, int side, const uint8_t *units, int n,
                         struct ak_dest *out, int max, struct ak_reject *rej);
/* The chosen path to one destination, or false with the reason it cannot
 * be reached ("why can't this unit reach that hex"). */
bool ak_move_route(const struct ak_state *s, int side, const uint8_t *units, int n,
                   ak_hex dest, struct ak_dest *out, struct ak_reject *rej);
/* Check an explicit path step by step. */
bool ak_move_check_path(const struct ak_state *s, int side, const uint8_t *units, int n,
                        const ak_hex *path, int npath, struct ak_dest *out,
                        struct ak_reject *rej);
/* The route a move action asks for: its explicit path checked, or the
 * chosen path to its destination; false with *rej. */
bool ak_move_action_route(const struct ak_state *s, const struct ak_action *a, struct ak_dest *route,
                          struct ak_reject *rej);
/* Carry out a checked move: positions, spent movement, halts, and the
 * captures and Rommel displacements that happen on the way (CAPTURE 2). */
void ak_move_execute(const struct ak_ruleset *r, struct ak_state *s, int side,
                     const uint8_t *units, int n, const struct ak_dest *route,
                     struct ak_events *ev);

#endif
