/* The two movement searches agree: for positions met in self-play, every
 * destination the listing offers (breadth first) is reached by the single
 * route search (A* order, ak_move.c) at the same cost in movement-factor
 * and road-bonus squares. */
#include "ak_check.h"

#include "ak_move.h"
#include "ak_player.h"

START_TEST(routes_match_destinations)
{
    static struct ak_player_game g;
    static struct ak_dest dest[AK_HEX_COUNT];
    int checked = 0;
    for (uint64_t seed = 1; seed <= 2; seed++) {
        ak_player_start(&g, seed);
        for (int turn = 2; turn <= 38 && g.s.phase != AK_PHASE_OVER; turn += 3) {
            ak_player_play(&g, turn);
            if (g.s.phase != AK_PHASE_MOVEMENT)
                continue;
            for (int u = 0; u < g.s.units; u++) {
                if (!ak_on_board(&g.s, u) || ak_def(u)->side != g.s.side)
                    continue;
                uint8_t unit = (uint8_t)u;
                struct ak_reject rej;
                int n = ak_move_destinations(&g.s, g.s.side, &unit, 1, dest, AK_HEX_COUNT, &rej);
                for (int i = 0; i < n; i++) {
                    struct ak_dest d;
                    char a[8];
                    ck_assert_msg(ak_move_route(&g.s, g.s.side, &unit, 1, dest[i].hex, &d, &rej),
                                  "seed %d turn %d: %s cannot reach %s: %s", (int)seed, turn,
                                  ak_def(u)->shortname, ak_hex_format(dest[i].hex, a), rej.text);
                    ck_assert_msg(d.clear == dest[i].clear && d.road == dest[i].road,
                                  "seed %d turn %d: %s to %s costs %d+%d by route, %d+%d listed",
                                  (int)seed, turn, ak_def(u)->shortname, ak_hex_format(dest[i].hex, a),
                                  d.clear, d.road, dest[i].clear, dest[i].road);
                    checked++;
                }
            }
        }
    }
    ck_assert_int_gt(checked, 1000);
    ak_player_free(&g);
}
END_TEST

AK_CHECK_MAIN("routes", routes_match_destinations)
