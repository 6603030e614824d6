/* ak_store_internal: what the store's files share and nobody else sees:
 * the connection with its cache of prepared statements, and the three
 * helpers every query goes through. ak_store.c holds games, accounts and
 * the schema; ak_store_ratings.c the ratings. */
#ifndef AK_STORE_INTERNAL_H
#define AK_STORE_INTERNAL_H

#include <sqlite3.h>
#include <stdbool.h>

#define STMT_CACHE 48

struct ak_store {
    sqlite3 *db;
    /* Prepared statements, kept by their SQL text's address (every query
     * is a string literal): compiling SQL once, not on every action. */
    struct { const char *sql; sqlite3_stmt *q; } cache[STMT_CACHE];
    int wal_frames;             /* the log's length after the last commit */
    bool lost;                  /* the file was unlinked or replaced: no more commits */
};

/* A prepared statement for sql (a string literal), or NULL. */
sqlite3_stmt *ak_store_prep(struct ak_store *st, const char *sql);
/* Done with a statement from ak_store_prep: ready it for the next use. */
void ak_store_done(struct ak_store *st, sqlite3_stmt *q);
/* Run a statement that returns no rows: AK_STORE_OK, _EXISTS (a
 * constraint) or _ERROR. */
int ak_store_run(struct ak_store *st, sqlite3_stmt *q);
/* ... and AK_STORE_NOT_FOUND when it changed no row. */
int ak_store_run_changed(struct ak_store *st, sqlite3_stmt *q);
/* A number of a row by its id ("SELECT created FROM users WHERE id = ?";
 * a statement without a parameter is run as it is): AK_STORE_OK with
 * *value, AK_STORE_NOT_FOUND, or AK_STORE_ERROR. A flag is one != 0. */
int ak_store_int_of(struct ak_store *st, const char *sql, int64_t id, int64_t *value);
int ak_store_flag_of(struct ak_store *st, const char *sql, int64_t id, bool *flag);

#endif
