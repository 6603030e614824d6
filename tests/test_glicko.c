/* Glicko-2 against the worked example of Glickman's paper ("Example of
 * the Glicko-2 system", 2013, section on the example): a player rated
 * 1500, RD 200, volatility 0.06, beats a 1400 (RD 30), loses to a 1550
 * (RD 100) and to a 1700 (RD 300), with tau 0.5: 1464.06, RD 151.52,
 * volatility 0.05999. */
#include <math.h>

#include "ak_check.h"
#include "ak_glicko.h"

static const struct ak_glicko_params paper = {.tau = 0.5, .max_rd = 350};

START_TEST(paper_example)
{
    struct ak_glicko me = {1500, 200, 0.06};
    struct ak_glicko opp[3] = {{1400, 30, 0.06}, {1550, 100, 0.06}, {1700, 300, 0.06}};
    double scores[3] = {1, 0, 0};
    struct ak_glicko after = ak_glicko_update(me, opp, scores, 3, &paper);
    ck_assert_msg(fabs(after.rating - 1464.06) < 0.01, "rating %f", after.rating);
    ck_assert_msg(fabs(after.rd - 151.52) < 0.01, "rd %f", after.rd);
    ck_assert_msg(fabs(after.volatility - 0.05999) < 0.00001, "volatility %f", after.volatility);
}
END_TEST

/* A win raises the rating and a loss lowers it, by as much for two equal
 * players; the deviation shrinks with a game and grows without. */
START_TEST(both_ways)
{
    struct ak_glicko a = {1500, 350, 0.06}, b = {1500, 350, 0.06};
    double win = 1, loss = 0;
    struct ak_glicko a2 = ak_glicko_update(a, &b, &win, 1, &paper);
    struct ak_glicko b2 = ak_glicko_update(b, &a, &loss, 1, &paper);
    ck_assert(a2.rating > 1500 && b2.rating < 1500);
    ck_assert(fabs((a2.rating - 1500) - (1500 - b2.rating)) < 1e-9);
    ck_assert(a2.rd < 350 && b2.rd < 350);
    struct ak_glicko idle = ak_glicko_update(a2, NULL, NULL, 0, &paper);
    ck_assert(idle.rd > a2.rd && idle.rating == a2.rating);
    ck_assert(ak_glicko_idle_rd(a2, 1e6, &paper) == 350);      /* never past the ceiling */
    ck_assert(ak_glicko_idle_rd(a2, 0, &paper) == a2.rd);
    /* Beating a much stronger player counts for more than a weaker one. */
    struct ak_glicko strong = {1900, 60, 0.06}, weak = {1100, 60, 0.06};
    ck_assert(ak_glicko_update(a, &strong, &win, 1, &paper).rating >
              ak_glicko_update(a, &weak, &win, 1, &paper).rating);
}
END_TEST

AK_CHECK_MAIN("glicko", paper_example, both_ways)
