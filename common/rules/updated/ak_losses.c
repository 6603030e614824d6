/* ak_losses: steps, loss requirements and excess of the Updated ruleset
 * (ak_losses.h says which sentences and readings). Everything is counted
 * in half points so that a 50% result on an odd strength stays exact. */
#include "ak_losses.h"

struct ak_loss_requirement ak_loss_required(const struct ak_crt_side_effect *e, int weaker_strength)
{
    struct ak_loss_requirement r = {0, e->loss_percent};
    if (weaker_strength < 0)
        weaker_strength = 0;
    if (e->loss_percent)        /* to the half point above: 50% of 7 is exactly 3.5 */
        r.halves = (uint16_t)((weaker_strength * e->loss * 2 + 99) / 100);
    else
        r.halves = (uint16_t)(e->loss * 2);
    return r;
}

/* What one choice removes, and what it counts for, in half points. */
static void weigh(struct ak_loss_requirement r, const struct ak_loss_unit *u, int choice, int *actual, int *credit)
{
    *actual = *credit = 0;
    if (choice == AK_LOSS_ELIMINATE) {
        *actual = u->factor * 2;
        *credit = *actual;
    } else if (choice == AK_LOSS_REDUCE) {
        *actual = (u->factor - (u->reduced_to ? u->reduced_to : ak_reduced_factor(u->factor))) * 2;
        /* ¶6: "flipping a 2 step unit always fully satisfies a 50% loss
         * result": on a percentage, exactly half its factor */
        *credit = r.percent ? u->factor : *actual;
    }
}

bool ak_loss_meets(struct ak_loss_requirement r, const struct ak_loss_unit *u, const uint8_t *choice, int n,
                   int *actual)
{
    int removed = 0, credit = 0;
    bool everything = true;
    for (int i = 0; i < n; i++) {
        if (choice[i] == AK_LOSS_REDUCE && !u[i].reducible)
            return false;
        if (choice[i] > AK_LOSS_ELIMINATE)
            return false;
        int a, c;
        weigh(r, &u[i], choice[i], &a, &c);
        removed += a;
        credit += c;
        everything &= choice[i] == AK_LOSS_ELIMINATE;
    }
    *actual = removed / 2;
    return credit >= r.halves || everything;
}

int ak_loss_forced_excess(struct ak_loss_requirement r, const struct ak_loss_unit *u, int n)
{
    /* Over the choices unit by unit: for each credit reached (capped at
     * the requirement), the least factor removed. */
    enum { CAP = 2 * 2 * 99 * AK_LOSS_UNITS_MAX };
    static int least[CAP + 1], next[CAP + 1];
    int need = r.halves > CAP ? CAP : r.halves;
    if (n > AK_LOSS_UNITS_MAX)
        n = AK_LOSS_UNITS_MAX;
    for (int c = 0; c <= need; c++)
        least[c] = -1;
    least[0] = 0;
    for (int i = 0; i < n; i++) {
        for (int c = 0; c <= need; c++)
            next[c] = -1;
        for (int c = 0; c <= need; c++) {
            if (least[c] < 0)
                continue;
            for (int choice = AK_LOSS_KEEP; choice <= AK_LOSS_ELIMINATE; choice++) {
                if (choice == AK_LOSS_REDUCE && !u[i].reducible)
                    continue;
                int a, cr;
                weigh(r, &u[i], choice, &a, &cr);
                int to = c + cr > need ? need : c + cr;
                if (next[to] < 0 || least[c] + a < next[to])
                    next[to] = least[c] + a;
            }
        }
        for (int c = 0; c <= need; c++)
            least[c] = next[c];
    }
    int required = (r.halves + 1) / 2;      /* A-5 (a): the requirement rounded up */
    if (least[need] < 0)                    /* nothing meets it: every unit is lost, nothing comes back */
        return 0;
    int excess = least[need] / 2 - required;
    return excess > 0 ? excess : 0;
}
