/* ak_ladder: ratings for rated games, and the ladder operators run.
 *
 * Every player starts at 1500. When a rated game ends, the winner and the
 * loser move by the Elo formula (K = 32): the winner gains 32 times his
 * chance of losing as the ratings predicted it, the loser loses as much.
 * A resignation or a loss on time counts like any other result. The
 * ratings are computed and written by the writer thread in the very
 * transaction that stores the action ending the game (with the mark that
 * the game was counted): the end of a game is never stored without its
 * rating change, nor counted twice.
 */
#include <math.h>

#include "ak_server.h"

#define K_FACTOR 32

void ak_ladder_prepare(const struct ak_game *g, const struct ak_state *prev, const struct ak_state *next,
                       struct ak_commit *k)
{
    k->rate_winner = k->rate_loser = 0;
    if (prev->phase == AK_PHASE_OVER || next->phase != AK_PHASE_OVER || !g->meta.rated ||
        g->player[0] == g->player[1] ||
        (next->result != AK_RESULT_AXIS_WINS && next->result != AK_RESULT_ALLIED_WINS))
        return;
    int win_side = next->result == AK_RESULT_AXIS_WINS ? AK_AXIS : AK_ALLIED;
    k->rate_winner = g->player[win_side];
    k->rate_loser = g->player[!win_side];
}

int ak_ladder_write(struct ak_store *st, struct ak_commit *k)
{
    if (!k->rate_winner)
        return AK_STORE_OK;
    int rw, rl;
    if (ak_store_rating_get(st, k->rate_winner, &rw) != AK_STORE_OK ||
        ak_store_rating_get(st, k->rate_loser, &rl) != AK_STORE_OK)
        return AK_STORE_ERROR;
    double expected = 1.0 / (1.0 + pow(10.0, (rl - rw) / 400.0));
    int delta = (int)lround(K_FACTOR * (1.0 - expected));
    int rc = ak_store_rating_record_rows(st, k->game_id, k->rate_winner, rw + delta, k->rate_loser, rl - delta);
    k->rated[0] = rw;
    k->rated[1] = rw + delta;
    k->rated[2] = rl;
    k->rated[3] = rl - delta;
    return rc == AK_STORE_EXISTS ? AK_STORE_OK : rc;    /* counted before: nothing to do */
}

void ak_ladder_log(const struct ak_commit *k)
{
    if (!k->rate_winner)
        return;
    const struct ak_game *g = k->g;
    int win_side = g->player[AK_AXIS] == k->rate_winner ? AK_AXIS : AK_ALLIED;
    ak_log(AK_LOG_INFO, "game %lld rated: %s %d -> %d, %s %d -> %d", (long long)g->id,
           g->player_name[win_side], k->rated[0], k->rated[1], g->player_name[!win_side], k->rated[2],
           k->rated[3]);
}

void ak_cmd_ladder(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    static struct ak_store_rating list[200];
    (void)msg;
    int n = ak_store_ladder(c->srv->store, list, 200);
    if (n < 0) {
        ak_conn_reply_error(c, id, "internal", "could not read the ladder");
        return;
    }
    json_t *players = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(players, json_pack("{s:i,s:s,s:i,s:i}", "rank", i + 1, "user",
                                                 list[i].name, "rating", list[i].rating, "games",
                                                 list[i].games));
    ak_conn_reply_ok(c, id, json_pack("{s:o}", "ladder", players));
}
