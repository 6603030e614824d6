/* ak_move_internal: what the two ways of moving share (ak_move.c by
 * squares, ak_move_points.c by movement points): the board as the mover
 * sees it (enemy zones, enemy units, own combat units per square) and the
 * checks of a step and of a destination that do not depend on how
 * movement is counted (the map's edges, water and Qattara, enemy units,
 * supply next to enemy supply, stacking). Not for use outside the two. */
#ifndef AK_MOVE_INTERNAL_H
#define AK_MOVE_INTERNAL_H

#include "ak_move.h"

enum { ENEMY_COMBAT = 1, ENEMY_PASSABLE = 2, ENEMY_SUPPLY_NEAR = 4, ENEMY_OTHER = 8 };

struct ak_move_board {
    uint8_t zoc[AK_HEX_COUNT];          /* 1: in an enemy zone of control */
    uint8_t enemy[AK_HEX_COUNT];        /* ENEMY_* bits */
    uint8_t own_combat[AK_HEX_COUNT];   /* the mover's combat units per square */
};

/* The board as side sees it in s. The enemy's part is remembered for each
 * side with what it depends on (a static memory: not reentrant, like the
 * engine's other memories). */
void ak_move_board_mark(const struct ak_state *s, int side, struct ak_move_board *b);

/* MOVE-4, MOVE-8, MOVE-6 and CAPTURE-5 for one step; combat: the stack
 * holds a combat unit. With rej NULL only the verdict (no formatting). */
bool ak_move_step_basic(const struct ak_move_board *b, bool combat, ak_hex from, ak_hex to,
                        struct ak_reject *rej);
/* The verdict of ak_move_step_basic for a step to a neighbour the map
 * leaves open (ak_map.open): what the searches ask of every step, inline
 * and without words. ak_move_step_basic says why when it is false. */
static inline bool ak_move_step_allowed(const struct ak_move_board *b, bool combat, ak_hex to)
{
    uint8_t e = b->enemy[to];
    return !(e & ENEMY_COMBAT) && (combat || !(e & (ENEMY_OTHER | ENEMY_PASSABLE | ENEMY_SUPPLY_NEAR)));
}
/* The same for a destination asked for directly (before any search). */
bool ak_move_dest_basic(const struct ak_move_board *b, bool combat, ak_hex dest, struct ak_reject *rej);
/* Does the junction rule make b->c an ordinary step after a road step a->b? */
bool ak_move_junction_breaks(ak_hex a, ak_hex b, ak_hex c);
/* How many of the units are combat units (what ak_move_can_stop counts
 * against the stacking limit; the searches count them once a stack). */
int ak_move_combat_count(const uint8_t *units, int n);
/* May the stack of units (combat of them combat units) end its move on h:
 * no enemy there, room in the stack. */
bool ak_move_can_stop(const struct ak_ruleset *r, const struct ak_state *s, const struct ak_move_board *b,
                      int side, const uint8_t *units, int n, int combat, ak_hex h, struct ak_reject *rej);

#endif
