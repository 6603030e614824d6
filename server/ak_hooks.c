/* ak_hooks: how akd's layers are wired. The lower layers call up only
 * through srv->hooks (struct ak_server_hooks, ak_server.h): the
 * connections hand requests to the command table and never name it; the
 * group commit tells that a game's action is stored and never names
 * notifications or tournaments. This file is the one place that says
 * which upper function each hook is, and what follows a stored action.
 * akd.c calls ak_server_hook once, before the loop runs. */
#include "ak_server.h"

#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_victory.h"

/* What follows a stored action, once its answer is out: the end of the
 * game (logged, both players told, the tournament's table), or the turn
 * passing to the other player (told); then the new ratings of a rated
 * game it ended, logged. */
static void announce(struct ak_server *srv, const struct ak_game *g, int waiting_before)
{
    if (g->state->phase == AK_PHASE_OVER) {
        ak_log_with(AK_LOG_INFO, &(struct ak_log_ctx){.game = g->id}, "game %lld finished: %s (%s), %s as Axis, %s as Allied",
                    (long long)g->id, ak_result_name(g->state->result), ak_win_reason_name(g->state->result_reason),
                    g->player_name[AK_AXIS], g->player_name[AK_ALLIED]);
        ak_stats_game_finished(g->state->result);
        for (int side = 0; side < AK_SIDES; side++)
            ak_notify(srv, "game_over", g, g->player[side], side);
        ak_tournament_game_over(srv, g);
        return;
    }
    int waiting = ak_waiting_for(g->state);
    if (waiting < AK_SIDES && waiting != waiting_before)
        ak_notify(srv, "your_turn", g, g->player[waiting], waiting);
}

static void game_stored(struct ak_server *srv, const struct ak_commit *k)
{
    announce(srv, k->g, k->waiting_before);
    ak_ladder_log(k);
}

/* An action the store did not take: its game's state is back already;
 * what undo kept and the deadline follow it. */
static void game_rolled_back(struct ak_commit *k)
{
    ak_undo_forget(k->g);
    ak_batch_restore_clock(k);
}

/* An action about to be committed: the ratings a rated game it ends
 * gives (stored in the same transaction, ak_writer.c). */
static void game_committing(struct ak_server *srv, const struct ak_game *g, const struct ak_state *prev,
                            const struct ak_state *next, struct ak_commit *k)
{
    ak_ladder_prepare(&srv->cfg, g, prev, next, k);
}

void ak_server_hook(struct ak_server *srv)
{
    srv->hooks = (struct ak_server_hooks){
        .request = ak_dispatch,
        .output = ak_batch_wake,
        .closing = ak_conn_unwatch_all,
        .anonymous = ak_conn_watch_anonymous,
        .game_committing = game_committing,
        .game_stored = game_stored,
        .game_rolled_back = game_rolled_back,
    };
}
