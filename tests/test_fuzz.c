/* Bad input never breaks the engine: random actions (every kind, any
 * units of either side, squares on and off the map, battle numbers in and
 * out of range, paths of any length) are tried against positions met in
 * self-play; each is accepted or rejected with a rule code, and a rejected
 * one leaves the state exactly as it was. Run under the sanitizers by
 * scripts/test. */
#include "ak_check.h"

#include <string.h>

#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_patch.h"
#include "ak_player.h"

static uint64_t next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void random_action(struct ak_action *a, const struct ak_state *s, uint64_t *x)
{
    memset(a, 0, sizeof *a);
    a->kind = (uint8_t)(next(x) % (AK_ACT_KINDS + 1));    /* one past the last, too */
    a->side = (uint8_t)(next(x) % 3);
    a->nunits = (uint8_t)(next(x) % 5);
    for (int i = 0; i < a->nunits; i++)
        a->units[i] = (uint8_t)(next(x) % (s->units + 2));
    a->hex = (ak_hex)(next(x) % (AK_HEX_COUNT + 10)) - 5;
    a->npath = (uint8_t)(next(x) % 4);
    for (int i = 0; i < a->npath; i++)
        a->path[i] = (ak_hex)(next(x) % (AK_HEX_COUNT + 10)) - 5;
    a->supply = (uint8_t)(next(x) % 4 ? next(x) % (s->units + 2) : AK_UNIT_NONE);
    a->battle = (uint8_t)(next(x) % 6);
}

/* The push after an action is ak_state_patch(before, after): applied to
 * the public state before, it must give the public state after exactly. */
static void check_patch(const struct ak_state *before, const struct ak_state *after)
{
    json_t *ja = ak_state_to_json(before), *jb = ak_state_to_json(after);
    json_t *ops = ak_state_patch(before, after);
    ck_assert_int_eq(ak_patch_apply(ja, ops), 0);
    ck_assert_msg(json_equal(ja, jb), "the patch after action %u does not give the new state",
                  (unsigned)after->actions);
    json_decref(ja);
    json_decref(jb);
    json_decref(ops);
}

START_TEST(random_actions_change_nothing_when_rejected)
{
    static struct ak_player_game g;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    long accepted = 0, rejected = 0;
    for (uint64_t seed = 2; seed <= 6; seed++) {
        ak_player_start(&g, seed);
        while (g.s.phase != AK_PHASE_OVER && g.n < AK_PLAYER_ACTIONS_MAX - 1) {
            for (int k = 0; k < 100; k++) {
                struct ak_action a;
                random_action(&a, &g.s, &x);
                struct ak_state copy = g.s;
                struct ak_events ev = {0};
                struct ak_reject rej;
                if (ak_apply(&copy, &a, &ev, &rej)) {
                    accepted++;
                    json_t *j = ak_action_to_json_in(&a, &g.s);
                    json_decref(j);
                    check_patch(&g.s, &copy);
                } else {
                    rejected++;
                    ck_assert_ptr_nonnull(rej.code);
                    ck_assert_int_eq(memcmp(&copy, &g.s, sizeof copy), 0);
                }
            }
            int before = g.n;
            struct ak_state prev = g.s;
            if (!ak_player_play(&g, g.s.turn + 1) || g.n == before)
                break;
            check_patch(&prev, &g.s);
        }
    }
    ck_assert_int_gt(rejected, 1000);
    (void)accepted;
    ak_player_free(&g);
}
END_TEST

/* Malformed action JSON is refused with a message, never half read. */
START_TEST(bad_action_json)
{
    static const char *const bad[] = {
        "{}", "{\"action\":7}", "{\"action\":\"move\"}", "{\"action\":\"move\",\"units\":[],\"to\":\"W6\"}",
        "{\"action\":\"move\",\"units\":[\"nosuch\"],\"to\":\"W6\"}",
        "{\"action\":\"move\",\"units\":[\"21pz5\"],\"to\":\"Z99\"}",
        "{\"action\":\"move\",\"units\":[\"21pz5\"],\"path\":[1,2]}",
        "{\"action\":\"battle\",\"attackers\":[\"21pz5\"]}",
        "{\"action\":\"resolve\",\"battle\":0}", "{\"action\":\"resolve\",\"battle\":\"one\"}",
        "{\"action\":\"retreat\",\"units\":[\"trenta\"]}", "{\"action\":\"advance\",\"units\":[\"trenta\"]}",
        "{\"action\":\"substitute\",\"out\":[\"2arm3\"]}", "{\"action\":\"fly\"}", "[]", "3",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_error_t e;
        json_t *j = json_loads(bad[i], JSON_DECODE_ANY, &e);
        struct ak_action a;
        char err[200] = "";
        ck_assert_msg(!ak_action_from_json(j, AK_AXIS, &a, err, sizeof err), "%s was read", bad[i]);
        ck_assert_msg(err[0], "no message for %s", bad[i]);
        json_decref(j);
    }
}
END_TEST

AK_CHECK_MAIN("fuzz", random_actions_change_nothing_when_rejected, bad_action_json)
