/* ak_computer: computer players (issue 31). An account the operator marks
 * as played by a program (akd --computer-add USER, or the admin op
 * computer) is shown as a computer in every game list, on the ladder and
 * on the game page. A player asks for a game against the computer with
 * `new` and "computer": LEVEL (1 beginner, 2 standard, 3 strong; true for
 * 2): akd makes it a challenge to one of the computer accounts (the one
 * named by "opponent", else the least busy one that is connected, else
 * the oldest) and keeps the level with the game, where the program
 * (akbot) reads it. akd spends nothing more on such a game than on any
 * challenge: the program plays it like any client, under the same
 * budgets, and the creator's games_per_user bounds how many he can ask.
 * Its cost to akd: the computer accounts read by an index (at most
 * AK_COMPUTERS_MAX), one pass over the connections, and the unfinished
 * games of the connected computers; a small write's budget, charged
 * first, bounds how often one account makes akd do it. The list of
 * computers is kept in memory so that marking a game's seats (every game
 * loaded, every tournament pairing) looks nothing up.
 */
#include <stdio.h>
#include <string.h>

#include "ak_server.h"

/* A computer account's unfinished games. Its seat index holds every game
 * it ever had, so this grows with its history: it runs only for the
 * connected computers (one or two), once per game asked of them. */
static int unfinished(int64_t user)
{
    struct ak_game *const *games;
    int n = 0, of = ak_seats_of(user, &games);
    for (int i = 0; i < of; i++)
        n += ak_game_brief_of(games[i]).phase != AK_PHASE_OVER && strcmp(games[i]->meta.status, "active") == 0;
    return n;
}

/* The computer account to challenge (never the caller): a connected one
 * with the fewest unfinished games, else the oldest; 0 when there is none.
 * One pass over the connections marks which are connected. */
static int64_t pick(struct ak_server *srv, int64_t caller)
{
    if (!ak_computers_load(srv))
        return 0;
    bool on[AK_COMPUTERS_MAX] = {false};
    for (const struct ak_conn *k = srv->conns; k; k = k->next)
        for (int i = 0; k->user && i < srv->ncomputers; i++)
            on[i] |= srv->computers[i] == k->user;
    int64_t best = 0;
    int best_load = 0;
    for (int i = 0; i < srv->ncomputers; i++) {
        if (srv->computers[i] == caller || srv->computer_banned[i] || (best && !on[i]))
            continue;
        int load = on[i] ? unfinished(srv->computers[i]) : 0;
        if (!best || (on[i] && load < best_load)) {
            best = srv->computers[i];
            best_load = on[i] ? load : 1 << 30;
        }
    }
    return best;
}

bool ak_computer_arg(struct ak_conn *c, const json_t *id, const json_t *msg, struct ak_store_game_meta *m)
{
    const json_t *level = json_object_get(msg, "computer");
    if (!level || json_is_false(level) || json_is_null(level))
        return true;
    if (!json_is_true(level) && (!json_is_integer(level) || json_integer_value(level) < 1 ||
                                 json_integer_value(level) > AK_COMPUTER_LEVELS)) {
        ak_conn_reply_error(c, id, "bad_request", "computer is a level from 1 (beginner) to %d (strong), or true",
                            AK_COMPUTER_LEVELS);
        return false;
    }
    m->computer_level = json_is_true(level) ? AK_COMPUTER_DEFAULT_LEVEL : (int)json_integer_value(level);
    if (m->challenge) {     /* "opponent" named one: it must be a computer */
        bool computer = false;
        if (ak_store_user_computer(c->srv->store, m->challenge, &computer) != AK_STORE_OK || !computer) {
            ak_conn_reply_error(c, id, "bad_request", "%s is not a computer player",
                                json_string_value(json_object_get(msg, "opponent")));
            return false;
        }
        if (!ak_is_computer(c->srv, m->challenge) && !ak_computers_load(c->srv))
            ak_log(AK_LOG_ERROR, "the computer accounts could not be read again");   /* marked since: shown */
        return true;
    }
    m->challenge = pick(c->srv, c->user);
    if (!m->challenge) {
        ak_conn_reply_error(c, id, "no_computer", "this server has no computer player (its operator runs akbot "
                            "with an account marked by akd --computer-add: docs/ai.md)");
        return false;
    }
    return true;
}

void ak_computer_refresh(struct ak_server *srv, int64_t user)
{
    if (!ak_computers_load(srv))
        ak_log(AK_LOG_ERROR, "the computer accounts could not be read again");
    struct ak_game *const *games;
    int of = ak_seats_of(user, &games);
    for (int i = 0; i < of; i++)
        ak_game_mark_computers(srv, games[i]);
}

int ak_computer_cli(struct ak_store *st, const char *user_name, bool computer)
{
    int64_t user = 0;
    char pwhash[256], name[64] = "";
    if (ak_store_user_find(st, user_name, &user, pwhash, sizeof pwhash) != AK_STORE_OK) {
        fprintf(stderr, "akd: there is no account %s (register it first: akbot --register)\n", user_name);
        return 1;
    }
    ak_store_user_name(st, user, name, sizeof name);
    if (ak_store_begin(st) != AK_STORE_OK || ak_store_user_set_computer_rows(st, user, computer) != AK_STORE_OK ||
        ak_store_audit(st, ak_now(), "(operator)", computer ? "computer_add" : "computer_remove", name, "") !=
            AK_STORE_OK ||
        ak_store_commit(st) != AK_STORE_OK) {
        ak_store_rollback(st);
        fprintf(stderr, "akd: the database could not store it; nothing changed\n");
        return 1;
    }
    printf("%s %s a computer player\n", name, computer ? "is now" : "is no longer");
    return 0;
}
