/* ak_undo_steps: what a game keeps in memory so that undo (ak_undo.c)
 * costs a copy: the states before its last undoable actions, noted as
 * each action is committed (ak_games.c) and dropped at the first other
 * one, or when its state changes another way. Below the games: it names
 * nothing of akd but the game. The bounds are the memory it may hold. */
#include <stdlib.h>
#include <string.h>

#include "ak_server.h"

#define UNDO_KEPT 8             /* states kept per game */
#define UNDO_GAMES_MAX 512      /* games keeping some at once: 512 x 8 x 3 KiB, 12 MiB in all */

static int games_keeping;

void ak_undo_forget(struct ak_game *g)
{
    if (g->undo)
        games_keeping--;
    free(g->undo);
    g->undo = NULL;
    g->nundo = 0;
}

void ak_undo_note(struct ak_game *g, const struct ak_action *a, const struct ak_state *before)
{
    if (a->kind != AK_ACT_MOVE && a->kind != AK_ACT_PLACE && a->kind != AK_ACT_EMBARK) {
        ak_undo_forget(g);
        return;
    }
    if (!g->undo) {
        if (games_keeping >= UNDO_GAMES_MAX || !(g->undo = malloc(sizeof *g->undo * UNDO_KEPT)))
            return;     /* none kept: an undo replays the log */
        games_keeping++;
    }
    if (g->nundo == UNDO_KEPT) {    /* the oldest goes: undo walks back UNDO_KEPT from memory */
        memmove(&g->undo[0], &g->undo[1], sizeof *g->undo * (UNDO_KEPT - 1));
        g->nundo--;
    }
    g->undo[g->nundo++] = (struct ak_undo_step){*before, *a};
}
