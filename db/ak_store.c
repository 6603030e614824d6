/* ak_store: SQLite implementation of the store. */
#include "ak_store.h"
#include "ak_store_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern const char *const ak_migrations[];

#define CHUNK_BYTES (4 * 1024 * 1024)
#define BUSY_TIMEOUT_MS 5000

#define LOST_MESSAGE "the database file was deleted or replaced while akd ran; nothing more is " \
                     "stored until the operator restores it and restarts akd"

const char *ak_store_error(struct ak_store *st)
{
    return st->lost ? LOST_MESSAGE : sqlite3_errmsg(st->db);
}

bool ak_store_lost(const struct ak_store *st) { return st->lost; }

/* SQLite calls this just before every commit, on every connection and for
 * every statement that commits by itself. An open SQLite file that was
 * unlinked or replaced keeps accepting commits into an inode that no
 * restart will ever read again: every acknowledged change after that would
 * be lost. Refusing the commit (non-zero turns it into a rollback) is what
 * keeps "acknowledged means stored" true. The check is one stat() per
 * commit, small beside the commit's sync. */
static int refuse_commit_if_moved(void *ud)
{
    struct ak_store *st = ud;
    int moved = 0;
    if (!st->lost && sqlite3_file_control(st->db, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK &&
        moved)
        st->lost = true;
    return st->lost;
}

/* Create path with mode 0600 if it does not exist, so that SQLite (which
 * gives its log and shared-memory files the database's mode) never makes
 * a world-readable database: it holds password hashes, and the dice
 * secrets of running games. */
static int create_private(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0)
        return close(fd);
    return errno == EEXIST ? 0 : -1;
}

static int on_wal_commit(void *ud, sqlite3 *db, const char *name, int frames)
{
    (void)db;
    (void)name;
    ((struct ak_store *)ud)->wal_frames = frames;
    return SQLITE_OK;
}

void ak_store_manual_checkpoints(struct ak_store *st)
{
    /* The hook replaces SQLite's automatic checkpoints (which use it). */
    sqlite3_wal_hook(st->db, on_wal_commit, st);
}

void ak_store_set_busy_wait(struct ak_store *st, int (*wait)(void *ud, int tries), void *ud)
{
    if (wait)
        sqlite3_busy_handler(st->db, wait, ud);
    else
        sqlite3_busy_timeout(st->db, BUSY_TIMEOUT_MS);
}

int ak_store_wal_frames(struct ak_store *st)
{
    return st->wal_frames;
}

void ak_store_set_sync(struct ak_store *st, bool full)
{
    sqlite3_exec(st->db, full ? "PRAGMA synchronous=FULL;" : "PRAGMA synchronous=NORMAL;", NULL, NULL, NULL);
}

int ak_store_checkpoint(struct ak_store *st, int *wal_frames, int *frames_left)
{
    int log = 0, done = 0;
    int rc = sqlite3_wal_checkpoint_v2(st->db, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &done);
    if (wal_frames)
        *wal_frames = log;
    if (frames_left)
        *frames_left = log - done;
    return rc == SQLITE_OK ? AK_STORE_OK : AK_STORE_ERROR;
}

int ak_store_schema_version(struct ak_store *st)
{
    sqlite3_stmt *q;
    int v = -1;
    if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &q, NULL) == SQLITE_OK &&
        sqlite3_step(q) == SQLITE_ROW)
        v = sqlite3_column_int(q, 0);
    sqlite3_finalize(q);
    return v;
}

static int migrate(struct ak_store *st, char *err, size_t errlen)
{
    int have = ak_store_schema_version(st), known = 0;
    while (ak_migrations[known])
        known++;
    /* A newer akd wrote this database: its tables may mean something this
     * one does not know. Never touch it. */
    if (have > known) {
        snprintf(err, errlen, "the database has schema version %d; this akd knows versions up to %d "
                 "(a newer akd wrote it)", have, known);
        return -1;
    }
    if (have < 0) {
        snprintf(err, errlen, "the database has a negative schema version %d", have);
        return -1;
    }
    for (int i = have; i >= 0 && ak_migrations[i]; i++) {
        char pragma[64], *msg = NULL;
        snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d;", i + 1);
        if (sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, &msg) != SQLITE_OK ||
            sqlite3_exec(st->db, ak_migrations[i], NULL, NULL, &msg) != SQLITE_OK ||
            sqlite3_exec(st->db, pragma, NULL, NULL, &msg) != SQLITE_OK ||
            sqlite3_exec(st->db, "COMMIT", NULL, NULL, &msg) != SQLITE_OK) {
            snprintf(err, errlen, "migration %d: %s", i + 1, msg ? msg : "failed");
            sqlite3_free(msg);
            sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
            return -1;
        }
    }
    return 0;
}

struct ak_store *ak_store_open(const char *path, char *err, size_t errlen)
{
    struct ak_store *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    char *msg = NULL;
    if (create_private(path) != 0) {
        int e = errno;
        if (!ak_store_access_words(path, err, errlen))
            snprintf(err, errlen, "%s: %s", path, strerror(e));
        free(st);
        return NULL;
    }
    int rc = sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    /* SQLite opens a file it may not write read-only without a word, and
     * every write would then fail: refuse at once instead. */
    if (rc == SQLITE_OK && sqlite3_db_readonly(st->db, "main") == 1) {
        if (!ak_store_access_words(path, err, errlen))
            snprintf(err, errlen, "%s is read-only for this user: akd must be able to write its database", path);
        ak_store_close(st);
        return NULL;
    }
    if (rc != SQLITE_OK ||
        sqlite3_exec(st->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; "
                             "PRAGMA foreign_keys=ON; PRAGMA busy_timeout=5000;",
                     NULL, NULL, &msg) != SQLITE_OK) {
        if (!ak_store_access_words(path, err, errlen))
            snprintf(err, errlen, "%s: %s", path, msg ? msg : sqlite3_errmsg(st->db));
        sqlite3_free(msg);
        ak_store_close(st);
        return NULL;
    }
    if (migrate(st, err, errlen) != 0) {
        ak_store_close(st);
        return NULL;
    }
    sqlite3_commit_hook(st->db, refuse_commit_if_moved, st);
    /* Grow the file CHUNK_BYTES at a time: a sync that also records a new
     * file size (every checkpoint, as the log of actions grows) costs the
     * file system a journal commit, and a checkpoint that waits for one
     * holds up the commits behind it. */
    int chunk = CHUNK_BYTES;
    sqlite3_file_control(st->db, "main", SQLITE_FCNTL_CHUNK_SIZE, &chunk);
    return st;
}

int ak_store_verify(struct ak_store *st, char *err, size_t errlen)
{
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(st->db, "PRAGMA quick_check", -1, &q, NULL);
    const char *first = rc == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW ? (const char *)sqlite3_column_text(q, 0) : NULL;
    bool ok = first && strcmp(first, "ok") == 0;
    if (!ok)
        snprintf(err, errlen, "the database is damaged (quick_check: %s)", first ? first : sqlite3_errmsg(st->db));
    sqlite3_finalize(q);
    return ok ? AK_STORE_OK : AK_STORE_ERROR;
}

void ak_store_close(struct ak_store *st)
{
    if (!st)
        return;
    for (int i = 0; i < STMT_CACHE; i++)
        if (st->cache[i].q)
            sqlite3_finalize(st->cache[i].q);
    sqlite3_close(st->db);
    free(st);
}

sqlite3_stmt *ak_store_prep(struct ak_store *st, const char *sql)
{
    int slot = -1;
    for (int i = 0; i < STMT_CACHE; i++) {
        if (st->cache[i].sql == sql)
            return st->cache[i].q;
        if (!st->cache[i].sql && slot < 0)
            slot = i;
    }
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) != SQLITE_OK)
        return NULL;
    if (slot >= 0) {
        st->cache[slot].sql = sql;
        st->cache[slot].q = q;
    }
    return q;
}

/* Done with a statement from ak_store_prep: ready it for the next use. */
void ak_store_done(struct ak_store *st, sqlite3_stmt *q)
{
    for (int i = 0; i < STMT_CACHE; i++)
        if (st->cache[i].q == q) {
            sqlite3_reset(q);
            sqlite3_clear_bindings(q);
            return;
        }
    sqlite3_finalize(q);
}

int ak_store_int_of(struct ak_store *st, const char *sql, int64_t id, int64_t *value)
{
    sqlite3_stmt *q = ak_store_prep(st, sql);
    if (!q)
        return AK_STORE_ERROR;
    if (sqlite3_bind_parameter_count(q) > 0)
        sqlite3_bind_int64(q, 1, id);
    int rc = sqlite3_step(q), out = AK_STORE_NOT_FOUND;
    if (rc == SQLITE_ROW) {
        *value = sqlite3_column_int64(q, 0);
        out = AK_STORE_OK;
    } else if (rc != SQLITE_DONE) {
        out = AK_STORE_ERROR;
    }
    ak_store_done(st, q);
    return out;
}

int ak_store_flag_of(struct ak_store *st, const char *sql, int64_t id, bool *flag)
{
    int64_t v = 0;
    int rc = ak_store_int_of(st, sql, id, &v);
    if (rc == AK_STORE_OK)
        *flag = v != 0;
    return rc;
}

int ak_store_run_changed(struct ak_store *st, sqlite3_stmt *q)
{
    int rc = ak_store_run(st, q);
    return rc == AK_STORE_OK && sqlite3_changes(st->db) == 0 ? AK_STORE_NOT_FOUND : rc;
}

int ak_store_run(struct ak_store *st, sqlite3_stmt *q)
{
    if (!q)
        return AK_STORE_ERROR;
    int rc = sqlite3_step(q);
    ak_store_done(st, q);
    if (rc == SQLITE_DONE)
        return AK_STORE_OK;
    if (st->lost)
        return AK_STORE_ERROR;   /* the commit hook refused it: not a constraint */
    return rc == SQLITE_CONSTRAINT ? AK_STORE_EXISTS : AK_STORE_ERROR;
}

int ak_store_user_create(struct ak_store *st, const char *name, const char *pwhash, int64_t now,
                         int64_t *id)
{
    sqlite3_stmt *q = ak_store_prep(st, "INSERT INTO users(name, pwhash, created) VALUES (?, ?, ?)");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_text(q, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 2, pwhash, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 3, now);
    int rc = ak_store_run(st, q);
    if (rc == AK_STORE_OK)
        *id = sqlite3_last_insert_rowid(st->db);
    return rc;
}

int ak_store_user_find(struct ak_store *st, const char *name, int64_t *id, char *pwhash, size_t cap)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT id, pwhash FROM users WHERE name = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_text(q, 1, name, -1, SQLITE_TRANSIENT);
    int rc = AK_STORE_NOT_FOUND;
    if (sqlite3_step(q) == SQLITE_ROW) {
        *id = sqlite3_column_int64(q, 0);
        snprintf(pwhash, cap, "%s", (const char *)sqlite3_column_text(q, 1));
        rc = AK_STORE_OK;
    }
    ak_store_done(st, q);
    return rc;
}

int ak_store_user_name(struct ak_store *st, int64_t id, char *name, size_t cap)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT name FROM users WHERE id = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, id);
    int rc = AK_STORE_NOT_FOUND;
    if (sqlite3_step(q) == SQLITE_ROW) {
        snprintf(name, cap, "%s", (const char *)sqlite3_column_text(q, 0));
        rc = AK_STORE_OK;
    }
    ak_store_done(st, q);
    return rc;
}

int ak_store_user_set_password_rows(struct ak_store *st, int64_t id, const char *pwhash, const char *keep_session)
{
    sqlite3_stmt *q = ak_store_prep(st, "UPDATE users SET pwhash = ? WHERE id = ?");
    if (q) {
        sqlite3_bind_text(q, 1, pwhash, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(q, 2, id);
    }
    int rc = ak_store_run(st, q);
    /* A new password is often a reaction to a leaked one: every other
     * session of the account ends with the old password. */
    q = rc == AK_STORE_OK ? ak_store_prep(st, "DELETE FROM sessions WHERE user_id = ? AND token_hash <> ?") : NULL;
    if (q) {
        sqlite3_bind_int64(q, 1, id);
        sqlite3_bind_text(q, 2, keep_session ? keep_session : "", -1, SQLITE_TRANSIENT);
        rc = ak_store_run(st, q);
    }
    return rc == AK_STORE_OK && q ? AK_STORE_OK : AK_STORE_ERROR;
}

int ak_store_user_set_password(struct ak_store *st, int64_t id, const char *pwhash, const char *keep_session)
{
    if (ak_store_begin(st) != AK_STORE_OK)
        return AK_STORE_ERROR;
    if (ak_store_user_set_password_rows(st, id, pwhash, keep_session) != AK_STORE_OK) {
        ak_store_rollback(st);
        return AK_STORE_ERROR;
    }
    return ak_store_commit(st);
}

int ak_store_session_create(struct ak_store *st, const char *token_hash, int64_t user,
                            int64_t expires)
{
    sqlite3_stmt *q = ak_store_prep(st, "INSERT INTO sessions(token_hash, user_id, expires) VALUES (?, ?, ?)");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_text(q, 1, token_hash, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 2, user);
    sqlite3_bind_int64(q, 3, expires);
    return ak_store_run(st, q);
}

int ak_store_session_find(struct ak_store *st, const char *token_hash, int64_t now, int64_t *user,
                          int64_t *expires)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT user_id, expires FROM sessions WHERE token_hash = ? AND expires > ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_text(q, 1, token_hash, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 2, now);
    int rc = AK_STORE_NOT_FOUND;
    if (sqlite3_step(q) == SQLITE_ROW) {
        *user = sqlite3_column_int64(q, 0);
        if (expires)
            *expires = sqlite3_column_int64(q, 1);
        rc = AK_STORE_OK;
    }
    ak_store_done(st, q);
    return rc;
}

int ak_store_session_delete(struct ak_store *st, const char *token_hash)
{
    sqlite3_stmt *q = ak_store_prep(st, "DELETE FROM sessions WHERE token_hash = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_text(q, 1, token_hash, -1, SQLITE_TRANSIENT);
    return ak_store_run(st, q);
}

static void bind_meta(sqlite3_stmt *q, int at, const struct ak_store_game_meta *m)
{
    sqlite3_bind_text(q, at, m->dice_commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, at + 1, m->dice_secret, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, at + 2, m->challenge);
    sqlite3_bind_int(q, at + 3, m->rated);
    sqlite3_bind_int(q, at + 4, m->tc_seconds);
    sqlite3_bind_text(q, at + 5, m->tc_per[0] ? m->tc_per : "action", -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, at + 6, m->tc_expiry[0] ? m->tc_expiry : "lose", -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, at + 7, m->deadline);
    sqlite3_bind_text(q, at + 8, m->status[0] ? m->status : "active", -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(q, at + 9, m->dice_scheme ? m->dice_scheme : 1);
    sqlite3_bind_int(q, at + 10, m->min_rating);
    sqlite3_bind_int(q, at + 11, m->max_rating);
    sqlite3_bind_text(q, at + 12, m->crt_digest, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(q, at + 13, m->computer_level);
    sqlite3_bind_int(q, at + 14, m->bid);
    sqlite3_bind_int(q, at + 15, m->bid ? m->bid_supply : -1);
    sqlite3_bind_int(q, at + 16, m->bid_side);
    sqlite3_bind_int64(q, at + 17, m->bid_by);
}

#define META_COLUMNS "dice_commit, dice_secret, challenge_user, rated, tc_seconds, tc_per, " \
                     "tc_expiry, deadline, status, dice_scheme, min_rating, max_rating, crt_digest, computer_level, " \
                     "bid, bid_supply, bid_side, bid_by"

int ak_store_game_create(struct ak_store *st, const char *ruleset, uint64_t seed, int side,
                         int64_t user, int64_t now, const struct ak_store_game_meta *meta,
                         const char *position, int64_t *id)
{
    sqlite3_stmt *q = ak_store_prep(st, side == 0
        ? "INSERT INTO games(id, ruleset, seed, axis_user, created, " META_COLUMNS ", position) "
          "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        : "INSERT INTO games(id, ruleset, seed, allied_user, created, " META_COLUMNS ", position) "
          "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (!q)
        return AK_STORE_ERROR;
    static const struct ak_store_game_meta none;
    if (*id > 0)
        sqlite3_bind_int64(q, 1, *id);
    else
        sqlite3_bind_null(q, 1);    /* SQLite numbers it */
    sqlite3_bind_text(q, 2, ruleset, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 3, (int64_t)seed);
    sqlite3_bind_int64(q, 4, user);
    sqlite3_bind_int64(q, 5, now);
    bind_meta(q, 6, meta ? meta : &none);
    sqlite3_bind_text(q, 24, position ? position : "", -1, SQLITE_TRANSIENT);
    int rc = ak_store_run(st, q);
    if (rc == AK_STORE_OK)
        *id = sqlite3_last_insert_rowid(st->db);
    return rc;
}

int ak_store_game_set_meta(struct ak_store *st, int64_t game, const struct ak_store_game_meta *m)
{
    sqlite3_stmt *q = ak_store_prep(st, "UPDATE games SET dice_commit = ?, dice_secret = ?, "
                               "challenge_user = ?, rated = ?, tc_seconds = ?, tc_per = ?, "
                               "tc_expiry = ?, deadline = ?, status = ?, dice_scheme = ?, min_rating = ?, "
                               "max_rating = ?, crt_digest = ?, computer_level = ?, bid = ?, bid_supply = ?, "
                               "bid_side = ?, bid_by = ? WHERE id = ?");
    if (!q)
        return AK_STORE_ERROR;
    bind_meta(q, 1, m);
    sqlite3_bind_int64(q, 19, game);
    return ak_store_run(st, q);
}

int ak_store_game_set_deadline(struct ak_store *st, int64_t game, int64_t deadline)
{
    sqlite3_stmt *q = ak_store_prep(st, "UPDATE games SET deadline = ? WHERE id = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, deadline);
    sqlite3_bind_int64(q, 2, game);
    return ak_store_run(st, q);
}

int ak_store_game_told(struct ak_store *st, int64_t game, bool near, int64_t deadline)
{
    sqlite3_stmt *q = ak_store_prep(st, near ? "UPDATE games SET near_told = ? WHERE id = ?"
                                             : "UPDATE games SET passed_told = ? WHERE id = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, deadline);
    sqlite3_bind_int64(q, 2, game);
    return ak_store_run(st, q);
}

int ak_store_game_set_status(struct ak_store *st, int64_t game, const char *status)
{
    sqlite3_stmt *q = ak_store_prep(st, "UPDATE games SET status = ?, deadline = 0 WHERE id = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_text(q, 1, status, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 2, game);
    return ak_store_run(st, q);
}

int ak_store_crt_put(struct ak_store *st, const char *digest, const char *text)
{
    sqlite3_stmt *q = ak_store_prep(st, "INSERT OR IGNORE INTO crt_tables(digest, text) VALUES (?, ?)");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_text(q, 1, digest, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 2, text, -1, SQLITE_TRANSIENT);
    return ak_store_run(st, q);
}

int ak_store_crt_text(struct ak_store *st, const char *digest, char **text)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT text FROM crt_tables WHERE digest = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_text(q, 1, digest, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(q);
    *text = NULL;
    if (rc == SQLITE_ROW)
        *text = strdup((const char *)sqlite3_column_text(q, 0) ? (const char *)sqlite3_column_text(q, 0) : "");
    ak_store_done(st, q);
    if (rc == SQLITE_ROW)
        return *text ? AK_STORE_OK : AK_STORE_ERROR;
    return rc == SQLITE_DONE ? AK_STORE_NOT_FOUND : AK_STORE_ERROR;
}

int ak_store_backup(struct ak_store *st, const char *path)
{
    sqlite3 *to;
    /* A backup holds what the database holds: private, like it. An older
     * backup left readable by others is made private too. */
    if (create_private(path) != 0 || chmod(path, 0600) != 0)
        return AK_STORE_ERROR;
    if (sqlite3_open(path, &to) != SQLITE_OK) {
        sqlite3_close(to);
        return AK_STORE_ERROR;
    }
    sqlite3_backup *b = sqlite3_backup_init(to, "main", st->db, "main");
    int rc = b ? sqlite3_backup_step(b, -1) : SQLITE_ERROR;
    if (b)
        sqlite3_backup_finish(b);
    sqlite3_close(to);
    return rc == SQLITE_DONE ? AK_STORE_OK : AK_STORE_ERROR;
}

int ak_store_game_bid(struct ak_store *st, int64_t game, const int64_t player[2],
                      const struct ak_store_game_meta *m, const char *position)
{
    sqlite3_stmt *q = ak_store_prep(st, "UPDATE games SET axis_user = ?, allied_user = ?, "
                                        "position = coalesce(?, position) WHERE id = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, player[0]);
    sqlite3_bind_int64(q, 2, player[1]);
    if (position)
        sqlite3_bind_text(q, 3, position, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(q, 3);
    sqlite3_bind_int64(q, 4, game);
    int rc = ak_store_run_changed(st, q);
    return rc == AK_STORE_OK ? ak_store_game_set_meta(st, game, m) : rc;
}

int ak_store_game_seat(struct ak_store *st, int64_t game, int side, int64_t user)
{
    sqlite3_stmt *q = ak_store_prep(st, side == 0
        ? "UPDATE games SET axis_user = ? WHERE id = ? AND axis_user IS NULL"
        : "UPDATE games SET allied_user = ? WHERE id = ? AND allied_user IS NULL");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, user);
    sqlite3_bind_int64(q, 2, game);
    int rc = ak_store_run(st, q);
    if (rc == AK_STORE_OK && sqlite3_changes(st->db) != 1)
        rc = AK_STORE_EXISTS;
    return rc;
}

/* The game's snapshot is now the state after action seq. */
static int set_snapshot(struct ak_store *st, int64_t game, uint32_t seq, const void *snapshot,
                        size_t snapshot_len)
{
    sqlite3_stmt *q = ak_store_prep(st, "INSERT OR REPLACE INTO snapshots(game_id, seq, state) VALUES (?, ?, ?)");
    if (q) {
        sqlite3_bind_int64(q, 1, game);
        sqlite3_bind_int64(q, 2, seq);
        sqlite3_bind_blob(q, 3, snapshot, (int)snapshot_len, SQLITE_TRANSIENT);
    }
    return ak_store_run(st, q);
}

/* Drop a snapshot taken after action seq (the log was cut back before it). */
static int drop_snapshot_after(struct ak_store *st, int64_t game, uint32_t seq)
{
    sqlite3_stmt *q = ak_store_prep(st, "DELETE FROM snapshots WHERE game_id = ? AND seq > ?");
    if (q) {
        sqlite3_bind_int64(q, 1, game);
        sqlite3_bind_int64(q, 2, seq);
    }
    return ak_store_run(st, q);
}

int ak_store_begin(struct ak_store *st)
{
    return sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK ? AK_STORE_OK
                                                                               : AK_STORE_ERROR;
}

int ak_store_commit(struct ak_store *st)
{
    if (sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return AK_STORE_OK;
    sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
    return AK_STORE_ERROR;
}

void ak_store_rollback(struct ak_store *st)
{
    sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

int ak_store_game_append_rows(struct ak_store *st, int64_t game, uint32_t seq, int side,
                              const char *action_json, const char *nonce, int64_t now,
                              const void *snapshot, size_t snapshot_len)
{
    sqlite3_stmt *q = ak_store_prep(st, "INSERT INTO actions(game_id, seq, side, action, created, nonce) VALUES (?, ?, ?, ?, ?, ?)");
    if (q) {
        sqlite3_bind_int64(q, 1, game);
        sqlite3_bind_int64(q, 2, seq);
        sqlite3_bind_text(q, 3, side == 0 ? "axis" : "allied", -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 4, action_json, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(q, 5, now);
        sqlite3_bind_text(q, 6, nonce ? nonce : "", -1, SQLITE_TRANSIENT);
    }
    int rc = ak_store_run(st, q);
    if (rc != AK_STORE_OK || !snapshot)
        return rc;
    return set_snapshot(st, game, seq, snapshot, snapshot_len);
}

int ak_store_game_append(struct ak_store *st, int64_t game, uint32_t seq, int side,
                         const char *action_json, const char *nonce, int64_t now,
                         const void *snapshot, size_t snapshot_len)
{
    if (ak_store_begin(st) != AK_STORE_OK)
        return AK_STORE_ERROR;
    if (ak_store_game_append_rows(st, game, seq, side, action_json, nonce, now, snapshot, snapshot_len) != AK_STORE_OK) {
        ak_store_rollback(st);
        return AK_STORE_ERROR;
    }
    return ak_store_commit(st);
}

int ak_store_game_truncate_rows(struct ak_store *st, int64_t game, uint32_t seq, const void *snapshot,
                                size_t snapshot_len)
{
    sqlite3_stmt *q = ak_store_prep(st, "DELETE FROM actions WHERE game_id = ? AND seq > ?");
    if (q) {
        sqlite3_bind_int64(q, 1, game);
        sqlite3_bind_int64(q, 2, seq);
    }
    int rc = ak_store_run(st, q);
    if (rc == AK_STORE_OK)
        rc = snapshot ? set_snapshot(st, game, seq, snapshot, snapshot_len) : drop_snapshot_after(st, game, seq);
    return rc;
}

int ak_store_game_truncate(struct ak_store *st, int64_t game, uint32_t seq, const void *snapshot,
                           size_t snapshot_len)
{
    if (ak_store_begin(st) != AK_STORE_OK)
        return AK_STORE_ERROR;
    if (ak_store_game_truncate_rows(st, game, seq, snapshot, snapshot_len) != AK_STORE_OK) {
        ak_store_rollback(st);
        return AK_STORE_ERROR;
    }
    return ak_store_commit(st);
}

int ak_store_game_snapshot(struct ak_store *st, int64_t game, uint32_t *seq, void *buf, size_t len)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT seq, state FROM snapshots WHERE game_id = ?");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, game);
    int rc = AK_STORE_NOT_FOUND;
    if (sqlite3_step(q) == SQLITE_ROW && (size_t)sqlite3_column_bytes(q, 1) == len) {
        *seq = (uint32_t)sqlite3_column_int64(q, 0);
        memcpy(buf, sqlite3_column_blob(q, 1), len);
        rc = AK_STORE_OK;
    }
    ak_store_done(st, q);
    return rc;
}

int ak_store_games_each(struct ak_store *st,
                        int (*cb)(void *ud, const struct ak_store_game *g), void *ud)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT id, ruleset, seed, axis_user, allied_user, created, "
                               "(SELECT coalesce(max(seq), 0) FROM actions WHERE game_id = games.id), "
                               "(SELECT state FROM snapshots WHERE game_id = games.id), "
                               "(SELECT seq FROM snapshots WHERE game_id = games.id), "
                               META_COLUMNS ", position, near_told, passed_told FROM games ORDER BY id");
    if (!q)
        return AK_STORE_ERROR;
    int rc = AK_STORE_OK;
    while (rc == AK_STORE_OK && sqlite3_step(q) == SQLITE_ROW) {
        struct ak_store_game g = {0};
        g.id = sqlite3_column_int64(q, 0);
        snprintf(g.ruleset, sizeof g.ruleset, "%s", (const char *)sqlite3_column_text(q, 1));
        g.seed = (uint64_t)sqlite3_column_int64(q, 2);
        g.player[0] = sqlite3_column_int64(q, 3);
        g.player[1] = sqlite3_column_int64(q, 4);
        g.created = sqlite3_column_int64(q, 5);
        g.seq = (uint32_t)sqlite3_column_int64(q, 6);
        g.snapshot = sqlite3_column_blob(q, 7);
        g.snapshot_len = (size_t)sqlite3_column_bytes(q, 7);
        g.snapshot_seq = (uint32_t)sqlite3_column_int64(q, 8);
        struct ak_store_game_meta *m = &g.meta;
        snprintf(m->dice_commit, sizeof m->dice_commit, "%s", (const char *)sqlite3_column_text(q, 9));
        snprintf(m->dice_secret, sizeof m->dice_secret, "%s", (const char *)sqlite3_column_text(q, 10));
        m->challenge = sqlite3_column_int64(q, 11);
        m->rated = sqlite3_column_int(q, 12);
        m->tc_seconds = sqlite3_column_int(q, 13);
        snprintf(m->tc_per, sizeof m->tc_per, "%s", (const char *)sqlite3_column_text(q, 14));
        snprintf(m->tc_expiry, sizeof m->tc_expiry, "%s", (const char *)sqlite3_column_text(q, 15));
        m->deadline = sqlite3_column_int64(q, 16);
        snprintf(m->status, sizeof m->status, "%s", (const char *)sqlite3_column_text(q, 17));
        m->dice_scheme = sqlite3_column_int(q, 18);
        m->min_rating = sqlite3_column_int(q, 19);
        m->max_rating = sqlite3_column_int(q, 20);
        snprintf(m->crt_digest, sizeof m->crt_digest, "%s", (const char *)sqlite3_column_text(q, 21));
        m->computer_level = sqlite3_column_int(q, 22);
        m->bid = sqlite3_column_int(q, 23);
        m->bid_supply = sqlite3_column_int(q, 24);
        m->bid_side = sqlite3_column_int(q, 25);
        m->bid_by = sqlite3_column_int64(q, 26);
        g.position = (const char *)sqlite3_column_text(q, 27);
        g.near_told = sqlite3_column_int64(q, 28);
        g.passed_told = sqlite3_column_int64(q, 29);
        if (cb(ud, &g) != 0)
            rc = AK_STORE_ERROR;
    }
    ak_store_done(st, q);
    return rc;
}

int ak_store_actions_each(struct ak_store *st, int64_t game,
                          int (*cb)(void *ud, uint32_t seq, int side, const char *json,
                                    const char *nonce),
                          void *ud)
{
    return ak_store_actions_range(st, game, 1, UINT32_MAX, cb, ud);
}

int ak_store_actions_range(struct ak_store *st, int64_t game, uint32_t first, uint32_t last,
                           int (*cb)(void *ud, uint32_t seq, int side, const char *json, const char *nonce),
                           void *ud)
{
    sqlite3_stmt *q = ak_store_prep(st, "SELECT seq, side, action, nonce FROM actions WHERE game_id = ? "
                                        "AND seq BETWEEN ? AND ? ORDER BY seq");
    if (!q)
        return AK_STORE_ERROR;
    sqlite3_bind_int64(q, 1, game);
    sqlite3_bind_int64(q, 2, first);
    sqlite3_bind_int64(q, 3, last);
    int rc = AK_STORE_OK, step;
    while (rc == AK_STORE_OK && (step = sqlite3_step(q)) == SQLITE_ROW) {
        const char *side = (const char *)sqlite3_column_text(q, 1);
        if (cb(ud, (uint32_t)sqlite3_column_int64(q, 0), strcmp(side, "axis") == 0 ? 0 : 1,
               (const char *)sqlite3_column_text(q, 2), (const char *)sqlite3_column_text(q, 3)) != 0)
            rc = AK_STORE_ERROR;
    }
    if (rc == AK_STORE_OK && step != SQLITE_DONE)
        rc = AK_STORE_ERROR;    /* a read that stopped short is no log */
    ak_store_done(st, q);
    return rc;
}

