/* ak_check: `akd --check DB`, what an operator runs on a database or a
 * backup before trusting it: the file is copied (SQLite's backup API, from
 * a read-only connection, so a live database is read consistently and
 * never changed), the copy opened as akd opens a database (migrations
 * included, so an older backup is checked as it would be used), then
 * SQLite's integrity_check, and every game loaded as akd loads it and
 * replayed from its first action to compare with its stored state and
 * with its snapshot. It
 * prints what it found and exits 0 when all is well, 1 when something is
 * wrong, 2 when the file cannot be read at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "ak_server.h"

/* Open a database to read it without leaving a trace: a file without a
 * write-ahead log beside it (a backup, a stopped akd's database) is opened
 * immutable, so SQLite makes no -wal or -shm file next to it; one with a
 * log (akd may be running on it) is opened read-only as it is. */
static int open_untouched(const char *path, sqlite3 **db)
{
    char wal[1100], uri[3400];
    snprintf(wal, sizeof wal, "%s-wal", path);
    if (access(wal, F_OK) == 0 || strlen(path) > 1000)
        return sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY, NULL);
    size_t n = (size_t)snprintf(uri, sizeof uri, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++)   /* a URI: escape what is not plain */
        n += (size_t)snprintf(uri + n, sizeof uri - n, isalnum(*p) || strchr("/._-~", *p) ? "%c" : "%%%02X", *p);
    snprintf(uri + n, sizeof uri - n, "?immutable=1");
    return sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
}

static int copy_database(const char *from, const char *to, char *err, size_t cap)
{
    sqlite3 *src = NULL, *dst = NULL;
    int rc = -1;
    if (open_untouched(from, &src) != SQLITE_OK) {
        snprintf(err, cap, "cannot open it: %s", src ? sqlite3_errmsg(src) : "out of memory");
    } else if (sqlite3_open(to, &dst) != SQLITE_OK) {
        snprintf(err, cap, "cannot make a scratch copy in %s", to);
    } else {
        sqlite3_backup *b = sqlite3_backup_init(dst, "main", src, "main");
        int step = b ? sqlite3_backup_step(b, -1) : SQLITE_ERROR;
        /* finished whatever happened: an open backup would keep both
         * connections from closing */
        int finish = b ? sqlite3_backup_finish(b) : SQLITE_ERROR;
        if (step == SQLITE_DONE && finish == SQLITE_OK)
            rc = 0;
        else
            snprintf(err, cap, "cannot read it: %s", sqlite3_errmsg(dst));
    }
    sqlite3_close(src);
    sqlite3_close(dst);
    return rc;
}

/* PRAGMA integrity_check: "ok" or the first problem. */
static bool integrity_ok(const char *path, char *what, size_t cap)
{
    sqlite3 *db;
    sqlite3_stmt *q;
    bool ok = false;
    snprintf(what, cap, "cannot run integrity_check");
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &q, NULL) == SQLITE_OK) {
        if (sqlite3_step(q) == SQLITE_ROW) {
            const char *r = (const char *)sqlite3_column_text(q, 0);
            ok = r && strcmp(r, "ok") == 0;
            snprintf(what, cap, "%s", r ? r : "?");
        }
        sqlite3_finalize(q);
    }
    sqlite3_close(db);
    return ok;
}

int ak_check_database(const char *path)
{
    static struct ak_server srv;
    char err[600], scratch[] = "/tmp/akd-check-XXXXXX", copy[64], what[300];
    int problems = 0;
    struct stat st;
    if (access(path, R_OK) != 0) {
        printf("akd --check %s: no such readable file\n", path);
        return 2;
    }
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        printf("akd --check %s: not a file (give the database or a backup, e.g. %s/akd-....sqlite3)\n", path, path);
        return 2;
    }
    if (!mkdtemp(scratch)) {
        printf("akd --check: cannot make a scratch directory in /tmp\n");
        return 2;
    }
    snprintf(copy, sizeof copy, "%s/copy.sqlite3", scratch);
    if (copy_database(path, copy, err, sizeof err) != 0) {
        printf("akd --check %s: %s\n", path, err);
        rmdir(scratch);
        return 2;
    }
    bool intact = integrity_ok(copy, what, sizeof what);
    printf("integrity: %s\n", intact ? "ok" : what);
    problems += !intact;
    ak_config_defaults(&srv.cfg);
    ak_log_set_level(AK_LOG_ERROR);
    srv.store = ak_store_open(copy, err, sizeof err);
    if (!srv.store) {
        printf("schema: %s\n", err);
        problems++;
    } else {
        printf("schema: version %d (this akd's)\n", ak_store_schema_version(srv.store));
        int games = 0, replayed = 0;
        long actions = 0;
        if (ak_games_load(&srv) != 0) {
            printf("games: cannot be listed\n");
            problems++;
        }
        if (srv.skipped_games) {
            printf("games: %d stored games cannot be read (their log or snapshot is damaged)\n", srv.skipped_games);
            problems++;
        }
        for (struct ak_game *g = srv.games; g; g = g->next) {
            static struct ak_state again;
            games++;
            if (!g->state && ak_game_load(&srv, g) != 0) {
                printf("game %lld: cannot be read back\n", (long long)g->id);
                problems++;
                continue;
            }
            if (ak_game_replay(&srv, g, g->state->ruleset, UINT32_MAX, &again, NULL) != 0 ||
                ak_state_hash(&again) != ak_state_hash(g->state)) {
                printf("game %lld: its actions do not replay to its stored state\n", (long long)g->id);
                problems++;
                continue;
            }
            /* The snapshot akd starts from must be what the log gives at
             * its action. */
            static struct ak_state snap, upto;
            uint32_t seq;
            int rc = ak_store_game_snapshot(srv.store, g->id, &seq, &snap, sizeof snap);
            if (rc == AK_STORE_OK &&
                (seq > again.actions ||
                 ak_game_replay(&srv, g, g->state->ruleset, seq, &upto, NULL) != 0 ||
                 ak_state_hash(&upto) != ak_state_hash(&snap))) {
                printf("game %lld: its stored snapshot (after action %u) is not what its log gives%s\n",
                       (long long)g->id, seq, seq > again.actions ? " (the log is shorter)" : "");
                problems++;
                continue;
            }
            replayed++;
            actions += g->state->actions;
        }
        printf("games: %d, %d replayed from their first action to their stored state (%ld actions)\n", games,
               replayed, actions);
        ak_games_free(&srv);
        ak_crt_free(&srv);      /* the tables of the games read */
        ak_store_close(srv.store);
    }
    unlink(copy);
    char side[80];
    snprintf(side, sizeof side, "%s-wal", copy);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", copy);
    unlink(side);
    rmdir(scratch);
    printf("%s: %s\n", path, problems ? "PROBLEMS FOUND" : "all checks passed");
    return problems ? 1 : 0;
}
