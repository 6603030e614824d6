/* ak_metrics: akd's counters in the Prometheus text format (version
 * 0.0.4), for /metrics on the HTTP listener (ak_web.c): connections by
 * kind, players logged in, games by state, actions, pushes, the group
 * commit latency as a histogram, errors answered by code, requests refused
 * for their rate apart from logins and registrations refused by their
 * throttle, connections refused, notifications dropped; akd_build_info;
 * and the process series every Prometheus client exports (start time, CPU,
 * memory, descriptors). Prometheus' conventions (issue 33): counters are
 * totals since akd started and end in _total, rates are left to PromQL
 * (`akc admin stats` keeps its actions per second for a glance), and the
 * states of one metric never overlap (an overdue game is not also
 * counted running). */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ak_server.h"
#include "ak_commit.h"
#include "ak_version.h"

struct text {
    char *buf;
    size_t len, cap;
    bool failed;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct text *t, const char *fmt, ...)
{
    for (int tries = 0; tries < 2 && !t->failed; tries++) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->buf ? t->buf + t->len : NULL, t->buf ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = true;
            return;
        }
        if (t->buf && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap ? t->cap : 4096;
        while (cap <= t->len + (size_t)n)
            cap *= 2;
        char *more = realloc(t->buf, cap);
        if (!more) {
            t->failed = true;
            return;
        }
        t->buf = more;
        t->cap = cap;
    }
}

static void head(struct text *t, const char *name, const char *type, const char *help)
{
    put(t, "# HELP akd_%s %s\n# TYPE akd_%s %s\n", name, help, name, type);
}

void ak_census_take(const struct ak_server *srv, struct ak_census *n)
{
    memset(n, 0, sizeof *n);
    for (const struct ak_conn *c = srv->conns; c; c = c->next) {
        n->tls += c->tls != NULL;
        n->ws += c->ws != NULL;
        n->tcp += c->tls == NULL && c->ws == NULL;
        bool seen = false;      /* a player counts once, however many connections */
        for (const struct ak_conn *o = srv->conns; o != c && !seen; o = o->next)
            seen = o->user && o->user == c->user;
        n->players += c->user && !seen;
    }
    for (const struct ak_game *g = srv->games; g; g = g->next) {
        if (g->creating)
            continue;
        if (strcmp(g->meta.status, "active") != 0)
            n->called_off++;
        else if (ak_game_brief_of(g).phase == AK_PHASE_OVER)
            n->finished++;
        else if (ak_game_open(g))
            n->open++;
        else {
            n->running++;
            n->overdue += g->overdue;   /* only a running game waits for an operator */
        }
    }
}

static void census(struct text *t, const struct ak_server *srv)
{
    struct ak_census n;
    ak_census_take(srv, &n);
    head(t, "connections", "gauge", "Connections open, by kind.");
    put(t, "akd_connections{kind=\"tcp\"} %d\nakd_connections{kind=\"tls\"} %d\nakd_connections{kind=\"websocket\"} %d\n",
        n.tcp, n.tls, n.ws);
    head(t, "players_logged_in", "gauge", "Accounts with at least one logged-in connection.");
    put(t, "akd_players_logged_in %d\n", n.players);
    head(t, "games", "gauge", "Games by state, each game in one (overdue: waiting for an operator, not running).");
    put(t, "akd_games{state=\"open\"} %d\nakd_games{state=\"running\"} %d\nakd_games{state=\"overdue\"} %d\n"
           "akd_games{state=\"finished\"} %d\nakd_games{state=\"called_off\"} %d\n",
        n.open, n.running - n.overdue, n.overdue, n.finished, n.called_off);   /* overdue: of the running */
}

/* The descriptors open now: the entries of /proc/self/fd (less the one
 * reading it). -1 where there is no /proc. */
static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n - 1;
}

/* The process_* series of Prometheus' client libraries. */
static void process_series(struct text *t, int64_t started)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
                 ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
    put(t, "# HELP process_start_time_seconds Start time of the process since the epoch.\n"
           "# TYPE process_start_time_seconds gauge\nprocess_start_time_seconds %lld\n", (long long)started);
    put(t, "# HELP process_cpu_seconds_total User and system CPU time spent.\n"
           "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total %.3f\n", cpu);
    long pages_virtual = 0, pages_resident = 0, page = sysconf(_SC_PAGESIZE);
    FILE *f = fopen("/proc/self/statm", "r");
    if (f && fscanf(f, "%ld %ld", &pages_virtual, &pages_resident) == 2)
        put(t, "# HELP process_resident_memory_bytes Resident memory size.\n# TYPE process_resident_memory_bytes gauge\n"
               "process_resident_memory_bytes %ld\n# HELP process_virtual_memory_bytes Virtual memory size.\n"
               "# TYPE process_virtual_memory_bytes gauge\nprocess_virtual_memory_bytes %ld\n",
            pages_resident * page, pages_virtual * page);
    if (f)
        fclose(f);
    int fds = open_fds();
    if (fds >= 0)
        put(t, "# HELP process_open_fds Open file descriptors.\n# TYPE process_open_fds gauge\nprocess_open_fds %d\n",
            fds);
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        put(t, "# HELP process_max_fds Maximum open file descriptors.\n# TYPE process_max_fds gauge\n"
               "process_max_fds %llu\n", (unsigned long long)rl.rlim_cur);
}

/* The database file and its write-ahead log, in bytes: a WAL that keeps
 * growing means checkpoints are held up (two stat calls a scrape). */
static void database_size(struct text *t, const struct ak_server *srv)
{
    static const char *const part[2] = {"main", "wal"};
    char path[sizeof srv->cfg.db + 8];
    head(t, "database_bytes", "gauge", "Size of the database file (main) and of its write-ahead log (wal).");
    for (int i = 0; i < 2; i++) {
        struct stat st;
        snprintf(path, sizeof path, "%s%s", srv->cfg.db, i ? "-wal" : "");
        put(t, "akd_database_bytes{file=\"%s\"} %lld\n", part[i], stat(path, &st) == 0 ? (long long)st.st_size : 0LL);
    }
}

/* When the certificate expires (the game port's and, with an HTTPS
 * listener, the same tls_cert there: both load it at start and on SIGHUP).
 * Absent without TLS. */
static void certificate_expiry(struct text *t, const struct ak_server *srv)
{
    long long until = srv->tls ? ak_tls_ctx_not_after(srv->tls) : -1;
    if (until < 0)
        return;
    head(t, "tls_cert_expiry_timestamp_seconds", "gauge", "When tls_cert expires, seconds since the epoch, by listener.");
    put(t, "akd_tls_cert_expiry_timestamp_seconds{listener=\"game\"} %lld\n", until);
    if (srv->cfg.http_listen[0])
        put(t, "akd_tls_cert_expiry_timestamp_seconds{listener=\"https\"} %lld\n", until);
}

char *ak_metrics_text(struct ak_server *srv, size_t *len)
{
    struct text t = {0};
    struct ak_stats s;
    ak_stats_read(&s);
    head(&t, "build_info", "gauge", "The version of akd running and the commit it was built from (always 1).");
    put(&t, "akd_build_info{version=\"%s\",commit=\"%s\"} 1\n", AK_VERSION, ak_commit);
    census(&t, srv);
    head(&t, "actions_total", "counter", "Actions committed since akd started.");
    put(&t, "akd_actions_total %llu\n", (unsigned long long)s.actions);
    head(&t, "pushes_total", "counter", "Pushes sent to watchers (one per watcher) since akd started.");
    put(&t, "akd_pushes_total %llu\n", (unsigned long long)s.pushes);
    head(&t, "commit_latency_seconds", "histogram", "Time each group commit took to reach the disk.");
    for (int b = 0; b < AK_STATS_BUCKETS; b++)
        put(&t, "akd_commit_latency_seconds_bucket{le=\"%g\"} %llu\n", ak_stats_bucket_ms[b] / 1000.0,
            (unsigned long long)s.histogram[b]);
    put(&t, "akd_commit_latency_seconds_bucket{le=\"+Inf\"} %llu\n", (unsigned long long)s.histogram[AK_STATS_BUCKETS]);
    put(&t, "akd_commit_latency_seconds_sum %.6f\nakd_commit_latency_seconds_count %llu\n", s.latency_sum_ms / 1000.0,
        (unsigned long long)s.commits);
    head(&t, "errors_total", "counter", "Error replies since akd started, by code.");
    uint64_t limited = 0;
    for (int i = 0; i < s.nerrors; i++) {
        put(&t, "akd_errors_total{code=\"%s\"} %llu\n", s.error_code[i], (unsigned long long)s.error_count[i]);
        if (strcmp(s.error_code[i], "rate_limited") == 0)
            limited = s.error_count[i];
    }
    /* rate_limited answers both: the logins' share is counted apart */
    uint64_t logins = s.logins_throttled;      /* each also answered rate_limited, once */
    head(&t, "rate_limited_total", "counter", "Requests refused for their connection's, address's or account's rate.");
    put(&t, "akd_rate_limited_total %llu\n", (unsigned long long)(limited > logins ? limited - logins : 0));
    head(&t, "logins_throttled_total", "counter",
         "Logins refused for failed guesses, and registrations over registrations_per_address.");
    put(&t, "akd_logins_throttled_total %llu\n", (unsigned long long)logins);
    head(&t, "logins_total", "counter", "Sessions started by a password (akc login, the page) since akd started.");
    put(&t, "akd_logins_total %llu\n", (unsigned long long)s.logins);
    head(&t, "registrations_total", "counter", "Accounts made since akd started.");
    put(&t, "akd_registrations_total %llu\n", (unsigned long long)s.registrations);
    head(&t, "games_finished_total", "counter", "Games that ended since akd started, by result.");
    put(&t, "akd_games_finished_total{result=\"axis_wins\"} %llu\nakd_games_finished_total{result=\"allied_wins\"} %llu\n"
            "akd_games_finished_total{result=\"draw\"} %llu\n",
        (unsigned long long)s.finished[0], (unsigned long long)s.finished[1], (unsigned long long)s.finished[2]);
    head(&t, "refused_connections_total", "counter", "Connections refused at accept (over a connection limit).");
    put(&t, "akd_refused_connections_total %llu\n", (unsigned long long)s.refused);
    head(&t, "notifications_dropped_total", "counter",
         "Notifications dropped: the queue full, a player's share full, or a sender over notify_per_hour.");
    put(&t, "akd_notifications_dropped_total %llu\n", (unsigned long long)ak_notify_dropped());
    head(&t, "notifications_waiting", "gauge", "Notifications queued or being delivered now.");
    put(&t, "akd_notifications_waiting %d\n", ak_notify_waiting());
    head(&t, "unbudgeted_total", "counter", "Requests let through on their connection's rate alone: no room left "
         "in the tables of address and account budgets.");
    put(&t, "akd_unbudgeted_total %llu\n", (unsigned long long)ak_budget_unbudgeted());
    if (srv->backup_last) {
        head(&t, "backup_age_seconds", "gauge", "Age of the newest whole backup in backup_dir.");
        put(&t, "akd_backup_age_seconds %lld\n", (long long)(time(NULL) - srv->backup_last));   /* the names' clock */
    }
    head(&t, "backup_failures_total", "counter", "Backups that failed since akd started (each is tried again).");
    put(&t, "akd_backup_failures_total %llu\n", (unsigned long long)srv->backup_failures);
    database_size(&t, srv);
    certificate_expiry(&t, srv);
    head(&t, "uptime_seconds", "gauge", "Seconds since akd started.");
    put(&t, "akd_uptime_seconds %lld\n", (long long)s.uptime);
    process_series(&t, s.started);
    if (t.failed) {
        free(t.buf);
        return NULL;
    }
    *len = t.len;
    return t.buf;
}
