/* ak_substitute: exchanging units for substitute counters and back. */
#include "ak_substitute.h"

/* Armor and armored infantry are one family, infantry and recce another. */
static int family(int u)
{
    int t = ak_def(u)->type;
    return t == AK_TYPE_ARMOR || t == AK_TYPE_ARMORED_INFANTRY ? 0 : 1;
}

static bool check_out(const struct ak_state *s, const struct ak_action *a, ak_hex *where,
                      int *attack, int *nout, bool *subs_out, struct ak_reject *rej)
{
    char h[8];
    *attack = *nout = 0;
    *where = AK_HEX_NONE;
    for (int i = 0; i < a->nunits; i++) {
        int u = a->units[i];
        const struct ak_unit *x = &s->unit[u];
        if (x->where != AK_AT_BOARD)
            continue;
        if (ak_def(u)->side != AK_ALLIED || !ak_unit_is_combat(ak_def(u)))
            return ak_reject(rej, "SUBSTITUTE", "%s is not an Allied combat unit", ak_def(u)->shortname);
        if (*where == AK_HEX_NONE) {
            *where = x->hex;
            *subs_out = ak_def(u)->substitute;
        }
        if (x->hex != *where)
            return ak_reject(rej, "SUBSTITUTE", "units exchanged must first be moved to one square; %s is at %s",
                             ak_def(u)->shortname, ak_hex_format(x->hex, h));
        if (ak_def(u)->substitute != *subs_out)
            return ak_reject(rej, "SUBSTITUTE", "exchange units for substitute counters or counters for units, not both at once");
        *attack += ak_def(u)->attack;
        (*nout)++;
    }
    if (*nout == 0)
        return ak_reject(rej, "SUBSTITUTE", "name the units on the board to exchange");
    return true;
}

bool ak_substitute(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                   struct ak_events *ev, struct ak_reject *rej)
{
    ak_hex where;
    int out_attack, in_attack = 0, nout, fam = family(a->units[0]);
    bool subs_out = false;
    if (!check_out(s, a, &where, &out_attack, &nout, &subs_out, rej))
        return false;
    for (int i = 0; i < a->nunits; i++) {
        int u = a->units[i];
        if (family(u) != fam)
            return ak_reject(rej, "SUBSTITUTE", "armor goes for armor and armored infantry, infantry for infantry and recce; %s does not match",
                             ak_def(u)->shortname);
        if (s->unit[u].where == AK_AT_BOARD)
            continue;
        bool ok = subs_out ? s->unit[u].where == AK_AT_WITHDRAWN
                           : ak_def(u)->substitute && s->unit[u].where == AK_AT_POOL;
        if (!ok)
            return ak_reject(rej, "SUBSTITUTE", subs_out ? "%s was not withdrawn for a substitute counter"
                                                         : "%s is not a substitute counter off the board",
                             ak_def(u)->shortname);
        in_attack += ak_def(u)->attack;
    }
    if (in_attack != out_attack)
        return ak_reject(rej, "SUBSTITUTE", "%d attack factors go off and %d come on; they must be equal",
                         out_attack, in_attack);
    int after = ak_combat_units_at(s, where, AK_ALLIED) - nout + (a->nunits - nout);
    if (after > r->stack_limit)
        return ak_reject(rej, "STACK-1", "the exchange would leave %d combat units on one square", after);
    /* Substitutes for units moved or placed this turn count as placed
     * this turn too (SUSTAIN ATTACKS 2 asks their supply at the end). */
    uint8_t placed = 0;
    for (int i = 0; i < a->nunits; i++)
        if (s->unit[a->units[i]].where == AK_AT_BOARD && (s->unit[a->units[i]].flags & (AK_U_MOVED | AK_U_ARRIVED)))
            placed = AK_U_ARRIVED;
    for (int i = 0; i < a->nunits; i++) {
        struct ak_unit *x = &s->unit[a->units[i]];
        if (x->where == AK_AT_BOARD) {
            ak_event_add(ev, AK_EV_SUBSTITUTED, AK_ALLIED, a->units[i], AK_UNIT_NONE, where,
                         AK_HEX_NONE, 0, 0, 0);
            x->where = subs_out ? AK_AT_POOL : AK_AT_WITHDRAWN;
            x->hex = x->start_hex = AK_HEX_NONE;
            x->flags = 0;
        } else {
            ak_event_add(ev, AK_EV_SUBSTITUTED, AK_ALLIED, a->units[i], AK_UNIT_NONE, AK_HEX_NONE,
                         where, 1, 0, 0);
            *x = (struct ak_unit){0};
            x->where = AK_AT_BOARD;
            x->hex = x->start_hex = where;
            x->flags = (uint8_t)(AK_U_NO_MOVE | placed);
        }
    }
    return true;
}
