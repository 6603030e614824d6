/* ak_store_personal: what an account owner may take away or have erased
 * (issue 33): the rows behind `account export` and `account delete`
 * (server/ak_personal.c says what is kept and why), and the end of a
 * finished game kept no longer (games_keep_days, server/ak_retention.c). */
#include <stdio.h>
#include <string.h>

#include "ak_store.h"
#include "ak_store_internal.h"

int ak_store_user_created(struct ak_store *st, int64_t user, int64_t *created)
{
    *created = 0;
    return ak_store_int_of(st, "SELECT created FROM users WHERE id = ?", user, created);
}

int ak_store_user_games_each(struct ak_store *st, int64_t user, int limit, int64_t *total,
                             void (*cb)(void *ud, int64_t game, const char *ruleset, int side, const char *opponent,
                                        int64_t created, const char *status),
                             void *ud)
{
    if (ak_store_int_of(st, "SELECT count(*) FROM games WHERE axis_user = ?1 OR allied_user = ?1", user, total) !=
        AK_STORE_OK)
        return AK_STORE_ERROR;
    sqlite3_stmt *q = ak_store_prep(st, "SELECT games.id, games.ruleset, games.axis_user = ?1, "
                                        "coalesce(other.name, ''), games.created, games.status FROM games "
                                        "LEFT JOIN users other ON other.id = CASE WHEN games.axis_user = ?1 "
                                        "THEN games.allied_user ELSE games.axis_user END "
                                        "WHERE games.axis_user = ?1 OR games.allied_user = ?1 "
                                        "ORDER BY games.id DESC LIMIT ?2");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, user);
    sqlite3_bind_int(q, 2, limit);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW)
        cb(ud, sqlite3_column_int64(q, 0), (const char *)sqlite3_column_text(q, 1), sqlite3_column_int(q, 2) ? 0 : 1,
           (const char *)sqlite3_column_text(q, 3), sqlite3_column_int64(q, 4), (const char *)sqlite3_column_text(q, 5));
    ak_store_done(st, q);
    return rc == SQLITE_DONE ? AK_STORE_OK : AK_STORE_ERROR;
}

int ak_store_user_chat_each(struct ak_store *st, int64_t user, int limit, int64_t *total,
                            void (*cb)(void *ud, int64_t id, int64_t game, int64_t at, const char *channel,
                                       const char *text, bool removed),
                            void *ud)
{
    if (ak_store_int_of(st, "SELECT count(*) FROM chat WHERE user_id = ?1", user, total) != AK_STORE_OK)
        return AK_STORE_ERROR;
    sqlite3_stmt *q = ak_store_prep(st, "SELECT id, game_id, at, channel, text, removed FROM chat WHERE user_id = ?1 "
                                        "ORDER BY id DESC LIMIT ?2");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, user);
    sqlite3_bind_int(q, 2, limit);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW)
        cb(ud, sqlite3_column_int64(q, 0), sqlite3_column_int64(q, 1), sqlite3_column_int64(q, 2),
           (const char *)sqlite3_column_text(q, 3), (const char *)sqlite3_column_text(q, 4), sqlite3_column_int(q, 5) != 0);
    ak_store_done(st, q);
    return rc == SQLITE_DONE ? AK_STORE_OK : AK_STORE_ERROR;
}

int ak_store_user_erase(struct ak_store *st, int64_t user, const char *placeholder, int64_t now)
{
    /* A name in the way (from before names were kept for deleted
     * accounts): EXISTS, nothing done, never a failed commit for all. */
    int64_t other;
    char hash[8];
    int found = ak_store_user_find(st, placeholder, &other, hash, sizeof hash);
    if (found == AK_STORE_OK && other != user)
        return AK_STORE_EXISTS;
    if (found != AK_STORE_OK && found != AK_STORE_NOT_FOUND)
        return AK_STORE_ERROR;
    /* banned too: no login, no challenge, left out of pairings */
    static const char *const steps[] = {
        "UPDATE users SET name = ?2, pwhash = '!', email = '', email_verified = 0, email_token_hash = '', "
        "  notify_mode = 'each', chat_muted = 0, chat_muted_until = 0, vacation_start = 0, vacation_until = 0, "
        "  banned = 1, erased = ?3 WHERE id = ?1",
        "DELETE FROM sessions WHERE user_id = ?1",
        "DELETE FROM password_resets WHERE user_id = ?1",
        "DELETE FROM admins WHERE user_id = ?1",
        "DELETE FROM chat_reports WHERE reporter = ?1",
        "DELETE FROM ratings WHERE user_id = ?1",
        "UPDATE chat SET text = '', removed = 1 WHERE user_id = ?1",
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        sqlite3_stmt *q = ak_store_prep(st, steps[i]);
        if (!q)
            return AK_STORE_ERROR;
        sqlite3_bind_int64(q, 1, user);
        if (i == 0) {
            sqlite3_bind_text(q, 2, placeholder, -1, SQLITE_STATIC);
            sqlite3_bind_int64(q, 3, now);
        }
        int rc = i == 0 ? ak_store_run_changed(st, q) : ak_store_run(st, q);
        if (rc != AK_STORE_OK)
            return rc;
    }
    return AK_STORE_OK;
}

int ak_store_game_expire(struct ak_store *st, int64_t game, int64_t before, bool *expired)
{
    /* when it last moved (its creation when nothing was played: its last
     * action by the log's key, one lookup), whether a tournament's
     * standings count it, and whether it is the newest game: that one
     * stays whatever its age, since akd numbers new games from the highest
     * kept and a number must never name a second game */
    sqlite3_stmt *q = ak_store_prep(st, "SELECT coalesce((SELECT created FROM actions WHERE game_id = ?1 "
                                        "ORDER BY seq DESC LIMIT 1), (SELECT created FROM games WHERE id = ?1)), "
                                        "(SELECT count(*) FROM tournament_games WHERE game_id = ?1) + "
                                        "(?1 >= (SELECT max(id) FROM games))");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, game);
    int rc = sqlite3_step(q);
    int64_t last = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    bool paired = rc == SQLITE_ROW && sqlite3_column_int(q, 1) > 0;     /* or the newest */
    ak_store_done(st, q);
    *expired = false;
    if (rc != SQLITE_ROW)
        return AK_STORE_ERROR;
    if (paired || last == 0 || last >= before)
        return AK_STORE_OK;
    static const char *const steps[] = {
        "DELETE FROM chat_reports WHERE message_id IN (SELECT id FROM chat WHERE game_id = ?1)",
        "DELETE FROM chat WHERE game_id = ?1",
        "DELETE FROM actions WHERE game_id = ?1",
        "DELETE FROM snapshots WHERE game_id = ?1",
        "DELETE FROM rating_changes WHERE game_id = ?1",
        "DELETE FROM games WHERE id = ?1",
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        if (!(q = ak_store_prep(st, steps[i])))
            return AK_STORE_ERROR;
        sqlite3_bind_int64(q, 1, game);
        if ((rc = ak_store_run(st, q)) != AK_STORE_OK)
            return rc;
    }
    *expired = true;
    return AK_STORE_OK;
}
