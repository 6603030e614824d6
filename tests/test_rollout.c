/* The AI's playouts (ai/ak_ai_rollout.c, issue 31): games played to the
 * end by both sides in both rulesets, every action through the engine
 * (ak_apply), every state one a loader accepts, the same seed the same
 * game, and more than a handful of moves and arrivals in each. */
#include "ak_check.h"

#include "ak_ai.h"
#include "ak_player.h"

START_TEST(playouts_end_legally)
{
    for (int ruleset = 0; ruleset < ak_ruleset_count(); ruleset++) {
        int over = 0;
        for (uint64_t seed = 1; seed <= 8; seed++) {
            static struct ak_state s, again;
            ak_player_init_state(&s, ruleset, 700 + seed);
            again = s;
            int n = ak_ai_rollout(&s, seed, 20000);
            ck_assert_msg(n > 100, "ruleset %d seed %d: the playout stopped after %d actions", ruleset, (int)seed, n);
            char why[200];
            ck_assert_msg(ak_state_check(&s, why, sizeof why), "ruleset %d seed %d: %s", ruleset, (int)seed, why);
            over += s.phase == AK_PHASE_OVER;
            ck_assert_int_eq(ak_ai_rollout(&again, seed, 20000), n);
            ck_assert_uint_eq(ak_state_hash(&again), ak_state_hash(&s));
            ck_assert_int_eq((int)s.actions, n);
        }
        ck_assert_int_eq(over, 8);
    }
}
END_TEST

/* A playout stops at its cap, not past it, and says how far it went,
 * whatever the cap (one falling inside the engine's way forward, or a
 * crowded opening's moves, too). */
START_TEST(playouts_keep_to_the_cap)
{
    for (int cap = 1; cap <= 60; cap++) {
        static struct ak_state s;
        ak_player_init_state(&s, 0, 9);
        ck_assert_int_eq(ak_ai_rollout(&s, 3, cap), cap);
        ck_assert_int_eq((int)s.actions, cap);
        ck_assert_int_ne(s.phase, AK_PHASE_OVER);
    }
}
END_TEST

AK_CHECK_MAIN("rollout", playouts_end_legally, playouts_keep_to_the_cap)
