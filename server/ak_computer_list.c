/* ak_computer_list: the computer accounts akd knows of, kept in memory
 * (srv->computers) so that marking a game's seats as computers
 * (ak_game_mark_computers, for every game loaded and every tournament
 * pairing) looks nothing up. Read at start, again at each game asked of
 * the computer and after the admin op (ak_computer.c, above this file,
 * and ak_games.c use it). */
#include "ak_server.h"

bool ak_computers_load(struct ak_server *srv)
{
    int n = 0;
    if (ak_store_computers(srv->store, srv->computers, srv->computer_banned, AK_COMPUTERS_MAX, &n) != AK_STORE_OK)
        return false;
    srv->ncomputers = n;
    return true;
}

bool ak_is_computer(const struct ak_server *srv, int64_t user)
{
    for (int i = 0; i < srv->ncomputers; i++)
        if (srv->computers[i] == user)
            return true;
    return false;
}
