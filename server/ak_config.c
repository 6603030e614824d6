/* ak_config: akd's settings.
 *
 * Defaults first, then a file given by --config, then command-line flags;
 * a flag is the key with dashes (--max-connections 500). The file has one
 * "key = value" per line; '#' starts a comment. Keys:
 *
 *   listen            HOST:PORT to listen on
 *   db                SQLite database path
 *   log_level         debug, info, warn or error
 *   sync              full (default): every commit is synced to disk before
 *                     the reply, so an acknowledged action survives a power
 *                     cut; normal: commits reach the operating system before
 *                     the reply (they survive akd being killed, not a power
 *                     cut) and are synced at each checkpoint, far sooner
 *                     to answer on a slow disk
 *   log_file          log here instead of standard error (SIGHUP reopens it)
 *   max_line          longest request line in bytes (256 .. 16 MiB)
 *   max_connections   connections in total (0: no limit)
 *   max_per_address   connections from one address (0: no limit)
 *   idle_timeout      seconds a connection may stay without logging in (0: forever)
 *   rate              requests per second per connection, bursts of twice that (0: no limit)
 *   games_per_user    unfinished games one user may have (0: no limit)
 *   login_failures    failed logins allowed per account and per address ...
 *   login_window      ... in this many seconds before further tries wait
 *   notify_command    program run for notifications (see ak_notify.c)
 *   backup_dir        timestamped online backups go here (ak_backup.c) ...
 *   backup_hours      ... every this many hours (a decimal; 0: only on SIGUSR1)
 *   backup_keep       ... and the last this many are kept
 *   backup_file       without backup_dir: SIGUSR1 writes one backup here
 *   clock_tick_ms     how often deadlines are checked (milliseconds)
 *   health_stuck_seconds  /healthz says 503 once a group commit has been
 *                     writing this long (a disk that hangs, a tool holding
 *                     the write lock)
 *   allow_positions   1: `new` may start a game from a given position (training
 *                     situations, tests); 0 (default): every game is the campaign
 *   tls_cert          PEM certificate chain (leaf first): akd speaks TLS 1.2+
 *   tls_key           ... with this PEM private key; SIGHUP reloads both
 *   max_per_user      connections logged in as one account (0: no limit)
 *   registrations_per_address  accounts made from one address per hour (0: no limit)
 *   session_idle_timeout  seconds a logged-in connection may send nothing
 *                     (clients waiting on pushes send ping; 0: forever)
 *   notify_admins_overdue  1 (default): every admin is told (game_overdue) when a
 *                     game's time runs out with on_expiry wait; 0: only its player
 *   games_keep_days   finished games that last moved more than this many days
 *                     ago are deleted, but a tournament's (0, the default:
 *                     kept for ever; ak_retention.c)
 *   chat_keep_days    chat messages older than this many days are deleted (0,
 *                     the default: kept as long as their game)
 *   delete_games      resign (default) or adjudicate: what becomes of the
 *                     unfinished games of an account deleted (ak_personal.c)
 *   keep_finished     seconds a finished game's state stays in memory after
 *                     its last use (then it is read back when asked for)
 *   rating_tau, rating_volatility, rating_max_rd, rating_period_days,
 *   rating_provisional_rd   Glicko-2 (ak_ladder.c): the system constant, a new
 *                     player's volatility and deviation (also the ceiling), the
 *                     days of inactivity that count as a rating period, and the
 *                     deviation above which a rating is shown as provisional
 *   admins            existing accounts with the admin role, "alice, bob"
 *                     (ak_admin.c: accounts registered after a name was
 *                     configured do not get it; akd --admin-add USER)
 *   vacation_days     days a year a player may pause all his clocks (0: no
 *                     vacations; ak_vacation.c)
 *   digest_hour       the hour (UTC) the daily digests are sent (ak_notify.c)
 *   http_listen       HOST:PORT of the HTTP listener (ak_web.c; none by default)
 *   metrics_allow     the addresses that may read /metrics there
 *                     (default "127.0.0.1, ::1")
 *   web_origins       other origins whose pages may open akd's WebSocket
 *                     ("https://club.example.org, ..."); the page's own
 *                     origin always may, and a client that sends no
 *                     Origin (not a browser) too (ak_web.c)
 *   trusted_proxies   reverse proxies whose word on the client's address
 *                     akd takes (PROXY v2 on the game port, X-Real-IP or
 *                     X-Forwarded-For over HTTP; ak_proxy.c)
 *   web_dir           the browser client's files, served there (default:
 *                     where meson installs them, AKD_WEB_DIR)
 *   updated_crt       the Updated ruleset's combat results table, a file in
 *                     the format of docs/crt-format.md, checked at start
 *   allow_plaintext   1: listen on an address other than loopback without
 *                     TLS (akd refuses to otherwise, and warns when allowed)
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ak_frame.h"
#include "ak_version.h"
#include "ak_server.h"

void ak_config_defaults(struct ak_config *c)
{
    memset(c, 0, sizeof *c);
    c->log_level = AK_LOG_INFO;
    c->sync_full = true;
    c->max_line = AK_FRAME_DEFAULT_LIMIT;
    c->max_connections = 2000;
    c->max_per_address = 200;
    c->idle_timeout = 120;
    c->rate = 200;
    c->rate_per_address = 500;      /* a club night behind one address, at play */
    c->rate_per_user = 400;         /* two clients of one player, at full rate */
    c->writes_per_minute = 60;
    c->output_per_address = 2048;   /* the map 20 times a second; a game 50 times */
    c->notify_per_hour = 30;
    c->notify_admins_overdue = 1;
    snprintf(c->delete_games, sizeof c->delete_games, "resign");
    c->replays_per_second = 20000;  /* actions replayed for records and replays: some 10% of a core */
    c->max_output_anonymous = 1u << 20;     /* the map, a game and its pushes, several times */
    c->max_output_player = 16u << 20;
    c->max_output_total = 256u << 20;
    c->max_watchers_per_game = 500;
    c->max_anonymous_watchers = 500;        /* a quarter of max_connections */
    c->max_anonymous_per_address = 20;
    c->games_per_user = 50;
    c->login_failures = 10;
    c->login_window = 300;
    c->clock_tick_ms = 1000;
    c->health_stuck_seconds = 10;
    c->max_per_user = 20;
    c->registrations_per_address = 20;  /* a club night behind one address (issue 27) */
    c->session_idle_timeout = 600;
    c->keep_finished = 300;
    c->rating_tau = 0.75;
    c->rating_volatility = 0.06;
    c->rating_max_rd = 350;
    c->rating_period_days = 7;
    c->rating_provisional_rd = 110;
    c->backup_hours = 24;
    c->vacation_days = 30;
    c->digest_hour = 7;
    snprintf(c->metrics_allow, sizeof c->metrics_allow, "127.0.0.1, ::1");
    snprintf(c->web_dir, sizeof c->web_dir, "%s", AKD_WEB_DIR);
    c->backup_keep = 7;
}

static int number(const char *value, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(value, &end, 10);
    if (!*value || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int text(char *dst, size_t cap, const char *value)
{
    if (strlen(value) >= cap)
        return -1;
    memcpy(dst, value, strlen(value) + 1);
    return 0;
}

int ak_config_set(struct ak_config *c, const char *key, const char *value, char *err, size_t cap)
{
    static const struct {
        const char *key;
        size_t offset;
        long lo, hi;            /* numbers; lo > hi marks a string */
        size_t size;
    } keys[] = {
#define NUM(k, lo, hi) {#k, offsetof(struct ak_config, k), lo, hi, sizeof(((struct ak_config *)0)->k)}
#define STR(k) {#k, offsetof(struct ak_config, k), 1, 0, sizeof(((struct ak_config *)0)->k)}
        STR(listen), STR(db), STR(log_file), STR(notify_command), STR(backup_file), STR(backup_dir), NUM(backup_keep, 1, 100000),
        NUM(vacation_days, 0, 366), NUM(digest_hour, 0, 23), STR(http_listen), STR(metrics_allow), STR(web_origins), STR(trusted_proxies), STR(web_dir), STR(updated_crt), STR(delete_games),
        STR(tls_cert), STR(tls_key), STR(admins), NUM(allow_plaintext, 0, 1), NUM(max_per_user, 0, 1000000),
        NUM(registrations_per_address, 0, 1000000), NUM(session_idle_timeout, 0, 86400 * 30), NUM(keep_finished, 0, 86400 * 30),
        NUM(max_line, 256, 16 * 1024 * 1024), NUM(max_connections, 0, 1000000),
        NUM(max_per_address, 0, 1000000), NUM(idle_timeout, 0, 86400 * 30),
        NUM(rate, 0, 1000000), NUM(rate_per_address, 0, 10000000), NUM(rate_per_user, 0, 10000000),
        NUM(writes_per_minute, 0, 1000000), NUM(output_per_address, 0, 10000000), NUM(notify_per_hour, 0, 1000000), NUM(notify_admins_overdue, 0, 1), NUM(chat_keep_days, 0, 36500), NUM(games_keep_days, 0, 36500), NUM(replays_per_second, 0, 100000000), NUM(max_output_anonymous, 65536, 1L << 30),
        NUM(max_output_player, 65536, 1L << 30), NUM(max_watchers_per_game, 0, 1000000),
        NUM(max_anonymous_watchers, 0, 1000000), NUM(max_anonymous_per_address, 0, 1000000), NUM(max_output_total, 1L << 20, 1L << 40), NUM(games_per_user, 0, 1000000),
        NUM(login_failures, 1, 1000000), NUM(login_window, 1, 86400 * 30),
        NUM(clock_tick_ms, 10, 3600000), NUM(health_stuck_seconds, 1, 3600), NUM(allow_positions, 0, 1),
        NUM(rating_max_rd, 50, 500), NUM(rating_period_days, 1, 365), NUM(rating_provisional_rd, 0, 500),
#undef NUM
#undef STR
    };
    if (strcmp(key, "sync") == 0) {
        if (strcmp(value, "full") != 0 && strcmp(value, "normal") != 0)
            return snprintf(err, cap, "sync is full or normal"), -1;
        c->sync_full = strcmp(value, "full") == 0;
        return 0;
    }
    if (strcmp(key, "delete_games") == 0 && strcmp(value, "resign") != 0 && strcmp(value, "adjudicate") != 0)
        return snprintf(err, cap, "delete_games is resign or adjudicate"), -1;
    /* Actions are written on a second connection to the same file
     * (ak_writer.c): an in-memory database would be a different one there. */
    if (strcmp(key, "db") == 0 && (strcmp(value, ":memory:") == 0 || strncmp(value, "file:", 5) == 0))
        return snprintf(err, cap, "db must be the path of a database file"), -1;
    if (strcmp(key, "rating_tau") == 0 || strcmp(key, "rating_volatility") == 0) {
        char *end;
        double v = strtod(value, &end);
        bool tau = key[7] == 't';
        if (!*value || *end || (tau ? v < 0.2 || v > 1.5 : v < 0.01 || v > 0.2))
            return snprintf(err, cap, tau ? "rating_tau is a number from 0.2 to 1.5 (lichess: 0.75)"
                                          : "rating_volatility is a number from 0.01 to 0.2 (usually 0.06)"), -1;
        *(tau ? &c->rating_tau : &c->rating_volatility) = v;
        return 0;
    }
    if (strcmp(key, "backup_hours") == 0) {
        char *end;
        double v = strtod(value, &end);
        if (!*value || *end || !(v >= 0 && v <= 24 * 366))
            return snprintf(err, cap, "backup_hours is a number of hours from 0 (only on SIGUSR1) to 8784"), -1;
        c->backup_hours = v;
        return 0;
    }
    if (strcmp(key, "log_level") == 0) {
        c->log_level = ak_log_parse_level(value);
        if (c->log_level < 0)
            return snprintf(err, cap, "log_level is debug, info, warn or error"), -1;
        return 0;
    }
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (strcmp(key, keys[i].key) != 0)
            continue;
        char *field = (char *)c + keys[i].offset;
        long v;
        if (keys[i].lo > keys[i].hi)
            return text(field, keys[i].size, value) == 0
                       ? 0 : (snprintf(err, cap, "%s is too long", key), -1);
        if (number(value, keys[i].lo, keys[i].hi, &v) != 0)
            return snprintf(err, cap, "%s must be a whole number from %ld to %ld", key, keys[i].lo,
                            keys[i].hi), -1;
        if (keys[i].size == sizeof(size_t))
            *(size_t *)(void *)field = (size_t)v;
        else
            *(int *)(void *)field = (int)v;
        return 0;
    }
    snprintf(err, cap, "unknown setting '%s'", key);
    return -1;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

int ak_config_load(struct ak_config *c, const char *path, char *err, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return snprintf(err, cap, "cannot read %s", path), -1;
    char line[1024], why[256];
    int n = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        n++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *l = trim(line);
        if (!*l)
            continue;
        char *eq = strchr(l, '=');
        if (!eq) {
            snprintf(err, cap, "%s:%d: expected key = value", path, n);
            rc = -1;
            break;
        }
        *eq = '\0';
        if (ak_config_set(c, trim(l), trim(eq + 1), why, sizeof why) != 0) {
            snprintf(err, cap, "%s:%d: %s", path, n, why);
            rc = -1;
        }
    }
    fclose(f);
    return rc;
}

const char *ak_list_next(const char *p, char *item, size_t cap)
{
    while (*p == ',' || isspace((unsigned char)*p))
        p++;
    if (!*p)
        return NULL;
    const char *start = p;
    while (*p && *p != ',')
        p++;
    const char *end = p;
    while (end > start && isspace((unsigned char)end[-1]))
        end--;
    size_t n = (size_t)(end - start) < cap ? (size_t)(end - start) : cap - 1;
    memcpy(item, start, n);
    item[n] = '\0';
    return p;
}

bool ak_list_has(const char *list, const char *item)
{
    char one[256];
    if (strncmp(item, "::ffff:", 7) == 0 && strchr(item + 7, '.'))
        item += 7;      /* an IPv4 client on an IPv6 socket */
    for (const char *p = list; (p = ak_list_next(p, one, sizeof one));)
        if (one[0] && strcasecmp(one, item) == 0)
            return true;
    return false;
}
