/* ak_store_admin: what the admin role stores: banned accounts and the
 * audit of every admin action (migration 8), password resets (9), and
 * who has the role (15). */
#include <stdio.h>

#include "ak_store.h"
#include "ak_store_internal.h"

int ak_store_user_set_banned_rows(struct ak_store *st, int64_t user, bool banned)
{
    sqlite3_stmt *q = ak_store_prep(st, "UPDATE users SET banned = ? WHERE id = ?");
    if (q) {
        sqlite3_bind_int(q, 1, banned);
        sqlite3_bind_int64(q, 2, user);
    }
    int rc = ak_store_run(st, q);
    if (rc == AK_STORE_OK && sqlite3_changes(st->db) != 1)
        rc = AK_STORE_NOT_FOUND;
    if (rc == AK_STORE_OK && banned) {
        q = ak_store_prep(st, "DELETE FROM sessions WHERE user_id = ?");
        if (q)
            sqlite3_bind_int64(q, 1, user);
        rc = ak_store_run(st, q);
    }
    return rc;
}

int ak_store_user_set_banned(struct ak_store *st, int64_t user, bool banned)
{
    if (ak_store_begin(st) != AK_STORE_OK)
        return AK_STORE_ERROR;
    int rc = ak_store_user_set_banned_rows(st, user, banned);
    if (rc != AK_STORE_OK) {
        ak_store_rollback(st);
        return rc;
    }
    return ak_store_commit(st);
}

int ak_store_user_banned(struct ak_store *st, int64_t user, bool *banned)
{
    return ak_store_flag_of(st, "SELECT banned FROM users WHERE id = ?", user, banned);
}

int ak_store_audit(struct ak_store *st, int64_t now, const char *admin, const char *op, const char *target,
                   const char *detail)
{
    sqlite3_stmt *q = ak_store_prep(st, "INSERT INTO admin_actions(at, admin, op, target, detail) VALUES (?, ?, ?, ?, ?)");
    if (q) {
        sqlite3_bind_int64(q, 1, now);
        sqlite3_bind_text(q, 2, admin, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 3, op, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 4, target, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 5, detail, -1, SQLITE_STATIC);
    }
    return ak_store_run(st, q);
}

int ak_store_reset_put(struct ak_store *st, int64_t user, const char *token_hash, int64_t expires)
{
    sqlite3_stmt *q = ak_store_prep(st, "INSERT OR REPLACE INTO password_resets(user_id, token_hash, expires) VALUES (?, ?, ?)");
    if (q) {
        sqlite3_bind_int64(q, 1, user);
        sqlite3_bind_text(q, 2, token_hash, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 3, expires);
    }
    return ak_store_run(st, q);
}

int ak_store_reset_get(struct ak_store *st, int64_t user, char *token_hash, int64_t *expires)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT token_hash, expires FROM password_resets WHERE user_id = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, user);
    int rc = sqlite3_step(q), out = AK_STORE_NOT_FOUND;
    if (rc == SQLITE_ROW) {
        snprintf(token_hash, 65, "%s", (const char *)sqlite3_column_text(q, 0));
        *expires = sqlite3_column_int64(q, 1);
        out = AK_STORE_OK;
    } else if (rc != SQLITE_DONE) {
        out = AK_STORE_ERROR;
    }
    ak_store_done(st, q);
    return out;
}

int ak_store_reset_finish_rows(struct ak_store *st, int64_t user, const char *token_hash, const char *password_hash)
{
    /* The token is used up first: if another request used it meanwhile,
     * nothing else happens (NOT_FOUND, nothing changed). */
    static const char *const steps[] = {
        "DELETE FROM password_resets WHERE user_id = ?1 AND token_hash = ?3",
        "UPDATE users SET pwhash = ?2 WHERE id = ?1",
        "DELETE FROM sessions WHERE user_id = ?1",
    };
    int rc = AK_STORE_OK;
    for (int i = 0; i < 3 && rc == AK_STORE_OK; i++) {
        sqlite3_stmt *q = ak_store_prep(st, steps[i]);
        if (q) {
            sqlite3_bind_int64(q, 1, user);
            sqlite3_bind_text(q, 2, password_hash, -1, SQLITE_STATIC);
            sqlite3_bind_text(q, 3, token_hash, -1, SQLITE_STATIC);
        }
        rc = ak_store_run(st, q);
        if (rc == AK_STORE_OK && i == 0 && sqlite3_changes(st->db) != 1)
            rc = AK_STORE_NOT_FOUND;
    }
    return rc;
}

int ak_store_reset_finish(struct ak_store *st, int64_t user, const char *token_hash, const char *password_hash)
{
    if (ak_store_begin(st) != AK_STORE_OK)
        return AK_STORE_ERROR;
    int rc = ak_store_reset_finish_rows(st, user, token_hash, password_hash);
    if (rc != AK_STORE_OK) {
        ak_store_rollback(st);
        return rc;
    }
    return ak_store_commit(st);
}

int ak_store_admin_set(struct ak_store *st, int64_t user, bool admin, int64_t now, const char *source)
{
    sqlite3_stmt *q = ak_store_prep(st, admin ? "INSERT OR REPLACE INTO admins(user_id, granted, source) VALUES (?, ?, ?)"
                                              : "DELETE FROM admins WHERE user_id = ?");
    if (q) {
        sqlite3_bind_int64(q, 1, user);
        if (admin) {
            sqlite3_bind_int64(q, 2, now);
            sqlite3_bind_text(q, 3, source, -1, SQLITE_STATIC);
        }
    }
    return ak_store_run(st, q);
}

int ak_store_is_admin(struct ak_store *st, int64_t user, bool *admin, char *source, size_t cap)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT source FROM admins WHERE user_id = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, user);
    int rc = sqlite3_step(q), out = AK_STORE_OK;
    *admin = rc == SQLITE_ROW;
    if (rc == SQLITE_ROW && source)
        snprintf(source, cap, "%s", (const char *)sqlite3_column_text(q, 0));
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        out = AK_STORE_ERROR;
    ak_store_done(st, q);
    return out;
}

int ak_store_admin_config_name(struct ak_store *st, const char *name, int64_t now, int64_t *last_user)
{
    sqlite3_stmt *q = ak_store_prep(st, "INSERT OR IGNORE INTO admin_config_names(name, first_seen, last_user) "
                                        "VALUES (?, ?, (SELECT IFNULL(MAX(id), 0) FROM users))");
    if (q) {
        sqlite3_bind_text(q, 1, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(q, 2, now);
    }
    if (ak_store_run(st, q) != AK_STORE_OK)
        return AK_STORE_ERROR;
    q = ak_store_prep(st, "SELECT last_user FROM admin_config_names WHERE name = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_text(q, 1, name, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(q) == SQLITE_ROW ? AK_STORE_OK : AK_STORE_ERROR;
    if (rc == AK_STORE_OK)
        *last_user = sqlite3_column_int64(q, 0);
    ak_store_done(st, q);
    return rc;
}

/* The first column of sql's rows, up to max ids; -1 on error. */
static int ids_of(struct ak_store *st, const char *sql, int64_t *ids, int max)
{
    sqlite3_stmt *q = ak_store_prep(st, sql);
    if (!q)
        return -1;
    int n = 0;
    while (n < max && sqlite3_step(q) == SQLITE_ROW)
        ids[n++] = sqlite3_column_int64(q, 0);
    ak_store_done(st, q);
    return n;
}

int ak_store_admin_ids(struct ak_store *st, int64_t *ids, int max)
{
    return ids_of(st, "SELECT user_id FROM admins ORDER BY granted, user_id", ids, max);
}

int ak_store_admin_config_ids(struct ak_store *st, int64_t *ids, int max)
{
    return ids_of(st, "SELECT user_id FROM admins WHERE source = 'config'", ids, max);
}
