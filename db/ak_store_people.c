/* ak_store_people: what a player keeps beside his account (migration 12):
 * chat muted or not, notifications one per move or a daily digest, an
 * e-mail address and its verification, vacations; and the chat of games,
 * kept with the game but outside its record (the rules never see it). */
#include <stdio.h>
#include <string.h>

#include "ak_store.h"
#include "ak_store_internal.h"

static void text(char *dst, size_t cap, sqlite3_stmt *q, int col)
{
    const unsigned char *t = sqlite3_column_text(q, col);
    snprintf(dst, cap, "%s", t ? (const char *)t : "");
}

int ak_store_prefs_get(struct ak_store *st, int64_t user, struct ak_store_prefs *p)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT chat_muted, notify_mode, email, email_verified, email_token_hash, "
                                        "vacation_start, vacation_until, vacation_year, vacation_used, "
                                        "email_sent, digest_day FROM users WHERE id = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, user);
    int rc = sqlite3_step(q), out = rc == SQLITE_ROW ? AK_STORE_OK : rc == SQLITE_DONE ? AK_STORE_NOT_FOUND
                                                                                       : AK_STORE_ERROR;
    if (rc == SQLITE_ROW) {
        memset(p, 0, sizeof *p);
        p->chat_muted = sqlite3_column_int(q, 0);
        text(p->notify_mode, sizeof p->notify_mode, q, 1);
        text(p->email, sizeof p->email, q, 2);
        p->email_verified = sqlite3_column_int(q, 3);
        text(p->email_token_hash, sizeof p->email_token_hash, q, 4);
        p->vacation_start = sqlite3_column_int64(q, 5);
        p->vacation_until = sqlite3_column_int64(q, 6);
        p->vacation_year = sqlite3_column_int(q, 7);
        p->vacation_used = sqlite3_column_int64(q, 8);
        p->email_sent = sqlite3_column_int64(q, 9);
        p->digest_day = sqlite3_column_int64(q, 10);
    }
    ak_store_done(st, q);
    return out;
}

int ak_store_prefs_put(struct ak_store *st, int64_t user, const struct ak_store_prefs *p)
{
    sqlite3_stmt *q = ak_store_prep(st, "UPDATE users SET chat_muted = ?, notify_mode = ?, email = ?, "
                                        "email_verified = ?, email_token_hash = ?, vacation_start = ?, "
                                        "vacation_until = ?, vacation_year = ?, vacation_used = ?, email_sent = ?, "
                                        "digest_day = ? WHERE id = ?");
    if (q) {
        sqlite3_bind_int(q, 1, p->chat_muted);
        sqlite3_bind_text(q, 2, p->notify_mode[0] ? p->notify_mode : "each", -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 3, p->email, -1, SQLITE_STATIC);
        sqlite3_bind_int(q, 4, p->email_verified);
        sqlite3_bind_text(q, 5, p->email_token_hash, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 6, p->vacation_start);
        sqlite3_bind_int64(q, 7, p->vacation_until);
        sqlite3_bind_int(q, 8, p->vacation_year);
        sqlite3_bind_int64(q, 9, p->vacation_used);
        sqlite3_bind_int64(q, 10, p->email_sent);
        sqlite3_bind_int64(q, 11, p->digest_day);
        sqlite3_bind_int64(q, 12, user);
    }
    return ak_store_run(st, q);
}

int ak_store_vacations_each(struct ak_store *st, int64_t now, void (*cb)(void *ud, int64_t user, int64_t until),
                            void *ud)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT id, vacation_until FROM users WHERE vacation_until > ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, now);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW)
        cb(ud, sqlite3_column_int64(q, 0), sqlite3_column_int64(q, 1));
    ak_store_done(st, q);
    return rc == SQLITE_DONE ? AK_STORE_OK : AK_STORE_ERROR;
}

int ak_store_digest_users(struct ak_store *st, int64_t after, int64_t *users, int max)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT id FROM users WHERE notify_mode = 'digest' AND banned = 0 AND id > ? "
                                        "ORDER BY id LIMIT ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, after);
    sqlite3_bind_int(q, 2, max);
    int n = 0, rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW && n < max)
        users[n++] = sqlite3_column_int64(q, 0);
    ak_store_done(st, q);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? n : AK_STORE_ERROR;
}

int ak_store_chat_add(struct ak_store *st, int64_t game, int64_t at, int64_t user, const char *channel,
                      const char *msg)
{
    sqlite3_stmt *q = ak_store_prep(st, "INSERT INTO chat(game_id, at, user_id, channel, text) VALUES (?, ?, ?, ?, ?)");
    if (q) {
        sqlite3_bind_int64(q, 1, game);
        sqlite3_bind_int64(q, 2, at);
        sqlite3_bind_int64(q, 3, user);
        sqlite3_bind_text(q, 4, channel, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 5, msg, -1, SQLITE_STATIC);
    }
    return ak_store_run(st, q);
}

int ak_store_chat_page(struct ak_store *st, int64_t game, const char *channel, int64_t before, int limit,
                       void (*cb)(void *ud, int64_t id, int64_t at, const char *user, const char *channel,
                                  const char *text, bool removed),
                       void *ud)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT chat.id, chat.at, users.name, chat.channel, chat.text, chat.removed FROM chat "
                                        "JOIN users ON users.id = chat.user_id WHERE chat.game_id = ?1 "
                                        "AND (?2 IS NULL OR chat.channel = ?2) AND (?3 = 0 OR chat.id < ?3) "
                                        "ORDER BY chat.id DESC LIMIT ?4");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, game);
    if (channel)
        sqlite3_bind_text(q, 2, channel, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, before);
    sqlite3_bind_int(q, 4, limit);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW)
        cb(ud, sqlite3_column_int64(q, 0), sqlite3_column_int64(q, 1), (const char *)sqlite3_column_text(q, 2),
           (const char *)sqlite3_column_text(q, 3), (const char *)sqlite3_column_text(q, 4),
           sqlite3_column_int(q, 5) != 0);
    ak_store_done(st, q);
    return rc == SQLITE_DONE ? AK_STORE_OK : AK_STORE_ERROR;
}

int ak_store_chat_count(struct ak_store *st, int64_t game, const char *channel, int64_t user, int64_t *count)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT count(*) FROM chat WHERE game_id = ?1 AND (?2 IS NULL OR channel = ?2) "
                                        "AND (?3 = 0 OR user_id = ?3)");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, game);
    if (channel)
        sqlite3_bind_text(q, 2, channel, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, user);
    int rc = sqlite3_step(q);
    *count = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    ak_store_done(st, q);
    return rc == SQLITE_ROW ? AK_STORE_OK : AK_STORE_ERROR;
}
