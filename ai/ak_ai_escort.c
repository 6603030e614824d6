/* ak_ai_escort: a supply unit moved with a combat unit as one stack
 * (issue 31). A supply unit alone within reach of an enemy combat unit
 * can be taken (CAPTURE), and the evaluation counts it so
 * (ak_ai_eval.c, supply_exposed); a supply unit that moves up to the
 * front alone is therefore worth less than one left behind, however far
 * behind, and the greedy search, one unit at a time, never brings it
 * up: the Axis's supply stayed forty squares behind its army for twenty
 * turns while the army could not attack the Allied base without it
 * (SUSTAIN ATTACKS 1). Moving the supply unit together with a combat unit
 * that stands on its square keeps it covered all the way; these moves
 * are offered beside the supply unit's own (ak_ai.c, best_move). */
#include "ak_ai_internal.h"
#include "ak_query.h"

#define ESCORTS_MAX 2       /* combat units tried as escort of one supply unit */

int ak_ai_escorted_moves(const struct ak_state *s, int sup, struct ak_action *out, int max)
{
    if (ak_def(sup)->type != AK_TYPE_SUPPLY || !ak_ai_may_move(s, sup))
        return 0;
    int n = 0, escorts = 0;
    for (int c = 0; c < s->units && escorts < ESCORTS_MAX && n < max; c++)
        if (ak_unit_is_combat(ak_def(c)) && ak_ai_may_move(s, c) && s->unit[c].hex == s->unit[sup].hex) {
            uint8_t stack[2] = {(uint8_t)c, (uint8_t)sup};
            n += ak_untried_moves(s, stack, 2, out + n, max - n);
            escorts++;
        }
    return n;
}
