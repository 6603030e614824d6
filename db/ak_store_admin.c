/* ak_store_admin: what the admin role stores (migration 8): banned
 * accounts and the audit of every admin action. */
#include <stdio.h>

#include "ak_store.h"
#include "ak_store_internal.h"

int ak_store_user_set_banned(struct ak_store *st, int64_t user, bool banned)
{
    if (ak_store_begin(st) != AK_STORE_OK)
        return AK_STORE_ERROR;
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
    if (rc != AK_STORE_OK) {
        ak_store_rollback(st);
        return rc;
    }
    return ak_store_commit(st);
}

int ak_store_user_banned(struct ak_store *st, int64_t user, bool *banned)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT banned FROM users WHERE id = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, user);
    int rc = sqlite3_step(q), out = AK_STORE_NOT_FOUND;
    if (rc == SQLITE_ROW) {
        *banned = sqlite3_column_int(q, 0) != 0;
        out = AK_STORE_OK;
    } else if (rc != SQLITE_DONE) {
        out = AK_STORE_ERROR;
    }
    ak_store_done(st, q);
    return out;
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
