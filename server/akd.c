/* akd: the Afrika Korps play server.
 *
 * Reads its settings (defaults, --config FILE, then flags: ak_config.c),
 * opens the store (running migrations), loads every game, listens, and runs
 * the libuv loop. SIGINT or SIGTERM stop it: no new connections, the open
 * ones closed, the store closed, exit 0; every acknowledged action is
 * already committed, so stopping loses nothing. SIGHUP reopens the log
 * file; SIGUSR1 writes an online backup of the database to backup_file.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sodium.h>
#include <signal.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "ak_crt_table.h"
#include "ak_json_pool.h"
#include "ak_server.h"
#include "ak_commit.h"
#include "ak_version.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: akd [--config FILE] [--listen HOST:PORT] [--db PATH] [--SETTING VALUE]...\n"
            "       akd --check DB\n"
            "       akd --help | --version\n"
            "\n"
            "The Afrika Korps play server: referees games by the 1964 rules, stores\n"
            "them in SQLite and pushes changes to players and spectators.\n"
            "\n"
            "  --config FILE            read settings (key = value lines) first; without it,\n"
            "                           $AKD_CONFIG or " AK_DEFAULT_CONFIG " if it exists\n"
            "  --check DB               check a database or a backup (integrity, schema, every\n"
            "                           game replayed to its stored state) and exit: 0 good,\n"
            "                           1 problems found, 2 unreadable\n"
            "  --listen HOST:PORT       address to listen on (e.g. 127.0.0.1:7140)\n"
            "  --db PATH                SQLite database, created if missing\n"
            "  --log-level LEVEL        debug, info (default), warn or error\n"
            "  --log-file PATH          log there (SIGHUP reopens it) instead of stderr\n"
            "  --sync full|normal       sync every commit to disk (default) or only at\n"
            "                           checkpoints (survives akd being killed, not a power cut)\n"
            "  --max-line BYTES         longest request line (default %d)\n"
            "  --max-connections N      connections in total (default 2000, 0: no limit)\n"
            "  --max-per-address N      connections from one address (default 200)\n"
            "  --idle-timeout SECONDS   time to log in before the connection closes (default 120)\n"
            "  --rate N                 requests per second per connection (default 200)\n"
            "  --rate-per-address N     ... per address, all its connections (default 500)\n"
            "  --rate-per-user N        ... per account, all its connections (default 400)\n"
            "  --writes-per-minute N    small writes (settings, chat, ...) per account (default 60)\n"
            "  --output-per-address KIB  KiB of replies per second to one address (default 2048)\n"
            "  --notify-per-hour N      notifications one account may cause others (default 30)\n"
            "  --replays-per-second N   actions replayed for records and replays, in all (default 20000)\n"
            "  --max-output-anonymous BYTES, --max-output-player BYTES, --max-output-total BYTES\n"
            "                           unread output allowed a connection without an account\n"
            "                           (default 1 MiB), a logged-in one (16 MiB), all (256 MiB)\n"
            "  --max-watchers-per-game N  spectators of one game (default 500)\n"
            "  --max-anonymous-watchers N, --max-anonymous-per-address N  spectators without an\n"
            "                           account in all (default 500), from one address (20)\n"
            "  --games-per-user N       unfinished games per user (default 50)\n"
            "  --login-failures N       failed logins per account or address ... (default 10)\n"
            "  --login-window SECONDS   ... within this time before a wait (default 300)\n"
            "  --notify-command PATH    program run for notifications (see akd(8))\n"
            "  --backup-dir DIR         timestamped online backups go there ...\n"
            "  --backup-hours H         ... every H hours (default 24; 0: on SIGUSR1 only)\n"
            "  --backup-keep N          ... the last N kept (default 7)\n"
            "  --backup-file PATH       without --backup-dir: where SIGUSR1 writes a backup\n"
            "  --clock-tick-ms MS       how often deadlines are checked (default 1000)\n"
            "  --health-stuck-seconds N /healthz fails once a commit writes this long (default 10)\n"
            "  --allow-positions 0|1    let `new` start from a given position (default 0)\n"
            "  --tls-cert FILE          PEM certificate chain: speak TLS 1.2+ (SIGHUP reloads)\n"
            "  --tls-key FILE           its PEM private key\n"
            "  --allow-plaintext 0|1    1: listen on a non-loopback address without TLS\n"
            "  --max-per-user N         connections logged in as one account (default 20)\n"
            "  --registrations-per-address N  accounts per address per hour (default 10)\n"
            "  --session-idle-timeout SECONDS  a logged-in connection silent this long is\n"
            "                           closed (default 600; clients send ping)\n"
            "  --admins LIST            existing accounts with the admin role, \"alice, bob\"\n"
            "  --admin-add USER         give an existing account the admin role (with --db), then exit\n"
            "  --admin-remove USER      take it back, then exit\n"
            "  --computer-add USER      mark an existing account as a computer player (akbot's),\n"
            "                           then exit; --computer-remove USER takes it back\n"
            "  --rating-tau X, --rating-volatility X, --rating-max-rd N, --rating-period-days N,\n"
            "  --rating-provisional-rd N   Glicko-2 settings (man akd)\n"
            "  --vacation-days N        days a year a player may pause his clocks (default 30)\n"
            "  --http-listen HOST:PORT  an HTTP listener (HTTPS with --tls-cert): the browser\n"
            "                           client, its WebSocket and /metrics\n"
            "  --web-dir DIR            the browser client's files (default " AKD_WEB_DIR ")\n"
            "  --updated-crt FILE       the Updated ruleset's combat results table\n"
            "                           (docs/crt-format.md), checked at start\n"
            "  --metrics-allow LIST     addresses that may read /metrics (default 127.0.0.1, ::1)\n"
            "  --web-origins LIST       other origins whose pages may open the WebSocket\n"
            "  --trusted-proxies LIST   reverse proxies whose word on the client's address is taken\n"
            "  --digest-hour H          UTC hour of the daily digests (default 7)\n"
            "  --keep-finished SECONDS  a finished game leaves memory after this long\n"
            "                           unused (default 300; read back when asked for)\n",
            AK_FRAME_DEFAULT_LIMIT);
}

static int parse_listen(const char *arg, char *host, size_t cap, int *port)
{
    const char *colon = strrchr(arg, ':');
    if (!colon || colon == arg || (size_t)(colon - arg) >= cap)
        return -1;
    char *end;
    long p = strtol(colon + 1, &end, 10);
    if (*end || p < 0 || p > 65535)
        return -1;
    memcpy(host, arg, (size_t)(colon - arg));
    host[colon - arg] = '\0';
    if (host[0] == '[' && host[strlen(host) - 1] == ']') {
        memmove(host, host + 1, strlen(host));
        host[strlen(host) - 1] = '\0';
    }
    *port = (int)p;
    return 0;
}

/* Everything that runs stops, from the top down: what was accepted this
 * turn is committed and answered first (which may run requests that
 * waited behind it), then the queued costly queries are dropped with
 * their connections. */
static void ak_server_stop(struct ak_server *srv)
{
    ak_tournament_stop(srv);    /* rounds not made: their held games undone */
    ak_accounts_stop(srv);      /* hashes in line dropped */
    if (srv->flusher.data && !uv_is_closing((uv_handle_t *)&srv->flusher))
        ak_batch_stop(srv);
    ak_dispatch_stop(srv);
    ak_server_close_all(srv);
}

static void on_stop(uv_signal_t *sig, int signum)
{
    struct ak_server *srv = sig->data;
    ak_log(AK_LOG_INFO, "signal %d: shutting down", signum);
    srv->stopping = true;
    ak_server_stop(srv);
    uv_close((uv_handle_t *)&srv->sigint, NULL);
    uv_close((uv_handle_t *)&srv->sigterm, NULL);
    uv_close((uv_handle_t *)&srv->sighup, NULL);
    ak_backup_stop(srv);
    ak_web_stop();
    ak_systemd_stopping(srv);
}

/* systemd's credentials (LoadCredential=, $CREDENTIALS_DIRECTORY): a
 * tls_cert or tls_key that is a plain name (no slash) names a credential
 * of the service, a copy of the file that only the service can read,
 * made by systemd at start; the key never has to be readable by akd's
 * user where certbot keeps it (docs/operations.md). */
static void use_credentials(struct ak_config *cfg)
{
    const char *creds = getenv("CREDENTIALS_DIRECTORY");
    char *paths[] = {cfg->tls_cert, cfg->tls_key};
    if (!creds || !*creds)
        return;
    for (int i = 0; i < 2; i++) {
        char full[sizeof cfg->tls_cert];
        if (!paths[i][0] || strchr(paths[i], '/'))
            continue;
        if ((size_t)snprintf(full, sizeof full, "%s/%s", creds, paths[i]) < sizeof full)
            memcpy(paths[i], full, sizeof full);
    }
}

/* The private key is the server's identity: a key others may read is
 * said at start and at every reload (a 0640 key for a group, such as
 * ssl-cert, is the operator's choice and passes). */
static void warn_if_key_readable(const char *key)
{
    struct stat st;
    if (stat(key, &st) == 0 && (st.st_mode & 007))
        ak_log(AK_LOG_WARN, "the TLS key %s is readable by other users (mode %03o): anyone on this machine "
               "could impersonate the server; chmod o-rwx it (or see man akd, PUBLIC ADDRESSES)",
               key, (unsigned)(st.st_mode & 0777));
}

/* Load the certificate and key; NULL (with a message in err) if they
 * cannot be used. */
static struct ak_tls_ctx *load_tls(const struct ak_config *cfg, char *err, size_t errlen)
{
    struct ak_tls_ctx *ctx = ak_tls_ctx_new(cfg->tls_cert, cfg->tls_key, err, errlen);
    if (ctx) {
        warn_if_key_readable(cfg->tls_key);
        char what[400];
        int days = ak_tls_ctx_days_left(ctx);
        ak_tls_ctx_describe(ctx, what, sizeof what);
        ak_log(days < 14 ? AK_LOG_WARN : AK_LOG_INFO, "TLS certificate %s: %s%s", cfg->tls_cert, what,
               days < 0 ? " -- EXPIRED: clients will refuse it" : days < 14 ? " -- expires soon" : "");
    }
    return ctx;
}

static void reload(struct ak_server *srv);

static void on_hup(uv_signal_t *sig, int signum)
{
    struct ak_server *srv = sig->data;
    (void)signum;
    ak_systemd_reloading();
    reload(srv);
    ak_systemd_reloaded();
}

/* SIGHUP: the log file reopened (rotation) and the certificate reloaded
 * (renewal), on the game port and the HTTPS listener. Other settings
 * need a restart. */
static void reload(struct ak_server *srv)
{
    if (ak_log_open(srv->cfg.log_file) != 0)
        ak_log(AK_LOG_ERROR, "cannot reopen the log file %s", srv->cfg.log_file);
    else
        ak_log(AK_LOG_INFO, "log reopened");
    /* A renewed certificate: new connections get it; open ones keep the
     * one they started with. A bad new one leaves the old one in use. */
    if (srv->tls) {
        char err[700];
        struct ak_tls_ctx *ctx = load_tls(&srv->cfg, err, sizeof err);
        if (ctx && ak_tls_ctx_days_left(ctx) < 0 && ak_tls_ctx_days_left(srv->tls) >= 0) {
            ak_tls_ctx_free(ctx);
            ctx = NULL;
            snprintf(err, sizeof err, "the new certificate has expired");
        }
        if (!ctx) {
            ak_log(AK_LOG_ERROR, "SIGHUP: keeping the old certificate: %s", err);
            return;
        }
        ak_tls_ctx_free(srv->tls);
        srv->tls = ctx;
        /* The same files, checked above, for the HTTPS listener. */
        if (srv->cfg.http_listen[0] && ak_web_reload_cert(&srv->cfg, err, sizeof err) != 0)
            ak_log(AK_LOG_ERROR, "SIGHUP: HTTPS keeps its old certificate: %s", err);
    }
}

/* Loopback addresses: 127.0.0.0/8, ::1 and the name localhost. */
static bool is_loopback(const char *host)
{
    return strncmp(host, "127.", 4) == 0 || strcmp(host, "::1") == 0 || strcmp(host, "localhost") == 0;
}

/* No plaintext off loopback, on the game port or the HTTP listener alike,
 * unless allow_plaintext = 1 says something else encrypts the traffic. */
static bool plaintext_allowed(const struct ak_config *cfg, const char *key, const char *host)
{
    if (cfg->tls_cert[0] || is_loopback(host) || cfg->allow_plaintext)
        return true;
    fprintf(stderr, "akd: %s: %s is not a loopback address: players' passwords and sessions would cross "
                    "the network in the clear. Give --tls-cert and --tls-key (see man akd), or set "
                    "allow_plaintext = 1 if something else encrypts the traffic\n", key, host);
    return false;
}

static void warn_plaintext(const struct ak_config *cfg, const char *what, const char *host)
{
    if (!cfg->tls_cert[0] && !is_loopback(host))
        ak_log(AK_LOG_WARN, "%s on %s without TLS (allow_plaintext = 1): passwords and session "
               "tokens cross the network in the clear", what, host);
}

/* Without --config: $AKD_CONFIG if set (empty: no file), else the
 * installed default (/etc/akd/akd.conf for a /usr install) when it exists. */
static int default_config(struct ak_config *cfg)
{
    const char *path = getenv("AKD_CONFIG");
    char err[600];
    if (!path)
        path = access(AK_DEFAULT_CONFIG, F_OK) == 0 ? AK_DEFAULT_CONFIG : "";
    if (!*path)
        return 0;
    if (ak_config_load(cfg, path, err, sizeof err) != 0) {
        fprintf(stderr, "akd: %s\n", err);
        return -1;
    }
    return 0;
}

/* akd --admin-add USER / --admin-remove USER, --computer-add USER /
 * --computer-remove USER: the operation asked for. */
static int admin_op;
static char admin_user[64];

/* The admin role or the computer mark granted to, or taken from, an
 * existing account, on the database of the settings (akd may be running:
 * it asks the database at every admin command, and reads the mark for
 * each game made or joined after; the admin op computer changes the games
 * it holds at once). */
static int admin_command(const struct ak_config *cfg)
{
    char err[600];
    if (!cfg->db[0]) {
        fprintf(stderr, "akd: --admin-add, --admin-remove, --computer-add and --computer-remove need the database "
                "(--db or db in --config)\n");
        return 2;
    }
    struct ak_store *st = ak_store_open(cfg->db, err, sizeof err);
    if (!st || ak_store_verify(st, err, sizeof err) != AK_STORE_OK) {
        fprintf(stderr, "akd: cannot open the database: %s\n", err);
        ak_store_close(st);
        return 1;
    }
    int rc = admin_op == 'a' || admin_op == 'r' ? ak_admin_cli(st, admin_user, admin_op == 'a')
                                                : ak_computer_cli(st, admin_user, admin_op == 'C');
    ak_store_close(st);
    return rc;
}

/* Settings from --config (or the default file) first, then every other
 * flag over them. */
static int read_settings(struct ak_config *cfg, int argc, char **argv)
{
    static const struct option opts[] = {
        {"config", required_argument, NULL, 'c'}, {"listen", required_argument, NULL, 's'},
        {"db", required_argument, NULL, 's'}, {"log-level", required_argument, NULL, 's'},
        {"log-file", required_argument, NULL, 's'}, {"max-line", required_argument, NULL, 's'},
        {"sync", required_argument, NULL, 's'},
        {"max-connections", required_argument, NULL, 's'},
        {"max-per-address", required_argument, NULL, 's'},
        {"idle-timeout", required_argument, NULL, 's'}, {"rate", required_argument, NULL, 's'},
        {"games-per-user", required_argument, NULL, 's'},
        {"login-failures", required_argument, NULL, 's'},
        {"login-window", required_argument, NULL, 's'},
        {"notify-command", required_argument, NULL, 's'},
        {"backup-file", required_argument, NULL, 's'}, {"backup-dir", required_argument, NULL, 's'},
        {"backup-hours", required_argument, NULL, 's'}, {"backup-keep", required_argument, NULL, 's'},
        {"clock-tick-ms", required_argument, NULL, 's'}, {"health-stuck-seconds", required_argument, NULL, 's'},
        {"allow-positions", required_argument, NULL, 's'},
        {"tls-cert", required_argument, NULL, 's'}, {"tls-key", required_argument, NULL, 's'},
        {"allow-plaintext", required_argument, NULL, 's'},
        {"max-per-user", required_argument, NULL, 's'},
        {"registrations-per-address", required_argument, NULL, 's'},
        {"rate-per-address", required_argument, NULL, 's'}, {"rate-per-user", required_argument, NULL, 's'},
        {"writes-per-minute", required_argument, NULL, 's'}, {"output-per-address", required_argument, NULL, 's'},
        {"notify-per-hour", required_argument, NULL, 's'}, {"replays-per-second", required_argument, NULL, 's'},
        {"max-output-anonymous", required_argument, NULL, 's'},
        {"max-output-player", required_argument, NULL, 's'}, {"max-output-total", required_argument, NULL, 's'},
        {"max-watchers-per-game", required_argument, NULL, 's'},
        {"max-anonymous-watchers", required_argument, NULL, 's'},
        {"max-anonymous-per-address", required_argument, NULL, 's'},
        {"session-idle-timeout", required_argument, NULL, 's'},
        {"keep-finished", required_argument, NULL, 's'}, {"notify-admins-overdue", required_argument, NULL, 's'},
        {"delete-games", required_argument, NULL, 's'}, {"chat-keep-days", required_argument, NULL, 's'}, {"games-keep-days", required_argument, NULL, 's'},
        {"admins", required_argument, NULL, 's'}, {"rating-tau", required_argument, NULL, 's'},
        {"rating-volatility", required_argument, NULL, 's'}, {"rating-max-rd", required_argument, NULL, 's'},
        {"rating-period-days", required_argument, NULL, 's'},
        {"rating-provisional-rd", required_argument, NULL, 's'},
        {"vacation-days", required_argument, NULL, 's'}, {"digest-hour", required_argument, NULL, 's'},
        {"http-listen", required_argument, NULL, 's'}, {"metrics-allow", required_argument, NULL, 's'},
        {"web-origins", required_argument, NULL, 's'}, {"trusted-proxies", required_argument, NULL, 's'},
        {"web-dir", required_argument, NULL, 's'}, {"updated-crt", required_argument, NULL, 's'},
        {"check", required_argument, NULL, 'k'},
        {"admin-add", required_argument, NULL, 'a'}, {"admin-remove", required_argument, NULL, 'r'},
        {"computer-add", required_argument, NULL, 'C'}, {"computer-remove", required_argument, NULL, 'R'},
        {"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, 'V'}, {0, 0, 0, 0},
    };
    char err[600];
    ak_config_defaults(cfg);
    bool given = false;
    for (int pass = 0; pass < 2; pass++) {
        int c, index;
        if (pass == 1 && !given && default_config(cfg) != 0)
            return 2;
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, &index)) != -1) {
            if (c == 'h' || c == 'V' || c == '?') {
                if (pass == 0 && c == 'h')
                    usage(stdout);
                if (pass == 0 && c == 'V')
                    printf("akd %s%s%s%s\n", AK_VERSION, ak_commit[0] ? " (commit " : "", ak_commit, ak_commit[0] ? ")" : "");
                if (pass == 0 && c == '?')
                    usage(stderr);
                return c == '?' ? 2 : 0;
            }
            if (c == 'k')       /* akd --check DB: check it and say what was found */
                return pass == 0 ? ak_check_database(optarg) : 0;
            if (c == 'a' || c == 'r' || c == 'C' || c == 'R') {     /* done once the settings (the db) are read */
                admin_op = c;
                snprintf(admin_user, sizeof admin_user, "%s", optarg);
                continue;
            }
            if ((c == 'c') != (pass == 0))
                continue;
            given |= c == 'c';
            if (c == 'c' && ak_config_load(cfg, optarg, err, sizeof err) != 0) {
                fprintf(stderr, "akd: %s\n", err);
                return 2;
            }
            if (c == 's') {
                char key[64];
                snprintf(key, sizeof key, "%s", opts[index].name);
                for (char *k = key; *k; k++)
                    *k = *k == '-' ? '_' : *k;
                if (ak_config_set(cfg, key, optarg, err, sizeof err) != 0) {
                    fprintf(stderr, "akd: --%s: %s\n", opts[index].name, err);
                    return 2;
                }
            }
        }
    }
    if (optind < argc) {
        fprintf(stderr, "akd: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    return -1;
}

/* Descriptors akd needs beside its connections: the database, its log
 * and shared memory on two connections, the lock, the log file, the
 * listeners, the loop's own, the notify command's pipes, a backup. */
#define DESCRIPTORS_SPARE 64

/* The descriptor limit and max_connections agreed (issue 28): the soft
 * limit is raised to what max_connections needs (up to the hard limit);
 * if even that is too low, max_connections is lowered to fit, and said,
 * so that akd refuses the connection it cannot hold at accept with a
 * reply, not with errno 24 somewhere in the middle of a commit. */
static void fit_descriptors(struct ak_config *cfg)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return;
    rlim_t need = cfg->max_connections ? (rlim_t)cfg->max_connections + DESCRIPTORS_SPARE : rl.rlim_max;
    if (rl.rlim_cur < need) {
        rl.rlim_cur = need < rl.rlim_max ? need : rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    if (cfg->max_connections && rl.rlim_cur < need) {
        int fit = rl.rlim_cur > DESCRIPTORS_SPARE * 2 ? (int)(rl.rlim_cur - DESCRIPTORS_SPARE) : (int)(rl.rlim_cur / 2);
        ak_log(AK_LOG_WARN, "max_connections %d needs %llu descriptors and the limit is %llu (LimitNOFILE, ulimit "
               "-n): akd takes %d connections at most", cfg->max_connections, (unsigned long long)need,
               (unsigned long long)rl.rlim_cur, fit);
        cfg->max_connections = fit;
    } else if (!cfg->max_connections) {
        ak_log(AK_LOG_WARN, "max_connections 0 (no limit): past %llu descriptors (LimitNOFILE) connections are "
               "refused at accept", (unsigned long long)rl.rlim_cur);
    }
}

/* The database and its log hold password hashes and the dice secrets of
 * running games: say so if other users can read them. */
static void warn_if_readable(const char *db)
{
    static const char *const suffix[] = {"", "-wal", "-shm"};
    for (int i = 0; i < 3; i++) {
        char path[600];
        struct stat st;
        snprintf(path, sizeof path, "%s%s", db, suffix[i]);
        if (stat(path, &st) == 0 && (st.st_mode & 077))
            ak_log(AK_LOG_WARN, "%s is readable by other users (mode %03o): it holds password hashes "
                   "and dice secrets; chmod 600 it", path, (unsigned)(st.st_mode & 0777));
    }
}

/* One akd per database: an exclusive flock on the database file, held
 * for akd's lifetime (released by the kernel when akd exits, however it
 * exits). SQLite's own locks are POSIX record locks, which flock does not
 * touch; this descriptor is closed only after the store, never before it
 * (closing any descriptor of the file drops the process's POSIX locks). */
static int lock_database(const char *db)
{
    /* taken before SQLite opens (and migrates) the file: made, empty, if
     * it is new (SQLite takes an empty file for a new database); SQLite's
     * own names are left to the store, which says what it thinks of them */
    if (db[0] == ':' || strncmp(db, "file:", 5) == 0)
        return -1;
    int fd = open(db, O_RDONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        int e = errno;
        char why[1600];
        if (ak_store_access_words(db, why, sizeof why))
            fprintf(stderr, "akd: cannot open the database: %s\n", why);
        else
            fprintf(stderr, "akd: cannot open the database %s: %s\n", db, strerror(e));
        return -2;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            fprintf(stderr, "akd: another akd is already running on the database %s; stop it first (one akd "
                            "per database: two would each answer for games the other changes)\n", db);
        else
            fprintf(stderr, "akd: cannot lock the database %s: %s\n", db, strerror(errno));
        close(fd);
        return -2;
    }
    return fd;
}

static void start_signals(struct ak_server *srv)
{
    uv_signal_t *sigs[] = {&srv->sigint, &srv->sigterm, &srv->sighup};
    for (int i = 0; i < 3; i++) {
        uv_signal_init(srv->loop, sigs[i]);
        sigs[i]->data = srv;
    }
    uv_signal_start(&srv->sigint, on_stop, SIGINT);
    uv_signal_start(&srv->sigterm, on_stop, SIGTERM);
    uv_signal_start(&srv->sighup, on_hup, SIGHUP);
}

int main(int argc, char **argv)
{
    static struct ak_server srv;
    ak_server_hook(&srv);
    ak_log_buffer();            /* before anything is written to standard error */
    ak_json_pool_install();     /* before any JSON value: every message is made on this thread */
    int rc = read_settings(&srv.cfg, argc, argv);
    if (rc >= 0)
        return rc;
    if (admin_op)
        return admin_command(&srv.cfg);
    struct ak_config *cfg = &srv.cfg;
    char host[256];
    int port;
    if (!cfg->listen[0] || !cfg->db[0]) {
        fprintf(stderr, "akd: listen and db are required (flags or --config)\n");
        usage(stderr);
        return 2;
    }
    if (parse_listen(cfg->listen, host, sizeof host, &port) != 0) {
        fprintf(stderr, "akd: listen wants HOST:PORT, e.g. 127.0.0.1:7140\n");
        return 2;
    }
    use_credentials(cfg);
    if (!cfg->tls_cert[0] != !cfg->tls_key[0]) {
        fprintf(stderr, "akd: tls_cert and tls_key go together: give both, or neither\n");
        return 2;
    }
    if (!plaintext_allowed(cfg, "listen", host))
        return 2;
    char whost[256] = "";
    int wport = 0;
    if (cfg->http_listen[0] && parse_listen(cfg->http_listen, whost, sizeof whost, &wport) != 0) {
        fprintf(stderr, "akd: http_listen wants HOST:PORT, e.g. 127.0.0.1:8080\n");
        return 2;
    }
    struct sockaddr_storage waddr;
    if (cfg->http_listen[0] && ak_listen_address(whost, wport, &waddr) != 0) {
        fprintf(stderr, "akd: http_listen: %s is not a numeric address (give 127.0.0.1, ::1, 0.0.0.0, :: "
                        "or localhost; akd resolves no host names)\n", whost);
        return 2;
    }
    if (cfg->http_listen[0] && !plaintext_allowed(cfg, "http_listen", whost))
        return 2;
    /* Everything akd creates (database, log, shared memory, backups) is
     * its own: password hashes, dice secrets, names and addresses are not
     * for other users. */
    umask(077);
    ak_log_set_level(cfg->log_level);
    if (ak_log_open(cfg->log_file) != 0) {
        fprintf(stderr, "akd: cannot open the log file %s\n", cfg->log_file);
        return 1;
    }
    fit_descriptors(cfg);
    warn_plaintext(cfg, "listening", host);
    if (cfg->http_listen[0])
        warn_plaintext(cfg, "HTTP", whost);
    if (sodium_init() < 0) {
        fprintf(stderr, "akd: libsodium failed to initialise\n");
        return 1;
    }
    char err[700];
    if (cfg->updated_crt[0] && ak_crt_load_file(&srv, cfg->updated_crt, err, sizeof err) != 0) {
        fprintf(stderr, "akd: %s\n", err);
        return 2;
    }
    if (cfg->tls_cert[0] && !(srv.tls = load_tls(cfg, err, sizeof err))) {
        fprintf(stderr, "akd: %s\n", err);
        return 1;
    }
    int db_lock = lock_database(cfg->db);
    if (db_lock == -2)
        return 1;
    srv.store = ak_store_open(cfg->db, err, sizeof err);
    if (!srv.store || ak_store_verify(srv.store, err, sizeof err) != AK_STORE_OK) {
        fprintf(stderr, "akd: cannot open the database: %s\n", err);
        ak_store_close(srv.store);
        return 1;
    }
    warn_if_readable(cfg->db);
    ak_log(AK_LOG_INFO, "database %s: schema version %d", cfg->db, ak_store_schema_version(srv.store));
    ak_store_set_sync(srv.store, cfg->sync_full);
    if (ak_admin_load(&srv) != 0 || ak_games_load(&srv) != 0 || ak_vacation_load(&srv) != 0) {
        fprintf(stderr, "akd: cannot load the games in %s\n", cfg->db);
        ak_games_free(&srv);
        ak_store_close(srv.store);
        return 1;
    }
    /* A client that hangs up with replies unread makes the next write to
     * its socket fail with EPIPE; by default that would be a SIGPIPE and
     * the end of every game in progress. The write error is handled. */
    signal(SIGPIPE, SIG_IGN);
    srv.loop = uv_default_loop();
    if (ak_batch_start(&srv, err, sizeof err) != 0) {
        fprintf(stderr, "akd: cannot open the database for writing: %s\n", err);
        uv_loop_close(srv.loop);
        ak_games_free(&srv);
        ak_store_close(srv.store);
        return 1;
    }
    rc = ak_server_listen(&srv, host, port);
    if (rc != 0) {
        fprintf(stderr, "akd: cannot listen on %s: %s%s\n", cfg->listen, uv_strerror(rc),
                rc == UV_EINVAL ? " (give a numeric address: 127.0.0.1, ::1, 0.0.0.0, or localhost)" : "");
        uv_close((uv_handle_t *)&srv.listener, NULL);
        ak_batch_stop(&srv);
        uv_run(srv.loop, UV_RUN_DEFAULT);
        uv_loop_close(srv.loop);
        ak_games_free(&srv);
        ak_store_close(srv.store);
        return 1;
    }
    if (ak_backup_init(&srv, err, sizeof err) != 0) {
        fprintf(stderr, "akd: %s\n", err);
        return 1;
    }
    if (cfg->http_listen[0]) {
        if (ak_web_start(&srv, whost, wport, err, sizeof err) != 0) {
            fprintf(stderr, "akd: %s\n", err);
            return 1;
        }
    }
    start_signals(&srv);
    ak_stats_start();
    ak_cron_start(&srv);
    ak_systemd_ready(&srv);
    ak_log(AK_LOG_INFO, "akd %s listening on %s%s, database %s", AK_VERSION, cfg->listen,
           srv.tls ? " (TLS)" : "", cfg->db);
    ak_log_flush();     /* what starting said, before anyone waits for "listening" */
    printf("akd listening on %s\n", cfg->listen);
    fflush(stdout);
    uv_run(srv.loop, UV_RUN_DEFAULT);
    uv_loop_close(srv.loop);
    ak_notify_stop();
    ak_vacation_free();
    ak_games_free(&srv);
    ak_crt_free(&srv);
    ak_store_close(srv.store);
    if (db_lock >= 0)
        close(db_lock);
    ak_tls_ctx_free(srv.tls);
    ak_json_pool_release();
    ak_log(AK_LOG_INFO, "stopped");
    return 0;
}
