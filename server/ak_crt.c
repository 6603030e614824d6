/* ak_crt: the combat results tables akd holds for games of the Updated
 * ruleset (seed 003, whose table the operator enters: docs/crt-format.md).
 *
 * The operator's table (updated_crt) is read and checked whole at start,
 * so that a mistyped cell stops akd with its line instead of a game. Every
 * game started afterwards is fought on it: the game's row names it by its
 * digest (games.crt_digest) and its text is stored once in crt_tables, in
 * the same transaction as the game (ak_lobby.c). A game keeps its table
 * for life: when the operator edits the file, the games already started
 * are loaded with the table they began on, read back from crt_tables, so
 * that their battles replay as they were fought and their records (which
 * carry the text) verify. The engine finds a game's table through its
 * state (ak_crt_attach); the tables live as long as akd.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_crt_table.h"
#include "ak_engine.h"
#include "ak_record.h"
#include "ak_server.h"
#include "ak_store.h"


/* Parse text into a new held table (kept by srv); NULL with why. */
static const struct ak_crt_held *hold(struct ak_server *srv, const char *text, char *why, size_t cap)
{
    struct ak_crt_held *h = calloc(1, sizeof *h), **more;
    if (!h || !(h->text = strdup(text)) ||
        !(more = realloc(srv->crts, sizeof *srv->crts * (size_t)(srv->ncrts + 1)))) {
        if (h)
            free(h->text);
        free(h);
        snprintf(why, cap, "out of memory");
        return NULL;
    }
    srv->crts = more;
    if (ak_crt_table_parse(&h->table, text, why, (int)cap)) {
        free(h->text);
        free(h);
        return NULL;
    }
    ak_crt_digest(text, strlen(text), h->digest);
    srv->crts[srv->ncrts++] = h;
    return h;
}

int ak_crt_load_file(struct ak_server *srv, const char *path, char *err, size_t cap)
{
    static char text[AK_RECORD_CRT_MAX];
    FILE *f = fopen(path, "r");
    if (!f)
        return snprintf(err, cap, "updated_crt %s: %s", path, strerror(errno)), -1;
    size_t n = fread(text, 1, sizeof text, f);
    bool too_long = n == sizeof text, failed = ferror(f);
    fclose(f);
    if (failed || too_long)
        return snprintf(err, cap, "updated_crt %s: %s", path, failed ? "cannot be read" : "longer than 256 KiB"), -1;
    text[n] = '\0';
    if (memchr(text, '\0', n))
        return snprintf(err, cap, "updated_crt %s: not a text file", path), -1;
    char why[300];
    const struct ak_crt_held *h = hold(srv, text, why, sizeof why);
    if (!h)
        return snprintf(err, cap, "updated_crt %.300s: %s", path, why), -1;
    srv->updated_crt = h;
    /* Its slot in the engine first, so that new games always find one
     * however many older tables games are loaded with. */
    static struct ak_state first;
    ak_crt_attach(&first, &h->table);
    ak_log(AK_LOG_INFO, "updated_crt %s: \"%s\", %d columns, modified rolls %d to %d, digest %.16s", path,
           h->table.name, h->table.ncolumns, h->table.row_min, h->table.row_max, h->digest);
    return 0;
}

const struct ak_crt_held *ak_crt_by_digest(struct ak_server *srv, const char *digest)
{
    for (int i = 0; i < srv->ncrts; i++)
        if (strcmp(srv->crts[i]->digest, digest) == 0)
            return srv->crts[i];
    char *text = NULL, why[300];
    int rc = ak_store_crt_text(srv->store, digest, &text);
    if (rc != AK_STORE_OK) {
        ak_log(AK_LOG_ERROR, "combat results table %.16s: %s", digest,
               rc == AK_STORE_NOT_FOUND ? "not in the database" : ak_store_error(srv->store));
        return NULL;
    }
    const struct ak_crt_held *h = hold(srv, text, why, sizeof why);
    free(text);
    if (!h)
        ak_log(AK_LOG_ERROR, "combat results table %.16s in the database cannot be used: %s", digest, why);
    else if (strcmp(h->digest, digest) != 0)
        ak_log(AK_LOG_ERROR, "combat results table %.16s in the database is another table (%.16s)", digest,
               h->digest);
    else
        ak_log(AK_LOG_INFO, "combat results table %.16s (\"%s\"), an earlier updated_crt, kept for the games "
               "started on it", digest, h->table.name);
    return h && strcmp(h->digest, digest) == 0 ? h : NULL;
}

void ak_crt_free(struct ak_server *srv)
{
    for (int i = 0; i < srv->ncrts; i++) {
        free(srv->crts[i]->text);
        free(srv->crts[i]);
    }
    free(srv->crts);
    srv->crts = NULL;
    srv->ncrts = 0;
    srv->updated_crt = NULL;
}
