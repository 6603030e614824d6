/* ak_store_tournament: tournaments as stored (migration 10): the
 * tournament, its players, and the games that are its pairings. The
 * results are the games' own; server/ak_tournament.c computes standings
 * from them. */
#include <stdio.h>
#include <string.h>

#include "ak_store.h"
#include "ak_store_internal.h"

#define COLUMNS "id, name, kind, ruleset, both_sides, rounds, round, starts, status, tc_seconds, tc_per, " \
                "tc_expiry, rated, vacation, created_by, crt_digest, bid"

static void text(char *dst, size_t cap, sqlite3_stmt *q, int col)
{
    const unsigned char *t = sqlite3_column_text(q, col);
    snprintf(dst, cap, "%s", t ? (const char *)t : "");
}

static void read_row(sqlite3_stmt *q, struct ak_store_tournament *t)
{
    t->id = sqlite3_column_int64(q, 0);
    text(t->name, sizeof t->name, q, 1);
    text(t->kind, sizeof t->kind, q, 2);
    text(t->ruleset, sizeof t->ruleset, q, 3);
    t->both_sides = sqlite3_column_int(q, 4);
    t->rounds = sqlite3_column_int(q, 5);
    t->round = sqlite3_column_int(q, 6);
    t->starts = sqlite3_column_int64(q, 7);
    text(t->status, sizeof t->status, q, 8);
    t->tc_seconds = sqlite3_column_int(q, 9);
    text(t->tc_per, sizeof t->tc_per, q, 10);
    text(t->tc_expiry, sizeof t->tc_expiry, q, 11);
    t->rated = sqlite3_column_int(q, 12);
    t->vacation = sqlite3_column_int(q, 13);
    text(t->created_by, sizeof t->created_by, q, 14);
    text(t->crt_digest, sizeof t->crt_digest, q, 15);
    t->bid = sqlite3_column_int(q, 16);
}

int ak_store_tournament_create(struct ak_store *st, struct ak_store_tournament *t)
{
    sqlite3_stmt *q = ak_store_prep(st, "INSERT INTO tournaments(name, kind, ruleset, both_sides, rounds, starts, "
                                        "tc_seconds, tc_per, tc_expiry, rated, vacation, created_by, crt_digest, bid) "
                                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_text(q, 1, t->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, t->kind, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, t->ruleset, -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 4, t->both_sides);
    sqlite3_bind_int(q, 5, t->rounds);
    sqlite3_bind_int64(q, 6, t->starts);
    sqlite3_bind_int(q, 7, t->tc_seconds);
    sqlite3_bind_text(q, 8, t->tc_per, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 9, t->tc_expiry, -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 10, t->rated);
    sqlite3_bind_int(q, 11, t->vacation);
    sqlite3_bind_text(q, 12, t->created_by, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 13, t->crt_digest, -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 14, t->bid);
    int rc = sqlite3_step(q);
    ak_store_done(st, q);
    if (rc == SQLITE_CONSTRAINT)
        return AK_STORE_EXISTS;
    if (rc != SQLITE_DONE)
        return AK_STORE_ERROR;
    t->id = sqlite3_last_insert_rowid(st->db);
    snprintf(t->status, sizeof t->status, "open");
    t->round = 0;
    return AK_STORE_OK;
}

int ak_store_tournament_get(struct ak_store *st, int64_t id, struct ak_store_tournament *t)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT " COLUMNS " FROM tournaments WHERE id = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, id);
    int rc = sqlite3_step(q), out = rc == SQLITE_ROW ? AK_STORE_OK : rc == SQLITE_DONE ? AK_STORE_NOT_FOUND
                                                                                       : AK_STORE_ERROR;
    if (rc == SQLITE_ROW)
        read_row(q, t);
    ak_store_done(st, q);
    return out;
}

int ak_store_tournament_list(struct ak_store *st, struct ak_store_tournament *out, int max)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT " COLUMNS " FROM tournaments ORDER BY id DESC LIMIT ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int(q, 1, max);
    int n = 0, rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW && n < max)
        read_row(q, &out[n++]);
    ak_store_done(st, q);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? n : AK_STORE_ERROR;
}

int ak_store_tournament_set_round(struct ak_store *st, int64_t id, const char *status, int round, int rounds)
{
    sqlite3_stmt *q = ak_store_prep(st, "UPDATE tournaments SET status = ?, round = ?, rounds = ? WHERE id = ?");
    if (q) {
        sqlite3_bind_text(q, 1, status, -1, SQLITE_STATIC);
        sqlite3_bind_int(q, 2, round);
        sqlite3_bind_int(q, 3, rounds);
        sqlite3_bind_int64(q, 4, id);
    }
    return ak_store_run(st, q);
}

int ak_store_tournament_join(struct ak_store *st, int64_t id, int64_t user, int64_t now)
{
    sqlite3_stmt *q = ak_store_prep(st, "INSERT INTO tournament_players(tournament_id, user_id, joined) VALUES (?, ?, ?)");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_int64(q, 2, user);
    sqlite3_bind_int64(q, 3, now);
    int rc = sqlite3_step(q);
    ak_store_done(st, q);
    return rc == SQLITE_DONE ? AK_STORE_OK : rc == SQLITE_CONSTRAINT ? AK_STORE_EXISTS : AK_STORE_ERROR;
}

int ak_store_tournament_leave(struct ak_store *st, int64_t id, int64_t user)
{
    sqlite3_stmt *q = ak_store_prep(st, "DELETE FROM tournament_players WHERE tournament_id = ?1 AND user_id = ?2 "
                                        "AND (SELECT status FROM tournaments WHERE id = ?1) = 'open'");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_int64(q, 2, user);
    return ak_store_run_changed(st, q);
}

int ak_store_tournament_withdraw(struct ak_store *st, int64_t id, int64_t user)
{
    sqlite3_stmt *q = ak_store_prep(st, "UPDATE tournament_players SET withdrawn = "
                                        "(SELECT max(round, 1) FROM tournaments WHERE id = ?1) WHERE tournament_id = ?1 "
                                        "AND user_id = ?2 AND withdrawn = 0 "
                                        "AND (SELECT status FROM tournaments WHERE id = ?1) = 'running'");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_int64(q, 2, user);
    return ak_store_run_changed(st, q);
}

int ak_store_tournament_withdrawn_all(struct ak_store *st, int64_t after_tournament, int64_t after_user,
                                      int64_t *tournament, int64_t *user, int max)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT p.tournament_id, p.user_id FROM tournament_players p "
                                        "JOIN tournaments t ON t.id = p.tournament_id "
                                        "WHERE p.withdrawn > 0 AND t.status = 'running' "
                                        "AND (p.tournament_id > ?1 OR (p.tournament_id = ?1 AND p.user_id > ?2)) "
                                        "ORDER BY 1, 2 LIMIT ?3");
    if (!q)
        return -1;
    sqlite3_bind_int64(q, 1, after_tournament);
    sqlite3_bind_int64(q, 2, after_user);
    sqlite3_bind_int(q, 3, max);
    int n = 0, rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW && n < max) {
        tournament[n] = sqlite3_column_int64(q, 0);
        user[n++] = sqlite3_column_int64(q, 1);
    }
    ak_store_done(st, q);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? n : -1;
}

int ak_store_tournament_withdrawn(struct ak_store *st, int64_t id, int64_t user, int *withdrawn)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT withdrawn FROM tournament_players WHERE tournament_id = ? AND user_id = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_int64(q, 2, user);
    int rc = sqlite3_step(q);
    *withdrawn = rc == SQLITE_ROW ? sqlite3_column_int(q, 0) : 0;
    ak_store_done(st, q);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? AK_STORE_OK : AK_STORE_ERROR;
}

int ak_store_tournament_edit(struct ak_store *st, const struct ak_store_tournament *t)
{
    sqlite3_stmt *q = ak_store_prep(st, "UPDATE tournaments SET name = ?2, starts = ?3, rounds = ?4, tc_seconds = ?5, "
                                        "tc_per = ?6, tc_expiry = ?7 WHERE id = ?1 AND status = 'open'");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, t->id);
    sqlite3_bind_text(q, 2, t->name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, t->starts);
    sqlite3_bind_int(q, 4, t->rounds);
    sqlite3_bind_int(q, 5, t->tc_seconds);
    sqlite3_bind_text(q, 6, t->tc_per, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 7, t->tc_expiry, -1, SQLITE_STATIC);
    return ak_store_run_changed(st, q);     /* EXISTS: the name is taken */
}

int ak_store_tournament_cancel(struct ak_store *st, int64_t id, const char *renamed)
{
    sqlite3_stmt *q = ak_store_prep(st, "UPDATE tournaments SET status = 'cancelled', name = ?2 "
                                        "WHERE id = ?1 AND status IN ('open', 'running')");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_text(q, 2, renamed, -1, SQLITE_STATIC);
    return ak_store_run_changed(st, q);     /* EXISTS: the new name is taken, nothing done */
}

int ak_store_tournament_players(struct ak_store *st, int64_t id, int64_t *users, int max)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT user_id FROM tournament_players WHERE tournament_id = ? "
                                        "ORDER BY joined, user_id");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, id);
    int n = 0, rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW && n < max)
        users[n++] = sqlite3_column_int64(q, 0);
    ak_store_done(st, q);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? n : AK_STORE_ERROR;
}

int ak_store_tournament_add_game(struct ak_store *st, int64_t id, int round, int64_t game)
{
    sqlite3_stmt *q = ak_store_prep(st, "INSERT INTO tournament_games(game_id, tournament_id, round) VALUES (?, ?, ?)");
    if (q) {
        sqlite3_bind_int64(q, 1, game);
        sqlite3_bind_int64(q, 2, id);
        sqlite3_bind_int(q, 3, round);
    }
    return ak_store_run(st, q);
}

int ak_store_tournament_games_each(struct ak_store *st, void (*cb)(void *ud, int64_t game, int64_t id, int round),
                                   void *ud)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT game_id, tournament_id, round FROM tournament_games");
    if (!q)
        return AK_STORE_ERROR;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW)
        cb(ud, sqlite3_column_int64(q, 0), sqlite3_column_int64(q, 1), sqlite3_column_int(q, 2));
    ak_store_done(st, q);
    return rc == SQLITE_DONE ? AK_STORE_OK : AK_STORE_ERROR;
}

int ak_store_tournaments_due(struct ak_store *st, int64_t now, int64_t *ids, int max)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT id FROM tournaments WHERE status = 'open' AND starts <= ? ORDER BY id");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, now);
    int n = 0, rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW && n < max)
        ids[n++] = sqlite3_column_int64(q, 0);
    ak_store_done(st, q);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? n : AK_STORE_ERROR;
}
