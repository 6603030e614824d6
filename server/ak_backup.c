/* ak_backup: online backups of the database while akd serves.
 *
 * With backup_dir set, every backup_hours (and on SIGUSR1) akd copies the
 * database into backup_dir/akd-YYYYMMDDTHHMMSSZ.sqlite3 and keeps the last
 * backup_keep of them. A relative backup_dir is taken from the database's
 * directory (the default configuration's "backups" sits beside the
 * database whatever --db says). backup_file, when set, is where SIGUSR1
 * writes instead: one file, overwritten (the older setting, kept for
 * existing configurations).
 *
 * The copy runs on the libuv work queue with a connection of its own, so
 * the loop goes on answering players meanwhile; SQLite's backup API copies
 * in one step, a consistent snapshot even as actions are committed. It is
 * written under a temporary name and renamed when complete, so a backup
 * file that has its final name is whole, and the pruning (also off the
 * loop) only ever counts whole ones. Every file is mode 0600: a backup
 * holds password hashes and the dice secrets of running games.
 *
 * The schedule survives restarts (issue 33): a server restarted more often
 * than backup_hours would otherwise never back up. At start akd reads the
 * time of the newest backup from its name and takes the next one when it
 * is due (a second after start if it is overdue, or there is none); a
 * backup that fails is logged as an error, counted (/metrics), and tried
 * again after RETRY_SECONDS (or backup_hours, if sooner). */
#include <dirent.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ak_server.h"

#define RETRY_SECONDS 600

struct backup_work {
    uv_work_t req;
    struct ak_server *srv;
    char db[512], dir[512], file[600], err[256];
    int keep, pruned, rc;
};

/* akd-20261123T101500Z.sqlite3: the names this code makes and prunes;
 * nothing else in the directory is touched. */
static bool is_backup_name(const char *name)
{
    int y, mo, d, h, mi, s;
    char z, rest[16];
    return strlen(name) == 28 && sscanf(name, "akd-%4d%2d%2dT%2d%2d%2d%c.%15s", &y, &mo, &d, &h, &mi, &s, &z, rest) == 8 &&
           z == 'Z' && strcmp(rest, "sqlite3") == 0;
}

static int by_name(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }
static int backup_filter(const struct dirent *e) { return is_backup_name(e->d_name); }

/* Remove the oldest backups beyond the last keep (names sort by time),
 * never the one just written (a clock set back, or a backup copied in
 * from elsewhere, can give an older copy a later name). */
static int prune(const char *dir, int keep, const char *just)
{
    struct dirent **list;
    int n = scandir(dir, &list, backup_filter, by_name), removed = 0;
    if (n < 0)
        return 0;
    const char *base = strrchr(just, '/') ? strrchr(just, '/') + 1 : just;
    for (int i = 0; i < n; i++) {
        if (removed < n - keep && strcmp(list[i]->d_name, base) != 0) {
            char path[1100];
            snprintf(path, sizeof path, "%s/%s", dir, list[i]->d_name);
            removed += unlink(path) == 0;
        }
        free(list[i]);
    }
    free(list);
    return removed;
}

static void backup_run(uv_work_t *req)
{
    struct backup_work *w = req->data;
    char tmp[620];
    snprintf(tmp, sizeof tmp, "%s.partial", w->file);
    struct ak_store *st = ak_store_open(w->db, w->err, sizeof w->err);
    w->rc = st ? ak_store_backup(st, tmp) : AK_STORE_ERROR;
    ak_store_close(st);
    if (w->rc == AK_STORE_OK && rename(tmp, w->file) != 0) {
        snprintf(w->err, sizeof w->err, "cannot rename the finished copy to its name");
        w->rc = AK_STORE_ERROR;
    }
    if (w->rc != AK_STORE_OK) {
        unlink(tmp);
        return;
    }
    if (w->dir[0])
        w->pruned = prune(w->dir, w->keep, w->file);
}

static void on_backup_timer(uv_timer_t *t);

/* Milliseconds between scheduled backups; 0: none scheduled. */
static uint64_t every_ms(const struct ak_config *cfg)
{
    if (!cfg->backup_dir[0] || cfg->backup_hours <= 0)
        return 0;
    uint64_t every = (uint64_t)(cfg->backup_hours * 3600.0 * 1000.0);
    return every ? every : 1;
}

static void backup_done(uv_work_t *req, int status)
{
    struct backup_work *w = req->data;
    struct ak_server *srv = w->srv;
    uint64_t every = every_ms(&srv->cfg);
    if (status == 0 && w->rc == AK_STORE_OK) {
        ak_log(AK_LOG_INFO, "database backed up to %s%s", w->file, w->pruned ? " (older backups removed)" : "");
        if (w->dir[0])
            srv->backup_last = (int64_t)time(NULL);
    } else {
        srv->backup_failures++;
        bool scheduled = every && w->dir[0];    /* not a SIGUSR1 copy to backup_file */
        uint64_t retry = every < RETRY_SECONDS * 1000u ? every : RETRY_SECONDS * 1000u;
        ak_log(AK_LOG_ERROR, "backup to %s failed%s%s%s", w->file, w->err[0] ? ": " : "", w->err,
               scheduled ? "; tried again in a while" : "");
        if (scheduled)  /* the schedule starts over from the retry */
            uv_timer_start(&srv->backup_timer, on_backup_timer, retry, every);
    }
    srv->backing_up = false;
    free(w);
}

int ak_backup_start(struct ak_server *srv, const char *why)
{
    const struct ak_config *cfg = &srv->cfg;
    if (!cfg->backup_dir[0] && !cfg->backup_file[0]) {
        ak_log(AK_LOG_WARN, "%s: no backup_dir is configured", why);
        return -1;
    }
    if (srv->backing_up) {
        ak_log(AK_LOG_WARN, "%s: a backup is already running", why);
        return -1;
    }
    struct backup_work *w = calloc(1, sizeof *w);
    if (!w)
        return -1;
    w->srv = srv;
    w->req.data = w;
    w->keep = cfg->backup_keep;
    snprintf(w->db, sizeof w->db, "%s", cfg->db);
    if (cfg->backup_dir[0] && !(cfg->backup_file[0] && strcmp(why, "SIGUSR1") == 0)) {
        char when[32];
        time_t t = time(NULL);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(when, sizeof when, "%Y%m%dT%H%M%SZ", &tm);
        snprintf(w->dir, sizeof w->dir, "%s", cfg->backup_dir);
        snprintf(w->file, sizeof w->file, "%s/akd-%s.sqlite3", cfg->backup_dir, when);
    } else {
        snprintf(w->file, sizeof w->file, "%s", cfg->backup_file);
    }
    if (uv_queue_work(srv->loop, &w->req, backup_run, backup_done) != 0) {
        ak_log(AK_LOG_ERROR, "backup to %s could not start", w->file);
        free(w);
        return -1;
    }
    srv->backing_up = true;
    return 0;
}

static void on_usr1(uv_signal_t *sig, int signum)
{
    (void)signum;
    ak_backup_start(sig->data, "SIGUSR1");
}

static void on_backup_timer(uv_timer_t *t)
{
    ak_backup_start(t->data, "scheduled backup");
}

/* When the newest whole backup in dir was made, read from its name (one
 * named later than now, a clock set back or a copy from elsewhere, is not
 * taken for a recent one); 0 if none. */
static int64_t newest_backup(const char *dir)
{
    struct dirent **list;
    int n = scandir(dir, &list, backup_filter, by_name);
    int64_t newest = 0, now = (int64_t)time(NULL);
    for (int i = 0; i < n; i++) {
        struct tm tm = {0};
        if (sscanf(list[i]->d_name, "akd-%4d%2d%2dT%2d%2d%2dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                   &tm.tm_min, &tm.tm_sec) == 6) {
            tm.tm_year -= 1900;
            tm.tm_mon -= 1;
            int64_t t = (int64_t)timegm(&tm);
            if (t <= now && t > newest)
                newest = t;
        }
        free(list[i]);
    }
    if (n >= 0)
        free(list);
    return newest;
}

/* The first scheduled backup: when the newest one falls due, at once (a
 * second after start) when it is overdue or there is none. */
static void schedule(struct ak_server *srv)
{
    uint64_t every = every_ms(&srv->cfg);
    if (srv->cfg.backup_dir[0])
        srv->backup_last = newest_backup(srv->cfg.backup_dir);     /* /metrics' age, scheduled or not */
    if (!every)
        return;
    int64_t now = (int64_t)time(NULL);
    uint64_t age_ms = srv->backup_last ? (uint64_t)(now - srv->backup_last) * 1000u : UINT64_MAX;
    uint64_t first = age_ms >= every ? 1000 : every - age_ms;
    if (srv->backup_last)
        ak_log(AK_LOG_INFO, "the newest backup in %s is %lld s old: the next in %llu s", srv->cfg.backup_dir,
               (long long)(now - srv->backup_last), (unsigned long long)(first / 1000));
    else
        ak_log(AK_LOG_INFO, "no backup in %s yet: one in a second", srv->cfg.backup_dir);
    uv_timer_start(&srv->backup_timer, on_backup_timer, first, every);
}

static int partial_filter(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return strncmp(e->d_name, "akd-", 4) == 0 && n > 8 && strcmp(e->d_name + n - 8, ".partial") == 0;
}

/* A backup cut short (akd killed while copying) left its .partial file:
 * nothing will finish it. */
static void remove_partials(const char *dir)
{
    struct dirent **list;
    int n = scandir(dir, &list, partial_filter, by_name);
    for (int i = 0; i < n; i++) {
        char path[1100];
        snprintf(path, sizeof path, "%s/%s", dir, list[i]->d_name);
        unlink(path);
        free(list[i]);
    }
    if (n >= 0)
        free(list);
}

/* The backup directory is made (private) if missing; a directory akd
 * cannot write is an error at start, not a surprise at the first backup. */
int ak_backup_init(struct ak_server *srv, char *err, size_t cap)
{
    struct ak_config *cfg = &srv->cfg;
    if (cfg->backup_dir[0] && cfg->backup_dir[0] != '/') {
        const char *slash = strrchr(cfg->db, '/');
        char dir[1100];
        snprintf(dir, sizeof dir, "%.*s%s", slash ? (int)(slash - cfg->db + 1) : 0, cfg->db, cfg->backup_dir);
        if (strlen(dir) >= sizeof cfg->backup_dir)
            return snprintf(err, cap, "backup_dir is too long"), -1;
        memcpy(cfg->backup_dir, dir, strlen(dir) + 1);
    }
    if (cfg->backup_dir[0]) {
        mkdir(cfg->backup_dir, 0700);
        remove_partials(cfg->backup_dir);
        if (access(cfg->backup_dir, W_OK | X_OK) != 0)
            return snprintf(err, cap, "backup_dir %s is not a directory akd can write", cfg->backup_dir), -1;
    }
    uv_signal_init(srv->loop, &srv->sigusr1);
    srv->sigusr1.data = srv;
    uv_signal_start(&srv->sigusr1, on_usr1, SIGUSR1);
    uv_timer_init(srv->loop, &srv->backup_timer);
    srv->backup_timer.data = srv;
    schedule(srv);
    return 0;
}

void ak_backup_stop(struct ak_server *srv)
{
    uv_close((uv_handle_t *)&srv->sigusr1, NULL);
    uv_close((uv_handle_t *)&srv->backup_timer, NULL);
}
