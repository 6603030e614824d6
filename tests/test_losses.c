/* Steps, loss requirements and excess of the Updated ruleset
 * (common/rules/updated/ak_losses.h), case by case from docs/updated-rules-cases.md,
 * which a helper wrote from seed 003 alone: U-012 to U-026, citing NEW
 * COMBAT SYSTEM 4 to 7. Each rule both ways: the choice it allows, the one
 * it refuses. */
#include "ak_check.h"
#include "ak_losses.h"

static struct ak_loss_requirement points(int n)
{
    struct ak_crt_side_effect e = {.loss = (uint8_t)n};
    return ak_loss_required(&e, 0);
}

static struct ak_loss_requirement percent(int p, int weaker)
{
    struct ak_crt_side_effect e = {.loss = (uint8_t)p, .loss_percent = true};
    return ak_loss_required(&e, weaker);
}

/* NEW COMBAT SYSTEM 5: "All units with 2 SPs or less, including 2-3-4
 * Italian infantry units, are 1 step units. Stronger units have 2 steps,
 * and their combat factor is halved round up" (U-015, U-016). */
START_TEST(steps_and_reduced_factors)
{
    ck_assert_int_eq(ak_steps_of(2), 1);    /* 22 Gds Inf 2-2-6, Brescia 2-3-4, 21Pz 3 2-2-12 */
    ck_assert_int_eq(ak_steps_of(1), 1);    /* 7 Arm 7 S.G 1-1-7 */
    ck_assert_int_eq(ak_steps_of(3), 2);    /* 3-3-7 */
    ck_assert_int_eq(ak_steps_of(7), 2);
    /* 7-7-10 -> 4-4-10, 3-3-10 -> 2-2-10, 4-5-6 -> 2-3-6, 3-4-6 -> 2-2-6 */
    ck_assert_int_eq(ak_reduced_factor(7), 4);
    ck_assert_int_eq(ak_reduced_factor(3), 2);
    ck_assert_int_eq(ak_reduced_factor(4), 2);
    ck_assert_int_eq(ak_reduced_factor(5), 3);
}
END_TEST

/* ¶4: requirements in the weaker side's strength; a 50% result on an odd
 * strength is exact (kept in half points). */
START_TEST(requirements)
{
    ck_assert_int_eq(points(2).halves, 4);
    ck_assert(!points(2).percent);
    ck_assert_int_eq(percent(50, 3).halves, 3);     /* 1.5 */
    ck_assert_int_eq(percent(50, 7).halves, 7);     /* 3.5 */
    ck_assert_int_eq(percent(50, 10).halves, 10);
    ck_assert(percent(50, 3).percent);
    ck_assert_int_eq(percent(100, 4).halves, 8);
    ck_assert_int_eq(percent(50, -3).halves, 0);
}
END_TEST

/* U-012: defenders must reach the requirement (allows and forbids); only
 * forced excess comes back (A-9 (b)). */
START_TEST(defenders_reach_the_requirement)
{
    struct ak_loss_unit u[2] = {{2, false, 0}, {1, false, 0}};    /* 9A Inf 20 (2-2-6), 7 Arm 7 S.G (1-1-7) */
    int actual;
    ck_assert(!ak_loss_meets(points(2), u, (uint8_t[]){AK_LOSS_KEEP, AK_LOSS_ELIMINATE}, 2, &actual));
    ck_assert(ak_loss_meets(points(2), u, (uint8_t[]){AK_LOSS_ELIMINATE, AK_LOSS_KEEP}, 2, &actual));
    ck_assert_int_eq(actual, 2);
    ck_assert(ak_loss_meets(points(2), u, (uint8_t[]){AK_LOSS_ELIMINATE, AK_LOSS_ELIMINATE}, 2, &actual));
    ck_assert_int_eq(actual, 3);
    ck_assert_int_eq(ak_loss_forced_excess(points(2), u, 2), 0);   /* 9ainf20 alone was exact */
}
END_TEST

/* U-013: attackers count attack factors: Pavia and Brescia attack (AF 2
 * each) for a 3: one is refused, both give 1 excess; Pavia defending
 * (DF 3) for a 3 is exact. */
START_TEST(attackers_count_attack_factors)
{
    struct ak_loss_unit attacking[2] = {{2, false, 0}, {2, false, 0}};
    int actual;
    ck_assert(!ak_loss_meets(points(3), attacking, (uint8_t[]){AK_LOSS_ELIMINATE, AK_LOSS_KEEP}, 2, &actual));
    ck_assert(ak_loss_meets(points(3), attacking, (uint8_t[]){AK_LOSS_ELIMINATE, AK_LOSS_ELIMINATE}, 2, &actual));
    ck_assert_int_eq(ak_loss_forced_excess(points(3), attacking, 2), 1);
    struct ak_loss_unit defending = {3, false, 0};
    ck_assert(ak_loss_meets(points(3), &defending, (uint8_t[]){AK_LOSS_ELIMINATE}, 1, &actual));
    ck_assert_int_eq(ak_loss_forced_excess(points(3), &defending, 1), 0);
}
END_TEST

/* U-015, U-017: a one-step unit, or a reduced one, cannot be reduced:
 * only eliminated; a reduced 4-4-10 for a 2 gives 2 back. */
START_TEST(no_reducing_a_one_step_or_reduced_unit)
{
    struct ak_loss_unit one_step = {2, false, 0}, reduced = {4, false, 0};
    int actual;
    ck_assert(!ak_loss_meets(points(1), &one_step, (uint8_t[]){AK_LOSS_REDUCE}, 1, &actual));
    ck_assert(!ak_loss_meets(points(2), &reduced, (uint8_t[]){AK_LOSS_REDUCE}, 1, &actual));
    ck_assert(ak_loss_meets(points(2), &reduced, (uint8_t[]){AK_LOSS_ELIMINATE}, 1, &actual));
    ck_assert_int_eq(ak_loss_forced_excess(points(2), &reduced, 1), 2);
}
END_TEST

/* ¶6, U-018, U-019, U-021: a lone two-step unit meets a 50% loss by
 * flipping, with nothing back; U-020: not a fixed number. */
START_TEST(fifty_percent_by_one_flip)
{
    struct ak_loss_unit arm = {3, true, 0}, panzer = {7, true, 0}, even = {4, true, 0};
    int actual;
    ck_assert(ak_loss_meets(percent(50, 3), &arm, (uint8_t[]){AK_LOSS_REDUCE}, 1, &actual));
    ck_assert_int_eq(actual, 1);
    ck_assert_int_eq(ak_loss_forced_excess(percent(50, 3), &arm, 1), 0);
    ck_assert(ak_loss_meets(percent(50, 7), &panzer, (uint8_t[]){AK_LOSS_REDUCE}, 1, &actual));
    ck_assert_int_eq(actual, 3);
    ck_assert_int_eq(ak_loss_forced_excess(percent(50, 7), &panzer, 1), 0);
    ck_assert(ak_loss_meets(percent(50, 4), &even, (uint8_t[]){AK_LOSS_REDUCE}, 1, &actual));
    ck_assert_int_eq(ak_loss_forced_excess(percent(50, 4), &even, 1), 0);
    /* U-020: a "2" is not a 50%: the flip (1) is refused, elimination gives 1 back */
    ck_assert(!ak_loss_meets(points(2), &arm, (uint8_t[]){AK_LOSS_REDUCE}, 1, &actual));
    ck_assert(ak_loss_meets(points(2), &arm, (uint8_t[]){AK_LOSS_ELIMINATE}, 1, &actual));
    ck_assert_int_eq(ak_loss_forced_excess(points(2), &arm, 1), 1);
    /* ... and keeping it meets nothing */
    ck_assert(!ak_loss_meets(percent(50, 3), &arm, (uint8_t[]){AK_LOSS_KEEP}, 1, &actual));
}
END_TEST

/* U-022 (reading A-4 (a)): two odd two-step units (DF 7 and 3) flipped
 * for a 50% loss count 3.5 + 1.5 = 5: accepted, nothing back; one flip is
 * not enough. */
START_TEST(fifty_percent_on_a_stack)
{
    struct ak_loss_unit u[2] = {{7, true, 0}, {3, true, 0}};
    int actual;
    ck_assert(ak_loss_meets(percent(50, 10), u, (uint8_t[]){AK_LOSS_REDUCE, AK_LOSS_REDUCE}, 2, &actual));
    ck_assert_int_eq(actual, 4);
    ck_assert(!ak_loss_meets(percent(50, 10), u, (uint8_t[]){AK_LOSS_REDUCE, AK_LOSS_KEEP}, 2, &actual));
    ck_assert_int_eq(ak_loss_forced_excess(percent(50, 10), u, 2), 0);
}
END_TEST

/* U-023 (A-5 (a)): Pavia (2-3-4, one step) alone for a 50% (1.5): only
 * elimination, and 3 - 2 = 1 comes back. */
START_TEST(one_step_odd_unit_has_no_rounding)
{
    struct ak_loss_unit pavia = {3, false, 0};
    int actual;
    ck_assert(!ak_loss_meets(percent(50, 3), &pavia, (uint8_t[]){AK_LOSS_REDUCE}, 1, &actual));
    ck_assert(ak_loss_meets(percent(50, 3), &pavia, (uint8_t[]){AK_LOSS_ELIMINATE}, 1, &actual));
    ck_assert_int_eq(ak_loss_forced_excess(percent(50, 3), &pavia, 1), 1);
}
END_TEST

/* U-024, U-025, U-026: the seed's example, a 7-7-10 reduced for a "2"
 * loses 3 and gives 1 back; an exact flip gives nothing; a 3-3-10 for a
 * "2" must go whole and gives 1. */
START_TEST(excess_examples)
{
    struct ak_loss_unit panzer = {7, true, 0}, arm = {4, true, 0}, pzinf = {3, true, 0};
    int actual;
    ck_assert(ak_loss_meets(points(2), &panzer, (uint8_t[]){AK_LOSS_REDUCE}, 1, &actual));
    ck_assert_int_eq(actual, 3);
    ck_assert_int_eq(ak_loss_forced_excess(points(2), &panzer, 1), 1);
    ck_assert_int_eq(ak_loss_forced_excess(points(2), &arm, 1), 0);
    ck_assert(!ak_loss_meets(points(2), &pzinf, (uint8_t[]){AK_LOSS_REDUCE}, 1, &actual));
    ck_assert_int_eq(ak_loss_forced_excess(points(2), &pzinf, 1), 1);
}
END_TEST

/* More required than the side has: losing everything is all it can do,
 * and nothing comes back. */
START_TEST(everything_lost_when_not_enough)
{
    struct ak_loss_unit u[2] = {{2, false, 0}, {3, true, 0}};
    int actual;
    ck_assert(ak_loss_meets(points(9), u, (uint8_t[]){AK_LOSS_ELIMINATE, AK_LOSS_ELIMINATE}, 2, &actual));
    ck_assert(!ak_loss_meets(points(9), u, (uint8_t[]){AK_LOSS_ELIMINATE, AK_LOSS_REDUCE}, 2, &actual));
    ck_assert_int_eq(ak_loss_forced_excess(points(9), u, 2), 0);
    ck_assert(!ak_loss_meets(points(1), u, (uint8_t[]){7, AK_LOSS_KEEP}, 2, &actual));     /* not a choice */
}
END_TEST

/* TERRAIN EFFECTS 2: a doubled fortress infantry unit counts its doubled
 * factor, and reduced, its halved factor doubled: a 3-3-7 counts 6, then
 * 4, so its reduction removes 2, not 3. */
START_TEST(fortress_reduction_removes_the_doubled_difference)
{
    struct ak_loss_unit u[1] = {{6, true, 4}};
    struct ak_crt_side_effect dl3 = {3, false, 0}, dl2 = {2, false, 0};
    uint8_t reduce[1] = {AK_LOSS_REDUCE}, eliminate[1] = {AK_LOSS_ELIMINATE};
    int actual;
    ck_assert(!ak_loss_meets(ak_loss_required(&dl3, 0), u, reduce, 1, &actual));
    ck_assert_int_eq(actual, 2);
    ck_assert(ak_loss_meets(ak_loss_required(&dl3, 0), u, eliminate, 1, &actual));
    ck_assert(ak_loss_meets(ak_loss_required(&dl2, 0), u, reduce, 1, &actual));
    ck_assert_int_eq(ak_loss_forced_excess(ak_loss_required(&dl2, 0), u, 1), 0);   /* exact: nothing back */
}
END_TEST

AK_CHECK_MAIN("losses", steps_and_reduced_factors, requirements, defenders_reach_the_requirement,
              attackers_count_attack_factors, no_reducing_a_one_step_or_reduced_unit, fifty_percent_by_one_flip,
              fifty_percent_on_a_stack, one_step_odd_unit_has_no_rounding, excess_examples,
              everything_lost_when_not_enough, fortress_reduction_removes_the_doubled_difference)
