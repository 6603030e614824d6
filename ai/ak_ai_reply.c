/* ak_ai_reply: what the enemy's best single move next turn would cost a
 * position, for the strong level (its plan, ak_ai_plan.c, and its greedy
 * moves, ak_ai.c).
 *
 * The evaluation is static: it sees a pocket once it is closed, a supply
 * unit once it can be taken, a home base once an enemy zone covers it,
 * but not the enemy unit that will close, take or cover them in its next
 * move. The strong level's first played-out games against the beginner
 * were lost that way: the Axis marched east on turn 1, one Allied unit
 * from the west stepped behind it onto the coast road, and the whole army
 * was cut off from its base and lost two turns later (ISOLATION).
 *
 * So: for each enemy combat unit, each square it can reach (ak_reach,
 * through the position as it stands: a screen that blocks it counts),
 * the unit is put there on a copy, the supply units it would capture
 * there taken (CAPTURE 2: next to it, even with a guard on their square,
 * outside a held fortress), and the position valued again; the worst of
 * these for side is the reply. Only moves, one unit at a time:
 * the battles that could follow are the evaluation's battle and forced
 * attack terms, and two enemy units moving together are not looked at.
 * Its cost is an evaluation per reachable square of every enemy unit
 * (some hundreds), so it is asked only of the plan's best genome and its
 * variants (harden) and of the best few greedy moves, never inside the
 * plan's evolution.
 */
#include <math.h>
#include <stddef.h>

#include "ak_ai_internal.h"
#include "ak_capture.h"
#include "ak_query.h"

/* Would an enemy combat unit on h capture one of side's supply units? */
static bool captures(const struct ak_state *s, int side, ak_hex h)
{
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == side && ak_def(u)->type == AK_TYPE_SUPPLY && ak_capturable_from(s, u, h))
            return true;
    return false;
}

/* side's value with enemy unit u on h (copy holds the position with u
 * wherever: it is put back as it was). */
static double probe(const struct ak_ai_weights *w, struct ak_state *copy, int side, int u, ak_hex h)
{
    static struct ak_state taken;
    ak_hex was = copy->unit[u].hex;
    copy->unit[u].hex = h;
    double v;
    if (captures(copy, side, h)) {
        taken = *copy;
        ak_capture_around(&taken, ak_def(u)->side, h, NULL);
        v = ak_ai_evaluate(w, &taken, side);
    } else {
        v = ak_ai_evaluate(w, copy, side);
    }
    copy->unit[u].hex = was;
    return v;
}

double ak_ai_reply_cost(const struct ak_ai_weights *w, const struct ak_state *s, int side)
{
    static struct ak_state copy;
    static ak_hex reach[AK_HEX_COUNT];
    double base = ak_ai_evaluate(w, s, side), worst = base;
    copy = *s;
    for (int u = 0; u < s->units; u++) {
        if (ak_def(u)->side == side || !ak_on_board(s, u) || !ak_unit_is_combat(ak_def(u)))
            continue;
        int n = ak_reach(s, u, reach, AK_HEX_COUNT);
        for (int i = 0; i < n; i++) {
            double v = probe(w, &copy, side, u, reach[i]);
            worst = v < worst ? v : worst;
        }
    }
    return base - worst;
}
