/* ak_ladder: ratings for rated games, and the ladder operators run.
 *
 * Every player starts at 1500. When a rated game ends, the winner and the
 * loser move by the Elo formula (K = 32): the winner gains 32 times his
 * chance of losing as the ratings predicted it, the loser loses as much.
 * A resignation or a loss on time counts like any other result. The
 * update and the mark that the game was counted are one transaction, so a
 * game is never counted twice.
 */
#include <math.h>

#include "ak_server.h"

#define K_FACTOR 32

void ak_ladder_game_over(struct ak_server *srv, const struct ak_game *g)
{
    if (!g->meta.rated || g->player[0] == g->player[1] ||
        (g->state.result != AK_RESULT_AXIS_WINS && g->state.result != AK_RESULT_ALLIED_WINS))
        return;
    int win_side = g->state.result == AK_RESULT_AXIS_WINS ? AK_AXIS : AK_ALLIED;
    int64_t winner = g->player[win_side], loser = g->player[!win_side];
    int rw, rl;
    if (ak_store_rating_get(srv->store, winner, &rw) != AK_STORE_OK ||
        ak_store_rating_get(srv->store, loser, &rl) != AK_STORE_OK)
        return;
    double expected = 1.0 / (1.0 + pow(10.0, (rl - rw) / 400.0));
    int delta = (int)lround(K_FACTOR * (1.0 - expected));
    int rc = ak_store_rating_record(srv->store, g->id, winner, rw + delta, loser, rl - delta);
    if (rc == AK_STORE_OK)
        ak_log(AK_LOG_INFO, "game %lld rated: %s %d -> %d, %s %d -> %d", (long long)g->id,
               g->player_name[win_side], rw, rw + delta, g->player_name[!win_side], rl, rl - delta);
    else if (rc != AK_STORE_EXISTS)
        ak_log(AK_LOG_ERROR, "game %lld: the ratings could not be stored", (long long)g->id);
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
