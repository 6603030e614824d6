/* ak_store_computer: accounts played by a program (migration 16, issue
 * 31). The operator marks them (akd --computer-add, the admin op
 * computer); akd shows them as computers and, when a player asks for a
 * game against the computer, challenges one of them. */
#include "ak_store.h"
#include "ak_store_internal.h"

int ak_store_user_set_computer_rows(struct ak_store *st, int64_t user, bool computer)
{
    sqlite3_stmt *q = ak_store_prep(st, "UPDATE users SET computer = ? WHERE id = ?");
    if (q) {
        sqlite3_bind_int(q, 1, computer);
        sqlite3_bind_int64(q, 2, user);
    }
    int rc = ak_store_run(st, q);
    if (rc == AK_STORE_OK && sqlite3_changes(st->db) != 1)
        rc = AK_STORE_NOT_FOUND;
    return rc;
}

int ak_store_user_computer(struct ak_store *st, int64_t user, bool *computer)
{
    return ak_store_flag_of(st, "SELECT computer FROM users WHERE id = ?", user, computer);
}

int ak_store_computers(struct ak_store *st, int64_t *users, bool *banned, int cap, int *n)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT id, banned FROM users WHERE computer = 1 ORDER BY id LIMIT ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int(q, 1, cap);
    int rc;
    *n = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW && *n < cap) {
        users[*n] = sqlite3_column_int64(q, 0);
        banned[(*n)++] = sqlite3_column_int(q, 1) != 0;
    }
    ak_store_done(st, q);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? AK_STORE_OK : AK_STORE_ERROR;
}
