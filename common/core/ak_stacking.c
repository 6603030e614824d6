/* ak_stacking: the stacking limit of a square (ak_stacking.h). */
#include "ak_stacking.h"

#include <string.h>

bool ak_unit_is_italian_division(int u)
{
    /* Every Italian counter of the game is a division (units.txt). */
    return ak_unit_is_combat(ak_def(u)) && strcmp(ak_def(u)->nationality, "italian") == 0;
}

static bool among(const uint8_t *units, int n, int u)
{
    for (int i = 0; i < n; i++)
        if (units[i] == u)
            return true;
    return false;
}

int ak_stack_count(const struct ak_state *s, ak_hex h, int side, const uint8_t *units, int n)
{
    int count = 0;
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == side && ak_unit_is_combat(ak_def(u)) &&
            ((ak_on_board(s, u) && s->unit[u].hex == h) || among(units, n, u)))
            count++;
    return count;
}

int ak_stack_limit(const struct ak_ruleset *r, const struct ak_state *s, ak_hex h, int side,
                   const uint8_t *units, int n)
{
    if (r->italian_stack_limit <= 0)
        return r->stack_limit;
    for (int u = 0; u < s->units; u++)
        if (ak_def(u)->side == side && ak_unit_is_italian_division(u) &&
            ((ak_on_board(s, u) && s->unit[u].hex == h) || among(units, n, u)))
            return r->italian_stack_limit;
    return r->stack_limit;
}

bool ak_stack_room(const struct ak_ruleset *r, const struct ak_state *s, ak_hex h, int side,
                   const uint8_t *units, int n, struct ak_reject *rej)
{
    bool adds_combat = n == 0;  /* n == 0: the square as it stands */
    for (int i = 0; i < n; i++)
        adds_combat |= ak_unit_is_combat(ak_def(units[i]));
    if (!adds_combat)           /* supply units and Rommel stack freely */
        return true;
    int count = ak_stack_count(s, h, side, units, n);
    int limit = ak_stack_limit(r, s, h, side, units, n);
    if (count <= limit)
        return true;
    if (!rej)
        return false;
    char a[8];
    if (limit < r->stack_limit)
        return ak_reject(rej, "UPD-STACK", "%s would hold %d combat units; with an Italian division among them the limit is %d",
                         ak_hex_format(h, a), count, limit);
    return ak_reject(rej, "STACK-1", "%s would hold %d combat units; the limit is %d", ak_hex_format(h, a), count,
                     limit);
}
