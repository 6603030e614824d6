/* ak_classic_list: the listers only the 1964 rules need (their table's
 * list[] entries beside the shared ones of ak_lister.c): BACK 2's
 * retreats, every two-square route the winner may pick (ak_retreat_routes). */
#include "ak_classic.h"
#include "ak_combat.h"
#include "ak_lister.h"

void ak_classic_list_retreats(struct ak_lister *l)
{
    const struct ak_state *s = l->s;
    struct ak_route routes[AK_RETREAT_ROUTES_MAX];
    for (int u = 0; u < s->units; u++) {
        if (!ak_on_board(s, u) || !(s->unit[u].flags & AK_U_MUST_RETREAT))
            continue;
        int n = ak_retreat_routes(s, u, routes);
        for (int i = 0; i < n; i++) {
            struct ak_action a = ak_lister_blank(s, AK_ACT_RETREAT);
            a.nunits = 1;
            a.units[0] = (uint8_t)u;
            a.npath = 2;
            a.path[0] = routes[i].step[0];
            a.path[1] = routes[i].step[1];
            ak_lister_offer(l, &a);
        }
    }
}
