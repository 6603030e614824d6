/* The computer player's march and its supply (ai/ak_ai_eval.c,
 * ai/ak_ai_escort.c; issue 31): the Axis's advance counts no further than
 * five squares (SUSTAIN ATTACKS 1) ahead of its most advanced supply unit,
 * so the army waits for its supply and the supply's next step is worth
 * every unit waiting on it; a supply unit may move as one stack with a
 * combat unit of its square that may still move, each such move the
 * engine accepts moving both; the weights are read by name (the benches'
 * AK_AI_WEIGHTS, the tuning's printout). */
#include "ak_check.h"

#include <stdio.h>
#include <string.h>

#include "ak_ai.h"
#include "ak_ai_internal.h"
#include "ak_engine.h"
#include "ak_zoc.h"

/* Only the advance weighed: the value is the Axis's march alone. */
static double march_value(const struct ak_state *s)
{
    struct ak_ai_weights w = {0};
    w.advance = 1;
    return ak_ai_evaluate(&w, s, AK_AXIS);
}

static uint8_t control[AK_KEYS];

static int way(const struct ak_state *s, ak_hex h)
{
    for (int k = 0; k < AK_KEYS; k++)
        control[k] = (uint8_t)ak_control_now(s, k);
    return ak_ai_key_distance(control, AK_AXIS, h);
}

/* A square a unit may stand on, at key distance d from holding every key
 * square, not next to any enemy unit; AK_HEX_NONE if none. */
static ak_hex square_at(const struct ak_state *s, int d)
{
    for (ak_hex h = 0; h < AK_HEX_COUNT; h++)
        if (ak_enterable(h) && way(s, h) == d && !ak_enemy_unit_adjacent(s, h, AK_AXIS) &&
            !ak_in_enemy_zoc(s, h, AK_AXIS))
            return h;
    return AK_HEX_NONE;
}

/* Every Axis supply unit off the board. */
static void no_axis_supply(struct ak_state *s)
{
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == AK_AXIS && ak_def(u)->type == AK_TYPE_SUPPLY && ak_on_board(s, u)) {
            s->unit[u].where = AK_AT_POOL;
            s->unit[u].hex = s->unit[u].start_hex = AK_HEX_NONE;
        }
}

/* The k-th Axis supply counter (not a captured one) put on sq. */
static int supply_put(struct ak_state *s, int k, ak_hex sq)
{
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == AK_AXIS && ak_def(u)->type == AK_TYPE_SUPPLY && !ak_def(u)->captured_counter &&
            k-- == 0) {
            s->unit[u].where = AK_AT_BOARD;
            s->unit[u].hex = s->unit[u].start_hex = sq;
            return u;
        }
    return -1;
}

static int axis_combat_unit(const struct ak_state *s, int nth)
{
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == AK_AXIS && ak_on_board(s, u) && ak_unit_is_combat(ak_def(u)) && ak_def(u)->attack > 0 &&
            nth-- == 0)
            return u;
    return -1;
}

static void put(struct ak_state *s, int u, ak_hex h)
{
    s->unit[u].where = AK_AT_BOARD;
    s->unit[u].hex = s->unit[u].start_hex = h;
}

/* The drive on the Allied base: the Axis holds its base, Tobruch and
 * Bengasi (a combat unit on each), the Allies only their base, so the
 * way left is the distance to it (ak_ai_key_distance). */
static void drive_on_the_base(struct ak_state *s)
{
    ak_state_init(s, 0, 1);
    const struct ak_map *m = ak_map();
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == AK_ALLIED && ak_on_board(s, u) && s->unit[u].hex != m->homebase[AK_ALLIED]) {
            s->unit[u].where = AK_AT_POOL;
            s->unit[u].hex = s->unit[u].start_hex = AK_HEX_NONE;
        }
    put(s, axis_combat_unit(s, 1), m->homebase[AK_AXIS]);
    put(s, axis_combat_unit(s, 2), m->tobruch);
    put(s, axis_combat_unit(s, 3), m->bengasi);
    char why[200];
    ck_assert_msg(ak_state_check(s, why, sizeof why), "%s", why);
    ck_assert_int_eq(way(s, m->homebase[AK_ALLIED]), 0);
}

START_TEST(advance_waits_for_supply)
{
    static struct ak_state s;
    drive_on_the_base(&s);
    int c = axis_combat_unit(&s, 0), far = 40;
    ck_assert_int_ge(c, 0);
    ak_hex supply_sq = square_at(&s, far), ahead = square_at(&s, far - 12), further = square_at(&s, far - 18);
    ak_hex supply_up = square_at(&s, far - 1);
    ck_assert(supply_sq != AK_HEX_NONE && ahead != AK_HEX_NONE && further != AK_HEX_NONE && supply_up != AK_HEX_NONE);
    no_axis_supply(&s);
    int sup = supply_put(&s, 0, supply_sq), behind = supply_put(&s, 1, square_at(&s, far + 6));
    ck_assert(sup >= 0 && behind >= 0);

    /* beyond the supply's reach, a further step of the army is worth nothing */
    s.unit[c].hex = s.unit[c].start_hex = ahead;
    double at_ahead = march_value(&s);
    s.unit[c].hex = s.unit[c].start_hex = further;
    ck_assert_double_eq_tol(march_value(&s), at_ahead, 1e-9);

    /* the most advanced supply unit bounds it: the one behind does not */
    s.unit[behind].hex = s.unit[behind].start_hex = square_at(&s, far + 9);
    ck_assert_double_eq_tol(march_value(&s), at_ahead, 1e-9);

    /* the supply unit's step carries the units waiting on it */
    double before = march_value(&s);
    s.unit[sup].hex = s.unit[sup].start_hex = supply_up;
    ck_assert_double_gt(march_value(&s), before);

    /* within the supply's reach, the army's step counts as before */
    s.unit[sup].hex = s.unit[sup].start_hex = supply_sq;
    s.unit[c].hex = s.unit[c].start_hex = square_at(&s, far - 2);
    double near = march_value(&s);
    s.unit[c].hex = s.unit[c].start_hex = square_at(&s, far - 4);
    ck_assert_double_gt(march_value(&s), near);

    /* a supply unit within five squares of the base: no bound, whatever
     * the others */
    s.unit[sup].hex = s.unit[sup].start_hex = square_at(&s, 3);
    s.unit[c].hex = s.unit[c].start_hex = ahead;
    double short_way = march_value(&s);
    s.unit[c].hex = s.unit[c].start_hex = further;
    ck_assert_double_gt(march_value(&s), short_way);

    /* with no supply unit on the board, no bound */
    no_axis_supply(&s);
    s.unit[c].hex = s.unit[c].start_hex = ahead;
    double alone = march_value(&s);
    s.unit[c].hex = s.unit[c].start_hex = further;
    ck_assert_double_gt(march_value(&s), alone);
}
END_TEST

START_TEST(supply_moves_with_an_escort)
{
    static struct ak_state s, w;
    static struct ak_action moves[3 * AK_HEX_COUNT];
    drive_on_the_base(&s);
    no_axis_supply(&s);
    int c = axis_combat_unit(&s, 0), sup = supply_put(&s, 0, square_at(&s, 30));
    ck_assert(c >= 0 && sup >= 0);
    ck_assert_int_eq(s.side, AK_AXIS);

    /* alone on its square: no escorted move */
    ck_assert_int_eq(ak_ai_escorted_moves(&s, sup, moves, 3 * AK_HEX_COUNT), 0);
    ck_assert_int_eq(ak_ai_escorted_moves(&s, c, moves, 3 * AK_HEX_COUNT), 0);     /* not a supply unit */

    /* with a combat unit on its square: moves of both as one stack */
    s.unit[c].hex = s.unit[c].start_hex = s.unit[sup].hex;
    char why[200];
    ck_assert_msg(ak_state_check(&s, why, sizeof why), "%s", why);
    int n = ak_ai_escorted_moves(&s, sup, moves, 3 * AK_HEX_COUNT), applied = 0;
    ck_assert_int_gt(n, 0);
    /* an escort that has moved this turn is not offered */
    w = s;
    w.unit[c].flags |= AK_U_MOVED;
    ck_assert_int_eq(ak_ai_escorted_moves(&w, sup, moves + n, 1), 0);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(moves[i].nunits, 2);
        ck_assert(moves[i].units[0] == c || moves[i].units[1] == c);
        ck_assert(moves[i].units[0] == sup || moves[i].units[1] == sup);
        ck_assert_int_eq(moves[i].path[moves[i].npath - 1], moves[i].hex);
        w = s;
        if (!ak_apply(&w, &moves[i], NULL, NULL))
            continue;
        applied++;
        ck_assert_int_eq(w.unit[c].hex, moves[i].hex);
        ck_assert_int_eq(w.unit[sup].hex, moves[i].hex);
    }
    ck_assert_int_eq(applied, n);   /* away from the enemy, every one */
}
END_TEST

/* The weights by name, as the benches and the tuning read and print them:
 * every name sets its own field (checked against the fields by their C
 * names, so a name put on the wrong weight fails), items apart by commas
 * or spaces, and a bad spec changes nothing. */
START_TEST(weights_by_name)
{
    const struct ak_ai_weights want = {
        .material = 1, .supply_unit = 2, .tobruch = 3, .home_threat = 4, .advance = 5,
        .out_of_supply = 6, .isolated = 7, .battle = 8, .supply_exposed = 9, .threat = 10,
        .home_garrison = 11, .no_supply = 12, .key_square = 13, .reply = 14, .supply_front = 15,
    };
    char spec[1024] = "", err[128];
    for (int j = 0; j < AK_AI_WEIGHTS; j++) {
        size_t at = strlen(spec);
        snprintf(spec + at, sizeof spec - at, "%s%s=%g", j % 2 ? ", " : " ", ak_ai_weight_name(j),
                 ak_ai_weight_value(&want, j));
    }
    struct ak_ai_weights got = {0};
    ck_assert_msg(ak_ai_weights_parse(&got, spec, err, sizeof err), "%s: %s", spec, err);
    ck_assert(memcmp(&got, &want, sizeof got) == 0);
    for (int j = 0; j < AK_AI_WEIGHTS; j++) {   /* one name sets its weight alone */
        struct ak_ai_weights w = {0};
        snprintf(spec, sizeof spec, "%s=%d", ak_ai_weight_name(j), j + 1);
        ck_assert(ak_ai_weights_parse(&w, spec, err, sizeof err));
        for (int k = 0; k < AK_AI_WEIGHTS; k++)
            ck_assert(ak_ai_weight_value(&w, k) == (k == j ? j + 1 : 0));
    }
    struct ak_ai_weights w = ak_ai_default_weights;
    ck_assert(ak_ai_weights_parse(&w, "reply=0,advance=0.5", err, sizeof err));
    ck_assert(w.reply == 0 && w.advance == 0.5 && w.material == ak_ai_default_weights.material);
    ck_assert(w.supply_front == ak_ai_default_weights.supply_front);
    const char *bad[] = {"replyx=1", "reply",        "reply=",         "reply=-1", "reply=1x", "=1",
                         "reply = 1", "advance=1,foo=2", "reply=nan",   "reply=inf", "repl=1", "reply,advance=1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct ak_ai_weights v = ak_ai_default_weights;
        err[0] = 0;
        ck_assert_msg(!ak_ai_weights_parse(&v, bad[i], err, sizeof err), "%s accepted", bad[i]);
        ck_assert(err[0]);
        ck_assert(memcmp(&v, &ak_ai_default_weights, sizeof v) == 0);   /* nothing changed */
    }
}
END_TEST

AK_CHECK_MAIN("ai_eval", advance_waits_for_supply, supply_moves_with_an_escort, weights_by_name)
