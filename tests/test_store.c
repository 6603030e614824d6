/* The SQLite store: migrations, accounts, sessions, games and logs. */
#include "ak_check.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "ak_store.h"

extern const char *const ak_migrations[];

/* The schema version the migrations lead to: their number. */
static int latest_schema(void)
{
    int n = 0;
    while (ak_migrations[n])
        n++;
    return n;
}


static char path[64];

static int count_actions(void *ud, uint32_t seq, int side, const char *json, const char *nonce)
{
    int *n = ud;
    ck_assert_int_eq(seq, (uint32_t)(*n + 1));
    ck_assert_int_eq(side, seq % 2 ? 0 : 1);
    ck_assert(strstr(json, "end_turn") != NULL);
    (void)nonce;
    (*n)++;
    return 0;
}

static int check_game(void *ud, const struct ak_store_game *g)
{
    int *n = ud;
    ck_assert_int_eq(g->seq, 2);
    ck_assert_int_eq(g->snapshot_len, 4);
    ck_assert_int_eq(memcmp(g->snapshot, "bbbb", 4), 0);
    ck_assert_int_eq(g->seed, 42);
    ck_assert_str_eq(g->ruleset, "classic");
    ck_assert_str_eq(g->meta.dice_commit, "c0ffee");
    ck_assert_str_eq(g->meta.tc_per, "turn");
    ck_assert_int_eq(g->meta.tc_seconds, 3600);
    ck_assert_int_eq(g->meta.deadline, 99);
    ck_assert_int_eq(g->meta.rated, 1);
    (*n)++;
    return 0;
}

START_TEST(store)
{
    char err[256];
    snprintf(path, sizeof path, "/tmp/ak-store-test-%d.sqlite3", (int)getpid());
    unlink(path);
    struct ak_store *st = ak_store_open(path, err, sizeof err);
    ck_assert_ptr_nonnull(st);
    ck_assert_int_eq(ak_store_schema_version(st), latest_schema());
    int64_t alice, bob, game = 0;
    char hash[200];
    ck_assert_int_eq(ak_store_user_create(st, "alice", "$argon2id$x", 1, &alice), AK_STORE_OK);
    ck_assert_int_eq(ak_store_user_create(st, "ALICE", "$argon2id$y", 1, &bob), AK_STORE_EXISTS);
    ck_assert_int_eq(ak_store_user_create(st, "bob", "$argon2id$y", 1, &bob), AK_STORE_OK);
    ck_assert_int_eq(ak_store_user_find(st, "Alice", &alice, hash, sizeof hash), AK_STORE_OK);
    ck_assert_str_eq(hash, "$argon2id$x");
    ck_assert_int_eq(ak_store_session_create(st, "h1", alice, 100), AK_STORE_OK);
    int64_t who;
    ck_assert_int_eq(ak_store_session_find(st, "h1", 50, &who, NULL), AK_STORE_OK);
    ck_assert_int_eq(who, alice);
    ck_assert_int_eq(ak_store_session_find(st, "h1", 150, &who, NULL), AK_STORE_NOT_FOUND);
    ck_assert_int_eq(ak_store_game_create(st, "classic", 42, 0, alice, 1, NULL, NULL, &game), AK_STORE_OK);
    ck_assert_int_eq(ak_store_game_seat(st, game, 1, bob), AK_STORE_OK);
    ck_assert_int_eq(ak_store_game_seat(st, game, 1, alice), AK_STORE_EXISTS);
    ck_assert_int_eq(ak_store_game_append(st, game, 1, 0, "{\"action\":\"end_turn\"}", NULL, 2, "aaaa", 4), AK_STORE_OK);
    ck_assert_int_eq(ak_store_game_append(st, game, 2, 1, "{\"action\":\"end_turn\"}", NULL, 2, "bbbb", 4), AK_STORE_OK);
    /* The same sequence number twice is refused and changes nothing. */
    ck_assert_int_ne(ak_store_game_append(st, game, 2, 1, "{\"action\":\"end_turn\"}", NULL, 2, "cccc", 4), AK_STORE_OK);
    /* Undo: the third action goes, the second's snapshot comes back. */
    ck_assert_int_eq(ak_store_game_append(st, game, 3, 0, "{\"action\":\"end_turn\"}", NULL, 2, "dddd", 4), AK_STORE_OK);
    ck_assert_int_eq(ak_store_game_truncate(st, game, 2, "bbbb", 4), AK_STORE_OK);
    /* An action without a snapshot keeps the last one; undoing it leaves
     * that snapshot alone. */
    ck_assert_int_eq(ak_store_game_append(st, game, 3, 0, "{\"action\":\"end_turn\"}", NULL, 2, NULL, 0), AK_STORE_OK);
    ck_assert_int_eq(ak_store_game_truncate(st, game, 2, NULL, 0), AK_STORE_OK);
    /* Lobby and clock data round-trip. */
    struct ak_store_game_meta m = {.challenge = bob, .rated = 1, .tc_seconds = 3600, .deadline = 99};
    snprintf(m.dice_commit, sizeof m.dice_commit, "c0ffee");
    snprintf(m.tc_per, sizeof m.tc_per, "turn");
    snprintf(m.status, sizeof m.status, "active");
    ck_assert_int_eq(ak_store_game_set_meta(st, game, &m), AK_STORE_OK);
    ck_assert_int_eq(ak_store_user_set_password(st, bob, "$argon2id$z", NULL), AK_STORE_OK);
    ck_assert_int_eq(ak_store_user_find(st, "bob", &bob, hash, sizeof hash), AK_STORE_OK);
    ck_assert_str_eq(hash, "$argon2id$z");
    /* An online backup is a database of its own. */
    char backup[300];
    snprintf(backup, sizeof backup, "%s.backup", path);
    unlink(backup);
    ck_assert_int_eq(ak_store_backup(st, backup), AK_STORE_OK);
    struct ak_store *copy = ak_store_open(backup, err, sizeof err);
    ck_assert_ptr_nonnull(copy);
    ck_assert_int_eq(ak_store_schema_version(copy), latest_schema());
    ak_store_close(copy);
    struct stat sb;
    ck_assert_int_eq(stat(backup, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 0777, 0600);      /* private, like the database */
    unlink(backup);
    ak_store_close(st);

    st = ak_store_open(path, err, sizeof err);   /* reopen: migrations are idempotent */
    ck_assert_ptr_nonnull(st);
    int n = 0;
    ck_assert_int_eq(ak_store_games_each(st, check_game, &n), AK_STORE_OK);
    ck_assert_int_eq(n, 1);
    n = 0;
    ck_assert_int_eq(ak_store_actions_each(st, game, count_actions, &n), AK_STORE_OK);
    ck_assert_int_eq(n, 2);
    ak_store_close(st);
    unlink(path);
}
END_TEST

static int check_migrated(void *ud, const struct ak_store_game *g)
{
    int *n = ud;
    ck_assert_int_eq(g->seq, 3);
    ck_assert_int_eq(g->snapshot_seq, 2);
    ck_assert_int_eq(g->snapshot_len, 4);
    ck_assert_int_eq(memcmp(g->snapshot, "snap", 4), 0);
    (*n)++;
    return 0;
}

/* Migration 5 moves a game's snapshot out of its row: a database written by
 * the schema of version 4 opens with its snapshot and log intact. */
START_TEST(snapshot_migration)
{
    char err[256];
    snprintf(path, sizeof path, "/tmp/ak-store-mig-%d.sqlite3", (int)getpid());
    unlink(path);
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(sqlite3_exec(db, ak_migrations[i], NULL, NULL, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(db,
        "PRAGMA user_version = 4;"
        "INSERT INTO games(id, ruleset, seed, created, seq, snapshot, snapshot_seq) "
        "  VALUES (1, 'classic', 7, 1, 3, x'736e6170', 2);"
        "INSERT INTO actions VALUES (1, 1, 'axis', '{\"action\":\"end_turn\"}', 1),"
        "  (1, 2, 'allied', '{\"action\":\"end_turn\"}', 1), (1, 3, 'axis', '{\"action\":\"end_turn\"}', 1);",
        NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    struct ak_store *st = ak_store_open(path, err, sizeof err);
    ck_assert_ptr_nonnull(st);
    ck_assert_int_eq(ak_store_schema_version(st), latest_schema());
    int n = 0;
    ck_assert_int_eq(ak_store_games_each(st, check_migrated, &n), AK_STORE_OK);
    ck_assert_int_eq(n, 1);
    ak_store_close(st);
    unlink(path);
}
END_TEST

static long file_size(const char *name)
{
    FILE *f = fopen(name, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

/* Checkpoints as akd runs them (ak_writer.c): the writing connection
 * counts the log's pages after each commit; a checkpoint copies the log
 * into the database, by another connection or by the writer itself between
 * its transactions, and the writer's next commit starts the log over, so
 * the log file stops growing. */
START_TEST(checkpoints_restart_the_log)
{
    char err[256], wal[80];
    snprintf(path, sizeof path, "/tmp/ak-store-wal-%d.sqlite3", (int)getpid());
    snprintf(wal, sizeof wal, "%s-wal", path);
    unlink(path);
    struct ak_store *writer = ak_store_open(path, err, sizeof err);
    ck_assert_ptr_nonnull(writer);
    ak_store_manual_checkpoints(writer);
    int64_t user, game = 0;
    ck_assert_int_eq(ak_store_user_create(writer, "carol", "$argon2id$x", 1, &user), AK_STORE_OK);
    ck_assert_int_eq(ak_store_game_create(writer, "classic", 1, 0, user, 1, NULL, NULL, &game), AK_STORE_OK);
    char snapshot[2400] = {0};
    uint32_t seq = 0;
    for (int i = 0; i < 50; i++)
        ck_assert_int_eq(ak_store_game_append(writer, game, ++seq, 0, "{}", NULL, 2, snapshot, sizeof snapshot),
                         AK_STORE_OK);
    int frames = ak_store_wal_frames(writer), before = 0, left = -1;
    ck_assert_int_ge(frames, 50);
    long grown = file_size(wal);
    /* Another connection, opened now, copies all of it. */
    struct ak_store *other = ak_store_open(path, err, sizeof err);
    ck_assert_ptr_nonnull(other);
    ak_store_manual_checkpoints(other);
    ck_assert_int_eq(ak_store_checkpoint(other, &before, &left), AK_STORE_OK);
    ck_assert_int_eq(before, frames);
    ck_assert_int_eq(left, 0);
    ck_assert_int_eq(ak_store_game_append(writer, game, ++seq, 0, "{}", NULL, 2, snapshot, sizeof snapshot), AK_STORE_OK);
    ck_assert_int_lt(ak_store_wal_frames(writer), frames / 4);
    /* The writer's own, after more commits: the same. */
    for (int i = 0; i < 20; i++)
        ck_assert_int_eq(ak_store_game_append(writer, game, ++seq, 0, "{}", NULL, 2, snapshot, sizeof snapshot),
                         AK_STORE_OK);
    int again = ak_store_wal_frames(writer);
    ck_assert_int_eq(ak_store_checkpoint(writer, &before, &left), AK_STORE_OK);
    ck_assert_int_eq(before, again);
    ck_assert_int_eq(left, 0);
    ck_assert_int_eq(ak_store_game_append(writer, game, ++seq, 0, "{}", NULL, 2, snapshot, sizeof snapshot), AK_STORE_OK);
    ck_assert_int_lt(ak_store_wal_frames(writer), again / 4);
    ck_assert_int_eq(file_size(wal), grown);     /* rewritten in place, not grown */
    ak_store_close(other);
    ak_store_close(writer);
    unlink(path);
    unlink(wal);
}
END_TEST

/* akd numbers its games itself (it answers `new` only once the game is
 * committed, with other writes in the same transaction); a number it
 * gives is kept, SQLite numbers the rest after it, and a number taken is
 * refused. */
START_TEST(numbered_games)
{
    char err[256];
    snprintf(path, sizeof path, "/tmp/ak-store-ids-%d.sqlite3", (int)getpid());
    unlink(path);
    struct ak_store *st = ak_store_open(path, err, sizeof err);
    ck_assert_ptr_nonnull(st);
    int64_t user, game = 10, next = 0, again = 10;
    ck_assert_int_eq(ak_store_user_create(st, "dora", "$argon2id$x", 1, &user), AK_STORE_OK);
    ck_assert_int_eq(ak_store_game_create(st, "classic", 1, 0, user, 1, NULL, NULL, &game), AK_STORE_OK);
    ck_assert_int_eq(game, 10);
    ck_assert_int_eq(ak_store_game_create(st, "classic", 2, 1, user, 1, NULL, "{}", &next), AK_STORE_OK);
    ck_assert_int_eq(next, 11);
    ck_assert_int_ne(ak_store_game_create(st, "classic", 3, 0, user, 1, NULL, NULL, &again), AK_STORE_OK);
    ak_store_close(st);
    unlink(path);
}
END_TEST

/* Files: the database and its log are created 0600 whatever the umask
 * (they hold password hashes and dice secrets). */
START_TEST(files_are_private)
{
    char err[256], wal[80];
    snprintf(path, sizeof path, "/tmp/ak-store-mode-%d.sqlite3", (int)getpid());
    unlink(path);
    mode_t old = umask(022);
    struct ak_store *st = ak_store_open(path, err, sizeof err);
    umask(old);
    ck_assert_ptr_nonnull(st);
    int64_t id;
    ck_assert_int_eq(ak_store_user_create(st, "carol", "$argon2id$x", 1, &id), AK_STORE_OK);
    struct stat sb;
    snprintf(wal, sizeof wal, "%s-wal", path);
    ck_assert_int_eq(stat(path, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 0777, 0600);
    ck_assert_int_eq(stat(wal, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 0777, 0600);
    snprintf(wal, sizeof wal, "%s-shm", path);     /* the shared-memory index too */
    ck_assert_int_eq(stat(wal, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 0777, 0600);
    ak_store_close(st);
    unlink(path);
}
END_TEST

/* A database written by a newer akd is refused, naming both versions,
 * and left untouched. */
START_TEST(newer_schema_refused)
{
    char err[256];
    snprintf(path, sizeof path, "/tmp/ak-store-new-%d.sqlite3", (int)getpid());
    unlink(path);
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE future(x); PRAGMA user_version = 99;", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    ck_assert_ptr_null(ak_store_open(path, err, sizeof err));
    char latest[32];
    snprintf(latest, sizeof latest, "up to %d", latest_schema());
    ck_assert_msg(strstr(err, "99") && strstr(err, latest), "%s", err);
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *q;
    sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q, NULL);
    ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
    ck_assert_int_eq(sqlite3_column_int(q, 0), 99);
    sqlite3_finalize(q);
    sqlite3_close(db);
    unlink(path);
}
END_TEST

/* Not a database, or a damaged one: refused with SQLite's words. */
START_TEST(damaged_file_refused)
{
    char err[256];
    snprintf(path, sizeof path, "/tmp/ak-store-bad-%d.sqlite3", (int)getpid());
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < 200; i++)
        fputs("this is not a database at all\n", f);
    fclose(f);
    ck_assert_ptr_null(ak_store_open(path, err, sizeof err));
    ck_assert_msg(strstr(err, "not a database"), "%s", err);
    unlink(path);
    /* A real database with a page overwritten: quick_check says so. */
    struct ak_store *st = ak_store_open(path, err, sizeof err);
    ck_assert_ptr_nonnull(st);
    int64_t id;
    char name[32];
    for (int i = 0; i < 400; i++) {
        snprintf(name, sizeof name, "user%d", i);
        ck_assert_int_eq(ak_store_user_create(st, name, "$argon2id$v=19$m=65536,t=2,p=1$a-hash-long-enough-to-fill-pages", 1, &id),
                         AK_STORE_OK);
    }
    ck_assert_int_eq(ak_store_checkpoint(st, NULL, NULL), AK_STORE_OK);
    ak_store_close(st);
    char wal[80];
    snprintf(wal, sizeof wal, "%s-wal", path);
    unlink(wal);
    f = fopen(path, "r+b");
    ck_assert_ptr_nonnull(f);
    fseek(f, 4096 * 2, SEEK_SET);        /* a b-tree page's header */
    for (int i = 0; i < 64; i++)
        fputc(0x5a, f);
    fclose(f);
    st = ak_store_open(path, err, sizeof err);
    if (st) {
        ck_assert_int_eq(ak_store_verify(st, err, sizeof err), AK_STORE_ERROR);
        ak_store_close(st);
    }
    ck_assert_msg(strstr(err, "damaged") || strstr(err, "malformed"), "%s", err);
    unlink(path);
}
END_TEST

/* The file deleted or replaced under akd: every commit is refused from
 * then on (nothing acknowledged into a file no restart will read), and
 * the error says what happened. */
START_TEST(deleted_file_refuses_commits)
{
    char err[256];
    snprintf(path, sizeof path, "/tmp/ak-store-gone-%d.sqlite3", (int)getpid());
    unlink(path);
    struct ak_store *st = ak_store_open(path, err, sizeof err);
    ck_assert_ptr_nonnull(st);
    int64_t id, game = 0;
    ck_assert_int_eq(ak_store_user_create(st, "dave", "$argon2id$x", 1, &id), AK_STORE_OK);
    ck_assert(!ak_store_lost(st));
    unlink(path);
    ck_assert_int_eq(ak_store_user_create(st, "erin", "$argon2id$x", 1, &id), AK_STORE_ERROR);
    ck_assert(ak_store_lost(st));
    ck_assert_msg(strstr(ak_store_error(st), "deleted or replaced"), "%s", ak_store_error(st));
    ck_assert_int_eq(ak_store_game_create(st, "classic", 1, 0, 1, 1, NULL, NULL, &game), AK_STORE_ERROR);
    ak_store_close(st);
    /* Replaced by another file: the same. */
    st = ak_store_open(path, err, sizeof err);
    ck_assert_ptr_nonnull(st);
    char other[80];
    snprintf(other, sizeof other, "%s.other", path);
    FILE *f = fopen(other, "w");
    fclose(f);
    ck_assert_int_eq(rename(other, path), 0);
    ck_assert_int_eq(ak_store_user_create(st, "frank", "$argon2id$x", 1, &id), AK_STORE_ERROR);
    ck_assert(ak_store_lost(st));
    ak_store_close(st);
    unlink(path);
    char side[96];
    for (int i = 0; i < 2; i++) {   /* the log and index SQLite left beside the replaced file */
        snprintf(side, sizeof side, "%s%s", path, i ? "-shm" : "-wal");
        unlink(side);
    }
}
END_TEST

/* ud: two buffers of 80, the nonces of actions 1 and 2 as read back
 * ("(null)" for no string at all). */
static int nonces_of_1_and_2(void *ud, uint32_t seq, int side, const char *json, const char *nonce)
{
    (void)side;
    (void)json;
    if (seq == 1 || seq == 2)
        snprintf((char *)ud + (seq - 1) * 80, 80, "%s", nonce ? nonce : "(null)");
    return 0;
}

/* Each action's nonce is stored with it and read back (the dice replay
 * needs it); none is stored as empty. */
START_TEST(nonces_stored)
{
    char err[256], got[2 * 80] = "?";
    snprintf(path, sizeof path, "/tmp/ak-store-nonce-%d.sqlite3", (int)getpid());
    unlink(path);
    struct ak_store *st = ak_store_open(path, err, sizeof err);
    ck_assert_ptr_nonnull(st);
    int64_t game = 0, user;
    ck_assert_int_eq(ak_store_user_create(st, "gina", "$argon2id$x", 1, &user), AK_STORE_OK);
    ck_assert_int_eq(ak_store_game_create(st, "classic", 1, 0, user, 1, NULL, NULL, &game), AK_STORE_OK);
    ck_assert_int_eq(ak_store_game_append(st, game, 1, 0, "{}", NULL, 2, NULL, 0), AK_STORE_OK);
    ck_assert_int_eq(ak_store_game_append(st, game, 2, 1, "{}", "00ff", 2, NULL, 0), AK_STORE_OK);
    memset(got, '?', sizeof got);
    got[79] = got[159] = '\0';
    ck_assert_int_eq(ak_store_actions_each(st, game, nonces_of_1_and_2, got), AK_STORE_OK);
    ck_assert_str_eq(got, "");          /* no nonce: recorded as empty */
    ck_assert_str_eq(got + 80, "00ff");
    ak_store_close(st);
    unlink(path);
}
END_TEST

/* Migration 7: an Elo rating of the ladder becomes a Glicko-2 rating of
 * the classic rules, same number, deviation 200; a player with no rated
 * game gets none. Then a rated game's change goes in with its history. */
START_TEST(elo_ratings_migrate)
{
    char err[256];
    snprintf(path, sizeof path, "/tmp/ak-store-elo-%d.sqlite3", (int)getpid());
    unlink(path);
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(sqlite3_exec(db, ak_migrations[i], NULL, NULL, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(db,
        "PRAGMA user_version = 6;"
        "INSERT INTO users(id, name, pwhash, created, rating, rated_games) VALUES"
        "  (1, 'ann', 'x', 1, 1620, 3), (2, 'ben', 'x', 1, 1500, 0);",
        NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    struct ak_store *st = ak_store_open(path, err, sizeof err);
    ck_assert_ptr_nonnull(st);
    struct ak_store_glicko r;
    ck_assert_int_eq(ak_store_glicko_get(st, 1, "classic", &r), AK_STORE_OK);
    ck_assert(r.rating == 1620 && r.rd == 200 && r.volatility == 0.06 && r.games == 3);
    ck_assert_int_eq(ak_store_glicko_get(st, 2, "classic", &r), AK_STORE_NOT_FOUND);
    struct ak_store_ladder_row rows[4];
    int total = 0;
    ck_assert_int_eq(ak_store_ladder_page(st, "classic", 0, 4, rows, &total), 1);
    ck_assert_int_eq(total, 1);
    ck_assert_str_eq(rows[0].name, "ann");
    ak_store_close(st);
    unlink(path);
}
END_TEST

AK_CHECK_MAIN("store", store, snapshot_migration, elo_ratings_migrate, checkpoints_restart_the_log, numbered_games,
              files_are_private, newer_schema_refused, damaged_file_refused, deleted_file_refuses_commits,
              nonces_stored)
