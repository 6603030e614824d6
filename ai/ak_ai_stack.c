/* ak_ai_stack: crowded squares (issue 31). The rules let a player stack
 * past the limit during his movement, placements and the opening's W6 of
 * eight included, and refuse the end of the movement until he has thinned
 * the stack (MORE THAN ONE UNIT PER SQUARE 1; the Updated ruleset's two
 * with an Italian division). A player whose own choices ran out (a move
 * cap met, arrivals placed on a full base) must still thin it: these are
 * the units that may; and a placement that would fill a stack past it is
 * one to leave for later. Shared by the AI's levels (ak_ai.c) and the
 * playouts (ak_ai_rollout.c). */
#include <string.h>

#include "ak_ai_internal.h"

int ak_ai_stack_limit(const struct ak_state *s)
{
    const struct ak_ruleset *r = ak_ruleset_get(s->ruleset);
    return r->italian_stack_limit && r->italian_stack_limit < r->stack_limit ? r->italian_stack_limit
                                                                              : r->stack_limit;
}

void ak_ai_count_own(const struct ak_state *s, uint8_t *count)
{
    memset(count, 0, AK_HEX_COUNT);
    for (int v = 0; v < s->units; v++)
        if (ak_def(v)->side == s->side && ak_on_board(s, v) && ak_unit_is_combat(ak_def(v)))
            count[s->unit[v].hex]++;
}

bool ak_ai_may_move(const struct ak_state *s, int u)
{
    const struct ak_unit *x = &s->unit[u];
    return ak_def(u)->side == s->side && x->where == AK_AT_BOARD &&
           !(x->flags & (AK_U_MOVED | AK_U_HALTED | AK_U_NO_MOVE));
}

int ak_ai_crowded_units(const struct ak_state *s, uint8_t *out, int max)
{
    static uint8_t count[AK_HEX_COUNT];
    ak_ai_count_own(s, count);
    int limit = ak_ai_stack_limit(s), n = 0;
    for (int u = 0; u < s->units && n < max; u++)
        if (ak_ai_may_move(s, u) && ak_unit_is_combat(ak_def(u)) && count[s->unit[u].hex] > limit)
            out[n++] = (uint8_t)u;
    return n;
}

bool ak_ai_crowds(const struct ak_state *s, const struct ak_action *a)
{
    if (a->kind != AK_ACT_PLACE || a->nunits < 1 || !ak_unit_is_combat(ak_def(a->units[0])) || a->hex == AK_HEX_NONE)
        return false;
    int n = 0;
    for (int v = 0; v < s->units; v++)
        n += ak_def(v)->side == s->side && ak_on_board(s, v) && ak_unit_is_combat(ak_def(v)) && s->unit[v].hex == a->hex;
    return n >= ak_ai_stack_limit(s);
}
