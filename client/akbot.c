/* akbot: a computer player on akd (issue 31; man akbot(1)).
 *
 * It logs in as an account the operator marked as a computer (akd
 * --computer-add NAME), then for ever: looks at the lobby every
 * poll_seconds (challenges to it, its games), plays whatever waits for it
 * (ak_bot_games.c), and waits for the pushes of its games. A connection
 * that breaks (akd restarting, the network) is made again after 1, 2, 4
 * ... up to 60 seconds; nothing is lost, since the server holds every
 * game and the bot reads each state before it acts. SIGTERM and SIGINT
 * end it between two requests.
 *
 * Settings come from the file given with --config (default
 * /etc/akbot/akbot.conf when it exists, or $AKBOT_CONFIG), then the
 * command line:
 *
 *     server = 127.0.0.1:7140     # HOST:PORT of akd's game port
 *     user = computer             # the account (marked with akd --computer-add)
 *     password_file = /etc/akbot/password   # its password, the first line
 *     tls = auto                  # on, off, auto (TLS unless loopback)
 *     ca = /etc/ssl/club.pem      # trust this CA file for the server's certificate
 *     accept_new = no             # pin a certificate no CA vouches for when first seen
 *     max_games = 20              # unfinished games at once (at most 50); more challenges are declined
 *     games_per_player = 3        # unfinished games with one player
 *     level = 2                   # 1 beginner, 2 standard, 3 strong, when a game names none
 *     seeks = 0                   # open seeks of its own kept in the lobby
 *     seek_ruleset = classic
 *     poll_seconds = 3            # how often it looks for new challenges
 *
 * An unknown key or a bad value stops it with the file and line named.
 * akbot --register creates the account (then the operator marks it).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ak_bot.h"
#include "ak_commit.h"
#include "ak_version.h"

#define DEFAULT_CONFIG "/etc/akbot/akbot.conf"
#define BACKOFF_MAX 60

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
    (void)sig;
    stopping = 1;
}

static void defaults(struct ak_bot_config *c)
{
    *c = (struct ak_bot_config){.tls = AK_TLS_AUTO, .max_games = 20, .games_per_player = 3, .level = 2,
                                .poll_seconds = 3};
    snprintf(c->server, sizeof c->server, "127.0.0.1:7140");
    snprintf(c->user, sizeof c->user, "computer");
    snprintf(c->seek_ruleset, sizeof c->seek_ruleset, "classic");
}

static int read_password(const char *path, struct ak_bot_config *c, char *err, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, cap, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (!fgets(c->password, sizeof c->password, f))
        c->password[0] = '\0';
    fclose(f);
    c->password[strcspn(c->password, "\r\n")] = '\0';
    if (!c->password[0]) {
        snprintf(err, cap, "%s: the first line (the password) is empty", path);
        return -1;
    }
    return 0;
}

static bool number(const char *v, int lo, int hi, int *out)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (!*v || *end || x < lo || x > hi)
        return false;
    *out = (int)x;
    return true;
}

/* One "key = value" setting; false for an unknown key or a bad value. */
static bool setting(struct ak_bot_config *c, const char *k, const char *v, char *err, size_t cap)
{
    int yes = strcmp(v, "yes") == 0, no = strcmp(v, "no") == 0;
    if (strcmp(k, "server") == 0 && strlen(v) < sizeof c->server)
        snprintf(c->server, sizeof c->server, "%s", v);
    else if (strcmp(k, "user") == 0 && strlen(v) < sizeof c->user && *v)
        snprintf(c->user, sizeof c->user, "%s", v);
    else if (strcmp(k, "password_file") == 0 && strlen(v) < sizeof c->password_file && *v)
        snprintf(c->password_file, sizeof c->password_file, "%s", v);   /* read at the end: the last one given */
    else if (strcmp(k, "tls") == 0 && (!strcmp(v, "on") || !strcmp(v, "off") || !strcmp(v, "auto")))
        c->tls = !strcmp(v, "on") ? AK_TLS_ON : !strcmp(v, "off") ? AK_TLS_OFF : AK_TLS_AUTO;
    else if (strcmp(k, "ca") == 0 && strlen(v) < sizeof c->ca)
        snprintf(c->ca, sizeof c->ca, "%s", v);
    else if (strcmp(k, "accept_new") == 0 && (yes || no))
        c->accept_new = yes;
    else if (strcmp(k, "seek_ruleset") == 0 && strlen(v) < sizeof c->seek_ruleset && *v)
        snprintf(c->seek_ruleset, sizeof c->seek_ruleset, "%s", v);
    else if (!(strcmp(k, "max_games") == 0 && number(v, 1, AK_BOT_MAX_GAMES_LIMIT, &c->max_games)) &&
             !(strcmp(k, "games_per_player") == 0 && number(v, 1, AK_BOT_GAMES_MAX, &c->games_per_player)) &&
             !(strcmp(k, "level") == 0 && number(v, 1, AK_AI_LEVELS - 1, &c->level)) &&
             !(strcmp(k, "seeks") == 0 && number(v, 0, 10, &c->seeks)) &&
             !(strcmp(k, "poll_seconds") == 0 && number(v, 1, 3600, &c->poll_seconds))) {
        snprintf(err, cap, "unknown setting or bad value: %s = %s", k, v);
        return false;
    }
    return true;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && strchr(" \t\r\n", s[n - 1]))
        s[--n] = '\0';
    return s;
}

int ak_bot_config_load(const char *path, struct ak_bot_config *c, char *err, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, cap, "%s: %s", path, strerror(errno));
        return -1;
    }
    char line[1024], why[400];
    int at = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        at++;
        line[strcspn(line, "#")] = '\0';
        char *t = trim(line), *eq = strchr(t, '=');
        if (!*t)
            continue;
        if (!eq) {
            snprintf(err, cap, "%s:%d: not \"key = value\"", path, at);
            rc = -1;
            break;
        }
        *eq = '\0';
        if (!setting(c, trim(t), trim(eq + 1), why, sizeof why)) {
            snprintf(err, cap, "%s:%d: %s", path, at, why);
            rc = -1;
        }
    }
    fclose(f);
    return rc;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: akbot [--config FILE] [--server HOST:PORT] [--user NAME] [--password-file FILE]\n"
                 "             [--level 1-3] [--register] [--verbose]\n"
                 "A computer player on akd: it accepts challenges to its account and plays its games.\n"
                 "The settings file (default " DEFAULT_CONFIG ") is described in man akbot.\n");
}

/* Settings: the file, then the command line. 0 to go on, else the exit status. */
static int read_settings(int argc, char **argv, struct ak_bot_config *c, bool *reg)
{
    static const struct option opts[] = {
        {"config", required_argument, NULL, 'c'}, {"server", required_argument, NULL, 's'},
        {"user", required_argument, NULL, 'u'}, {"password-file", required_argument, NULL, 'p'},
        {"level", required_argument, NULL, 'l'}, {"register", no_argument, NULL, 'r'},
        {"verbose", no_argument, NULL, 'v'}, {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'}, {0, 0, 0, 0},
    };
    char err[600];
    /* AKBOT_CONFIG names the default file instead ("": none; the tests) */
    const char *config = getenv("AKBOT_CONFIG") ? getenv("AKBOT_CONFIG") : DEFAULT_CONFIG;
    if (!config[0] || access(config, R_OK) != 0)
        config = NULL;
    int o;
    for (optind = 1; (o = getopt_long(argc, argv, "", opts, NULL)) != -1;)
        if (o == 'c')
            config = optarg;
        else if (o == 'h' || o == 'V' || o == '?') {
            o == 'V' ? printf("akbot %s%s%s%s\n", AK_VERSION, ak_commit[0] ? " (commit " : "", ak_commit, ak_commit[0] ? ")" : "") : usage(o == '?' ? stderr : stdout);
            return o == '?' ? 2 : 1;
        }
    defaults(c);
    if (config && ak_bot_config_load(config, c, err, sizeof err) != 0) {
        fprintf(stderr, "akbot: %s\n", err);
        return 2;
    }
    for (optind = 1; (o = getopt_long(argc, argv, "", opts, NULL)) != -1;) {
        const char *key = o == 's' ? "server" : o == 'u' ? "user" : o == 'p' ? "password_file" : o == 'l' ? "level" : NULL;
        if (key && !setting(c, key, optarg, err, sizeof err)) {
            fprintf(stderr, "akbot: --%s: %s\n", key, err);
            return 2;
        }
        *reg |= o == 'r';
        c->verbose += o == 'v';
    }
    if (!c->password_file[0]) {
        fprintf(stderr, "akbot: no password: give password_file in the settings or --password-file\n");
        return 2;
    }
    if (read_password(c->password_file, c, err, sizeof err) != 0) {
        fprintf(stderr, "akbot: %s\n", err);
        return 2;
    }
    return 0;
}

/* A server whose machine died answers nothing, and a request would wait
 * for ever: data unacknowledged for two minutes (TCP_USER_TIMEOUT), or
 * an idle connection whose probes go unanswered (keepalive), ends the
 * connection, and the bot connects again. */
static void keepalive(int fd)
{
    int on = 1, idle = 60, interval = 10, count = 6;
    unsigned int unacknowledged_ms = 120000;
    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &unacknowledged_ms, sizeof unacknowledged_ms);
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
}

/* Connect and log in (or register); false with the reason logged. *fatal
 * when trying again cannot help (a wrong password, a taken name). */
static bool start(struct ak_bot *b, bool reg, bool *fatal)
{
    char err[600], code[32];
    struct ak_net_opts o = {.tls = b->cfg.tls, .ca_file = b->cfg.ca[0] ? b->cfg.ca : NULL,
                            .accept_new = b->cfg.accept_new};
    if (ak_net_connect(&b->net, b->cfg.server, &o, err, sizeof err) != 0) {
        ak_bot_log(b, "cannot connect to %s: %s", b->cfg.server, err);
        return false;
    }
    keepalive(b->net.fd);
    b->broken = false;
    json_t *r = ak_bot_call(b, json_pack("{s:s,s:s,s:s}", "cmd", reg ? "register" : "login", "user", b->cfg.user,
                                         "password", b->cfg.password), code);
    *fatal = !r && (strcmp(code, "auth_failed") == 0 || strcmp(code, "user_exists") == 0 ||
                    strcmp(code, "bad_request") == 0 || strcmp(code, "banned") == 0);
    if (!r) {
        ak_net_close(&b->net);
        return false;
    }
    json_decref(r);
    ak_bot_log(b, "%s on %s", reg ? "registered" : "logged in", b->cfg.server);
    return true;
}

/* Wait up to ms for pushes (each marks its game); false when the
 * connection broke. */
static bool wait_for_pushes(struct ak_bot *b, int ms)
{
    struct pollfd p = {.fd = b->net.fd, .events = POLLIN};
    if (!ak_net_pending(&b->net) && poll(&p, 1, ms) <= 0)
        return true;
    while (!stopping) {
        json_t *m = ak_net_read(&b->net, 0);
        if (!m)
            return !b->net.closed;
        if (json_object_get(m, "push"))
            ak_bot_push(b, m);
        json_decref(m);
        if (!ak_net_pending(&b->net) && (poll(&p, 1, 0) <= 0 || !(p.revents & POLLIN)))
            return true;
    }
    return true;
}

/* One connection's life: scan, play, wait, until it breaks or a signal. */
static void session(struct ak_bot *b)
{
    time_t scanned = 0, pinged = time(NULL);
    ak_bot_reconnected(b);
    while (!stopping && !b->broken) {
        if (time(NULL) - scanned >= b->cfg.poll_seconds) {
            ak_bot_scan(b);
            scanned = time(NULL);
        }
        ak_bot_play_dirty(b);
        if (time(NULL) - pinged >= AK_PING_MS / 1000) {
            ak_net_ping(&b->net);
            pinged = time(NULL);
        }
        if (!b->broken && !wait_for_pushes(b, 1000))
            b->broken = true;
    }
    ak_net_close(&b->net);
}

/* akbot --register: the account made, or already there with this
 * password: 0; a wrong password or a bad name: 1; akd not reached: 3
 * (scripts/run tries again while akd starts). */
static int register_account(struct ak_bot *b)
{
    bool fatal = false;
    bool done = start(b, true, &fatal);
    if (!done && fatal)        /* taken: ours, when the password logs in */
        done = start(b, false, &fatal);
    if (!done)
        return fatal ? 1 : 3;
    ak_net_close(&b->net);
    printf("akbot: %s is registered; the operator marks it a computer player with akd --computer-add %s\n",
           b->cfg.user, b->cfg.user);
    return 0;
}

int main(int argc, char **argv)
{
    static struct ak_bot bot;
    bool reg = false, fatal = false;
    bot.stopping = &stopping;
    int rc = read_settings(argc, argv, &bot.cfg, &reg);
    if (rc)
        return rc == 1 ? 0 : rc;
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    if (reg)
        return register_account(&bot);
    for (int backoff = 1; !stopping;) {
        if (start(&bot, false, &fatal)) {
            backoff = 1;
            session(&bot);
            if (!stopping)
                ak_bot_log(&bot, "the connection was lost; connecting again");
        } else if (fatal) {
            return 1;
        }
        for (int i = 0; i < backoff && !stopping; i++)
            sleep(1);
        backoff = backoff * 2 > BACKOFF_MAX ? BACKOFF_MAX : backoff * 2;
    }
    ak_bot_log(&bot, "stopped");
    return 0;
}
