/* ak_store_moderation: chat moderation's rows (migration 19): reports of
 * messages, messages removed by an admin (the row stays, its text goes),
 * accounts whose chat is muted until a time. The server's side, and the
 * limits on what a player may report, are server/ak_moderation.c's. */
#include <stdio.h>
#include <string.h>

#include "ak_store.h"
#include "ak_store_internal.h"

int64_t ak_store_last_id(struct ak_store *st)
{
    return sqlite3_last_insert_rowid(st->db);
}

int ak_store_chat_get(struct ak_store *st, int64_t id, struct ak_store_chat_message *m)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT chat.id, chat.game_id, chat.user_id, chat.at, chat.channel, users.name, "
                                        "chat.removed FROM chat JOIN users ON users.id = chat.user_id WHERE chat.id = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, id);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        memset(m, 0, sizeof *m);
        m->id = sqlite3_column_int64(q, 0);
        m->game = sqlite3_column_int64(q, 1);
        m->author = sqlite3_column_int64(q, 2);
        m->at = sqlite3_column_int64(q, 3);
        snprintf(m->channel, sizeof m->channel, "%s", (const char *)sqlite3_column_text(q, 4));
        snprintf(m->author_name, sizeof m->author_name, "%s", (const char *)sqlite3_column_text(q, 5));
        m->removed = sqlite3_column_int(q, 6) != 0;
    }
    ak_store_done(st, q);
    return rc == SQLITE_ROW ? AK_STORE_OK : rc == SQLITE_DONE ? AK_STORE_NOT_FOUND : AK_STORE_ERROR;
}

int ak_store_chat_report(struct ak_store *st, int64_t message, int64_t reporter, int64_t at, const char *reason)
{
    sqlite3_stmt *q = ak_store_prep(st, "INSERT OR IGNORE INTO chat_reports(message_id, reporter, at, reason) "
                                        "VALUES (?, ?, ?, ?)");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, message);
    sqlite3_bind_int64(q, 2, reporter);
    sqlite3_bind_int64(q, 3, at);
    sqlite3_bind_text(q, 4, reason, -1, SQLITE_STATIC);
    int rc = ak_store_run(st, q);
    return rc == AK_STORE_OK && sqlite3_changes(st->db) == 0 ? AK_STORE_EXISTS : rc;
}

int ak_store_chat_reports_count(struct ak_store *st, int64_t reporter, int64_t *count)
{
    /* two statements: each uses its index (or the table's count) */
    return ak_store_int_of(st, reporter ? "SELECT count(*) FROM chat_reports WHERE reporter = ?"
                                        : "SELECT count(*) FROM chat_reports", reporter, count);
}

int ak_store_chat_reports(struct ak_store *st, int64_t after, int limit,
                          void (*cb)(void *ud, const struct ak_store_chat_message *m, const char *text, int reports,
                                     const char *reason, const char *reporter),
                          void *ud)
{
    /* driven by the reports (their primary key), never by all of chat */
    sqlite3_stmt *q = ak_store_prep(st,
        "SELECT chat.id, chat.game_id, chat.user_id, chat.at, chat.channel, author.name, chat.text, r.n, "
        "  first.reason, reporter.name "
        "FROM (SELECT message_id, count(*) AS n, min(at) AS first_at FROM chat_reports WHERE message_id > ?1 "
        "      GROUP BY message_id ORDER BY message_id LIMIT ?2) r "
        "JOIN chat ON chat.id = r.message_id JOIN users author ON author.id = chat.user_id "
        "JOIN chat_reports first ON first.message_id = r.message_id AND first.at = r.first_at "
        "JOIN users reporter ON reporter.id = first.reporter "
        "GROUP BY r.message_id ORDER BY r.message_id");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, after);
    sqlite3_bind_int(q, 2, limit);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        struct ak_store_chat_message m = {0};
        m.id = sqlite3_column_int64(q, 0);
        m.game = sqlite3_column_int64(q, 1);
        m.author = sqlite3_column_int64(q, 2);
        m.at = sqlite3_column_int64(q, 3);
        snprintf(m.channel, sizeof m.channel, "%s", (const char *)sqlite3_column_text(q, 4));
        snprintf(m.author_name, sizeof m.author_name, "%s", (const char *)sqlite3_column_text(q, 5));
        cb(ud, &m, (const char *)sqlite3_column_text(q, 6), sqlite3_column_int(q, 7),
           (const char *)sqlite3_column_text(q, 8), (const char *)sqlite3_column_text(q, 9));
    }
    ak_store_done(st, q);
    return rc == SQLITE_DONE ? AK_STORE_OK : AK_STORE_ERROR;
}

int ak_store_chat_remove(struct ak_store *st, int64_t message, bool remove_text)
{
    if (remove_text) {
        sqlite3_stmt *q = ak_store_prep(st, "UPDATE chat SET text = '', removed = 1 WHERE id = ?");
        if (!q)
            return AK_STORE_ERROR;
        sqlite3_bind_int64(q, 1, message);
        int rc = ak_store_run_changed(st, q);
        if (rc != AK_STORE_OK)
            return rc;
    }
    sqlite3_stmt *q = ak_store_prep(st, "DELETE FROM chat_reports WHERE message_id = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, message);
    int rc = remove_text ? ak_store_run(st, q) : ak_store_run_changed(st, q);
    return rc;
}

int ak_store_chat_expire(struct ak_store *st, int64_t before, int max, int *deleted)
{
    static const char *const steps[] = {
        "DELETE FROM chat_reports WHERE message_id IN (SELECT id FROM chat WHERE at < ?1 ORDER BY id LIMIT ?2)",
        "DELETE FROM chat WHERE id IN (SELECT id FROM chat WHERE at < ?1 ORDER BY id LIMIT ?2)",
    };
    *deleted = 0;
    for (int i = 0; i < 2; i++) {
        sqlite3_stmt *q = ak_store_prep(st, steps[i]);
        if (!q)
            return AK_STORE_ERROR;
        sqlite3_bind_int64(q, 1, before);
        sqlite3_bind_int(q, 2, max);
        int rc = ak_store_run(st, q);
        if (rc != AK_STORE_OK)
            return rc;
        if (i == 1)
            *deleted = sqlite3_changes(st->db);
    }
    return AK_STORE_OK;
}

int ak_store_chat_mute(struct ak_store *st, int64_t user, int64_t until)
{
    sqlite3_stmt *q = ak_store_prep(st, "UPDATE users SET chat_muted_until = ? WHERE id = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, until);
    sqlite3_bind_int64(q, 2, user);
    return ak_store_run_changed(st, q);
}

int ak_store_chat_muted_until(struct ak_store *st, int64_t user, int64_t *until)
{
    *until = 0;
    return ak_store_int_of(st, "SELECT chat_muted_until FROM users WHERE id = ?", user, until);
}
