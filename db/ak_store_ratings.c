/* ak_store_ratings: the ratings tables (migration 7): a Glicko-2 rating
 * per player and ruleset, and every rated game's change, which is the
 * rating history `akc player` shows. Writes happen inside the transaction
 * that stores the action ending the game (ak_ladder.c). */
#include <stdio.h>
#include <string.h>

#include "ak_store.h"
#include "ak_store_internal.h"

static void copy_text(char *out, size_t cap, sqlite3_stmt *q, int col)
{
    const unsigned char *t = sqlite3_column_text(q, col);
    snprintf(out, cap, "%s", t ? (const char *)t : "");
}

int ak_store_glicko_get(struct ak_store *st, int64_t user, const char *ruleset, struct ak_store_glicko *r)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT rating, rd, volatility, games, last_played FROM ratings "
                                        "WHERE user_id = ? AND ruleset = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, user);
    sqlite3_bind_text(q, 2, ruleset, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q), out = AK_STORE_NOT_FOUND;
    if (rc == SQLITE_ROW) {
        r->rating = sqlite3_column_double(q, 0);
        r->rd = sqlite3_column_double(q, 1);
        r->volatility = sqlite3_column_double(q, 2);
        r->games = sqlite3_column_int(q, 3);
        r->last_played = sqlite3_column_int64(q, 4);
        out = AK_STORE_OK;
    } else if (rc != SQLITE_DONE) {
        out = AK_STORE_ERROR;
    }
    ak_store_done(st, q);
    return out;
}

int ak_store_rated_mark(struct ak_store *st, int64_t game)
{
    sqlite3_stmt *q = ak_store_prep(st, "UPDATE games SET rated_done = 1 WHERE id = ? AND rated_done = 0");
    if (q)
        sqlite3_bind_int64(q, 1, game);
    int rc = ak_store_run(st, q);
    if (rc == AK_STORE_OK && sqlite3_changes(st->db) != 1)
        rc = AK_STORE_EXISTS;
    return rc;
}

int ak_store_glicko_put(struct ak_store *st, int64_t user, const char *ruleset, const struct ak_store_glicko *r,
                        int64_t game, const char *side, double score, double before, int64_t now)
{
    sqlite3_stmt *q = ak_store_prep(st, "INSERT INTO ratings(user_id, ruleset, rating, rd, volatility, games, last_played) "
                                        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(user_id, ruleset) DO UPDATE SET "
                                        "rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility, "
                                        "games = excluded.games, last_played = excluded.last_played");
    if (q) {
        sqlite3_bind_int64(q, 1, user);
        sqlite3_bind_text(q, 2, ruleset, -1, SQLITE_STATIC);
        sqlite3_bind_double(q, 3, r->rating);
        sqlite3_bind_double(q, 4, r->rd);
        sqlite3_bind_double(q, 5, r->volatility);
        sqlite3_bind_int(q, 6, r->games);
        sqlite3_bind_int64(q, 7, r->last_played);
    }
    int rc = ak_store_run(st, q);
    if (rc != AK_STORE_OK)
        return rc;
    q = ak_store_prep(st, "INSERT INTO rating_changes(game_id, user_id, ruleset, side, score, rating_before, "
                          "rating_after, rd_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (q) {
        sqlite3_bind_int64(q, 1, game);
        sqlite3_bind_int64(q, 2, user);
        sqlite3_bind_text(q, 3, ruleset, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 4, side, -1, SQLITE_STATIC);
        sqlite3_bind_double(q, 5, score);
        sqlite3_bind_double(q, 6, before);
        sqlite3_bind_double(q, 7, r->rating);
        sqlite3_bind_double(q, 8, r->rd);
        sqlite3_bind_int64(q, 9, now);
    }
    return ak_store_run(st, q);
}

int ak_store_ladder_page(struct ak_store *st, const char *ruleset, int offset, int limit,
                         struct ak_store_ladder_row *out, int *total)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT count(*) FROM ratings WHERE ruleset = ? AND games > 0");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_text(q, 1, ruleset, -1, SQLITE_STATIC);
    *total = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int(q, 0) : 0;
    ak_store_done(st, q);
    q = ak_store_prep(st, "SELECT u.name, r.rating, r.rd, r.games, u.computer FROM ratings r JOIN users u ON u.id = r.user_id "
                          "WHERE r.ruleset = ? AND r.games > 0 ORDER BY r.rating DESC, u.name LIMIT ? OFFSET ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_text(q, 1, ruleset, -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 2, limit);
    sqlite3_bind_int(q, 3, offset);
    int n = 0;
    while (n < limit && sqlite3_step(q) == SQLITE_ROW) {
        copy_text(out[n].name, sizeof out[n].name, q, 0);
        out[n].rating = sqlite3_column_double(q, 1);
        out[n].rd = sqlite3_column_double(q, 2);
        out[n].games = sqlite3_column_int(q, 3);
        out[n].computer = sqlite3_column_int(q, 4) != 0;
        n++;
    }
    ak_store_done(st, q);
    return n;
}

int ak_store_player_ratings(struct ak_store *st, int64_t user, struct ak_store_player_rating *out, int max)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT ruleset, rating, rd, games FROM ratings WHERE user_id = ? "
                                        "ORDER BY ruleset");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, user);
    int n = 0;
    while (n < max && sqlite3_step(q) == SQLITE_ROW) {
        copy_text(out[n].ruleset, sizeof out[n].ruleset, q, 0);
        out[n].rating = sqlite3_column_double(q, 1);
        out[n].rd = sqlite3_column_double(q, 2);
        out[n].games = sqlite3_column_int(q, 3);
        n++;
    }
    ak_store_done(st, q);
    return n;
}

int ak_store_rating_changes(struct ak_store *st, int64_t user, struct ak_store_rating_change *out, int max)
{
    sqlite3_stmt *q = ak_store_prep(st,
        "SELECT c.game_id, c.at, c.ruleset, c.side, c.score, c.rating_before, c.rating_after, c.rd_after, "
        "  (SELECT u.name FROM users u JOIN games g ON g.id = c.game_id "
        "   WHERE u.id = CASE WHEN c.side = 'axis' THEN g.allied_user ELSE g.axis_user END), "
        "  coalesce(g.bid = 2, 0), coalesce(g.bid_supply, 0), coalesce(g.bid_side, 0) "
        "FROM rating_changes c LEFT JOIN games g ON g.id = c.game_id "
        "WHERE c.user_id = ? ORDER BY c.at DESC, c.game_id DESC LIMIT ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, user);
    sqlite3_bind_int(q, 2, max);
    int n = 0;
    while (n < max && sqlite3_step(q) == SQLITE_ROW) {
        out[n].game = sqlite3_column_int64(q, 0);
        out[n].at = sqlite3_column_int64(q, 1);
        copy_text(out[n].ruleset, sizeof out[n].ruleset, q, 2);
        copy_text(out[n].side, sizeof out[n].side, q, 3);
        out[n].score = sqlite3_column_double(q, 4);
        out[n].before = sqlite3_column_double(q, 5);
        out[n].after = sqlite3_column_double(q, 6);
        out[n].rd = sqlite3_column_double(q, 7);
        copy_text(out[n].opponent, sizeof out[n].opponent, q, 8);
        out[n].bid = sqlite3_column_int(q, 9);
        out[n].bid_supply = sqlite3_column_int(q, 10);
        out[n].bid_side = sqlite3_column_int(q, 11);
        n++;
    }
    ak_store_done(st, q);
    return n;
}
