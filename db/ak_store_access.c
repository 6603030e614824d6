/* ak_store_access: why akd cannot open its database, in words an operator
 * can act on. SQLite says "unable to open database file" whether the file
 * belongs to someone else, its mode shuts akd out, or the directory will
 * not let it create the -wal and -shm files beside it; a restore done as
 * root under a service's own user (DynamicUser) is the usual cause
 * (docs/operations.md, "Restore"). Asked only after an open failed. */
#include <errno.h>
#include <grp.h>
#include <libgen.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ak_store.h"
#include "ak_store_internal.h"

static const char *user_name(uid_t uid, char *buf, size_t len)
{
    struct passwd *pw = getpwuid(uid);
    if (pw)
        snprintf(buf, len, "%s (uid %u)", pw->pw_name, (unsigned)uid);
    else
        snprintf(buf, len, "uid %u", (unsigned)uid);
    return buf;
}

/* "PATH belongs to root (uid 0), mode 0600": what stat says of it. */
static void describe(const char *path, const struct stat *st, char *buf, size_t len)
{
    char who[64];
    snprintf(buf, len, "%s belongs to %s, mode %04o", path, user_name(st->st_uid, who, sizeof who),
             (unsigned)(st->st_mode & 07777));
}

bool ak_store_access_words(const char *path, char *out, size_t len)
{
    char dir_copy[1024], what[1200], me[64];
    snprintf(dir_copy, sizeof dir_copy, "%s", path);
    const char *dir = dirname(dir_copy);
    struct stat fst, dst;
    user_name(geteuid(), me, sizeof me);
    if (stat(dir, &dst) != 0) {
        snprintf(out, len, "the directory %s of the database cannot be used: %s", dir, strerror(errno));
        return true;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        describe(dir, &dst, what, sizeof what);
        snprintf(out, len, "%s, and akd runs as %s: akd must be able to create files there (the database's "
                 "-wal and -shm files beside it); give the directory to akd's user", what, me);
        return true;
    }
    if (stat(path, &fst) != 0)
        return false;       /* not there: SQLite creates it, the directory allows it */
    if (access(path, R_OK | W_OK) != 0) {
        describe(path, &fst, what, sizeof what);
        snprintf(out, len, "%s, and akd runs as %s, who may not read and write it; give it to akd's user "
                 "(chown --reference=%s %s: the directory's owner) with mode 0600", what, me, dir, path);
        return true;
    }
    return false;
}
