/* load: a load generator for akd.
 *
 * Opens N connections to a running akd on loopback and plays M concurrent
 * games between two bot accounts with legal actions (each side in turn ends
 * its movement portion and its player turn, from a small starting position,
 * so every action is refereed, committed and pushed), while the other
 * connections watch the games as spectators. Each game keeps one request
 * in flight. Without a rate each game sends its next action as soon as the
 * last is answered (the most akd can referee); with RATE actions per second
 * in all, each game acts on a fixed schedule (RATE / GAMES per second) and
 * latency counts from the scheduled time, so a late reply also delays (and
 * is charged for) the actions behind it. Prints requests per second and
 * latency at p50, p99 and max, the pushes delivered, and akd's resident
 * memory per game and per connection (from /proc).
 *
 * MOVES (0, 2 or 4) is how many moves each player makes in his movement
 * portion before ending it: one unit steps to the next square and back
 * (each move is refereed like any other: route, zones, movement points).
 * With 0 every action is a portion's end, the heaviest action there is
 * (supply, isolation, arrivals, victory checks); real turns are mostly
 * moves.
 *
 * With LOAD_FLOOD=N, N more connections flood akd while the games play,
 * each keeping FLOOD_DEPTH requests in flight: the latency of the players'
 * actions then shows what a flood costs them. They come from FLOOD_ADDRS
 * other loopback addresses (127.0.0.2 on), as strangers would, and
 * LOAD_FLOOD_KIND says what they send (flood_kinds below): the costliest
 * queries (costly, the default, logged in), small writes (settings,
 * vacation, chat), large reads (chat_read, show, hello, map), or, without
 * reading their replies, watchers of the first game (watch) and map
 * requests (map_noread); listings (games, ladder, player); accounts
 * (login with wrong passwords, register, new games); side bids (bid). Flooders log in as FLOOD_ACCOUNTS accounts of
 * their own; akd may refuse or close them (that is its defence at work):
 * refusals are counted, a closed flooder stops.
 *
 * With LOAD_TLS=1 every connection speaks TLS (akd started with a
 * certificate; the generator does not check it: it measures, it does not
 * guard anything).
 *
 * usage: load HOST:PORT AKD-PID POSITION.json CONNECTIONS GAMES SECONDS [RATE [MOVES]]
 * (scripts/load-bench starts akd and runs it.)
 */
#define _GNU_SOURCE     /* memmem */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct conn {
    int fd;
    SSL *ssl;               /* LOAD_TLS: the connection's TLS, else NULL */
    char buf[1 << 16];
    size_t len;
    int game;               /* index into games, -1: none yet */
    int side;               /* 0 axis, 1 allied, -1 spectator */
    double sent;            /* when the request in flight was sent (paced: due), 0: none */
    double written;         /* when it was actually written */
    char tail[11];          /* an HTTP flooder: the end of its last read (http_replies) */
    size_t ntail;
};

enum { PLAYING, CREATING, JOINING };

struct game {
    long id;                /* akd's game number, 0 while being created */
    int step;               /* actions applied in this round */
    int conn[2];            /* the two players' connections */
    int phase;              /* PLAYING, or waiting for `new` or `join` */
    double due;             /* paced: when its next action is scheduled */
    bool waiting;           /* paced: answered, the next action not yet sent */
};

static struct conn *C;
static struct game *G;
static int nconn, ngames;
static double *lat, *lat_written;    /* from the schedule (or the send), from the write */
static int moves;           /* per player turn, before its end */
static double interval;     /* paced: seconds between one game's actions; 0: as fast as answered */
static long nlat, cap_lat, pushes, errors, finished, finished_actions;
static char *position;
static char token[2][80];

static SSL_CTX *tls;        /* LOAD_TLS=1 */
#define FLOODER (-2)        /* conn.side of a flooding connection */
#define FLOOD_DEPTH 4
#define FLOOD_ADDRS 10
#define FLOOD_ACCOUNTS 10
static int nflood, flood_closed;
static long flood_replies, flood_refused;

/* What a flooder sends: its request (%ld: the first game's number, %u a
 * counter), whether it logs in first and whether it reads its replies. */
static const struct flood_kind {
    const char *name;
    const char *lines[2];   /* alternated */
    bool login, reads, once;    /* once: one request, then silence (it only holds its place) */
    bool http;                  /* to akd's HTTP listener (LOAD_HTTP_PORT), replies counted by status line */
} flood_kinds[] = {
    {"costly", {"{\"id\":0,\"cmd\":\"options\",\"game\":%ld}\n",
                "{\"id\":0,\"cmd\":\"dests\",\"game\":%ld,\"units\":[\"bologna\"]}\n"}, true, true, false, false},
    {"settings", {"{\"id\":0,\"cmd\":\"settings\",\"chat\":\"off\",\"g\":%ld}\n",
                  "{\"id\":0,\"cmd\":\"settings\",\"chat\":\"on\",\"g\":%ld}\n"}, true, true, false, false},
    {"vacation", {"{\"id\":0,\"cmd\":\"vacation\",\"days\":1,\"g\":%ld}\n",
                  "{\"id\":0,\"cmd\":\"vacation\",\"end\":true,\"g\":%ld}\n"}, true, true, false, false},
    {"chat", {"{\"id\":0,\"cmd\":\"chat\",\"game\":%ld,\"text\":\"flood\"}\n",
              "{\"id\":0,\"cmd\":\"chat\",\"game\":%ld,\"text\":\"flood\"}\n"}, true, true, false, false},
    {"chat_read", {"{\"id\":0,\"cmd\":\"chat\",\"game\":%ld}\n", NULL}, true, true, false, false},
    {"export", {"{\"id\":0,\"cmd\":\"account\",\"op\":\"export\",\"g\":%ld}\n", NULL}, true, true, false, false},
    /* chat moderation: a line said, then a report of message number %u (a counter: the first
     * ones are the flood's own lines, reported by the others; later ones mostly do not exist) */
    {"report", {"{\"id\":0,\"cmd\":\"chat\",\"game\":%ld,\"text\":\"flood\"}\n",
                "{\"id\":0,\"cmd\":\"chat_report\",\"reason\":\"g%ld\",\"message\":%u}\n"}, true, true, false, false},
    {"hello", {"{\"id\":0,\"cmd\":\"hello\",\"g\":%ld}\n", NULL}, false, true, false, false},
    {"show", {"{\"id\":0,\"cmd\":\"show\",\"game\":%ld}\n", NULL}, false, true, false, false},
    {"map", {"{\"id\":0,\"cmd\":\"map\",\"g\":%ld}\n", NULL}, false, true, false, false},
    {"map_noread", {"{\"id\":0,\"cmd\":\"map\",\"g\":%ld}\n", NULL}, false, false, false, false},
    {"watch", {"{\"id\":0,\"cmd\":\"watch\",\"game\":%ld}\n", NULL}, false, false, true, false},
    {"games", {"{\"id\":0,\"cmd\":\"games\",\"g\":%ld}\n", NULL}, true, true, false, false},
    {"overlay", {"{\"id\":0,\"cmd\":\"overlay\",\"game\":%ld}\n", NULL}, false, true, false, false},
    {"record", {"{\"id\":0,\"cmd\":\"record\",\"game\":%ld}\n", NULL}, false, true, false, false},
    {"replay", {"{\"id\":0,\"cmd\":\"replay\",\"game\":%ld,\"at\":1}\n", NULL}, false, true, false, false},
    {"ladder", {"{\"id\":0,\"cmd\":\"ladder\",\"g\":%ld}\n", NULL}, false, true, false, false},
    {"player", {"{\"id\":0,\"cmd\":\"player\",\"user\":\"loadflood1\",\"g\":%ld}\n", NULL}, true, true, false, false},
    {"login", {"{\"id\":0,\"cmd\":\"login\",\"user\":\"loadflood1\",\"password\":\"guess-%ld-%u\"}\n", NULL},
     false, true, false, false},
    {"register", {"{\"id\":0,\"cmd\":\"register\",\"user\":\"new%ld_%u\",\"password\":\"password-%u\"}\n",
                  NULL}, false, true, false, false},
    {"new", {"{\"id\":0,\"cmd\":\"new\",\"side\":\"axis\",\"g\":%ld}\n", NULL}, true, true, false, false},
    /* side bids (issue 32): seeks opened with a bid, and bids on the first game, where the
     * flooder has no seat (refused before any work) */
    {"bid", {"{\"id\":0,\"cmd\":\"new\",\"side\":\"axis\",\"bid\":1,\"g\":%ld}\n",
             "{\"id\":0,\"cmd\":\"bid\",\"game\":%ld,\"supply\":%u}\n"}, true, true, false, false},
    /* the HTTP listener (issue 33): the page's own file and /healthz, alternated, on
     * keep-alive connections from strangers' addresses */
    {"http", {"GET / HTTP/1.1\r\nHost: akd\r\n\r\n", "GET /healthz HTTP/1.1\r\nHost: akd\r\n\r\n"},
     false, true, false, true},
    /* a game against the computer: the computer accounts looked up first */
    {"computer", {"{\"id\":0,\"cmd\":\"new\",\"side\":\"axis\",\"computer\":1,\"g\":%ld}\n", NULL}, true, true,
     false, false},
};
static const struct flood_kind *flood;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A connection to akd, from the source address `from` (NULL: any). */
static void dial_from(struct conn *c, const char *host, int port, const char *from)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, host, &a.sin_addr);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (from) {
        struct sockaddr_in src = {.sin_family = AF_INET};
        inet_pton(AF_INET, from, &src.sin_addr);
        if (bind(fd, (struct sockaddr *)&src, sizeof src) != 0) {
            perror("bind");
            exit(1);
        }
    }
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        perror("connect");
        exit(1);
    }
    c->fd = fd;
    if (tls) {
        c->ssl = SSL_new(tls);
        SSL_set_fd(c->ssl, fd);
        if (SSL_connect(c->ssl) != 1) {
            fprintf(stderr, "load: TLS handshake failed (is akd started with a certificate?)\n");
            exit(1);
        }
    }
}

static void dial(struct conn *c, const char *host, int port)
{
    dial_from(c, host, port, NULL);
}

/* What the connection has: plaintext, decrypted under TLS. */
static ssize_t conn_read(struct conn *c, char *buf, size_t cap)
{
    if (!c->ssl)
        return read(c->fd, buf, cap);
    int r = SSL_read(c->ssl, buf, (int)cap);
    return r > 0 ? r : -1;
}

static ssize_t conn_write(struct conn *c, const char *buf, size_t len)
{
    if (!c->ssl)
        return write(c->fd, buf, len);
    int w = SSL_write(c->ssl, buf, (int)len);
    return w > 0 ? w : -1;
}

static void send_line(struct conn *c, const char *line, size_t len)
{
    for (size_t off = 0; off < len;) {
        ssize_t w = conn_write(c, line + off, len - off);
        if (w <= 0 && errno != EINTR) {
            perror("write");
            exit(1);
        }
        off += w > 0 ? (size_t)w : 0;
    }
    c->sent = c->written = now();
}

static void send_json(struct conn *c, json_t *msg)
{
    char *line = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    size_t len = strlen(line);
    line = realloc(line, len + 2);
    line[len] = '\n';
    send_line(c, line, len + 1);
    free(line);
}

/* Block until c has a whole line; returns it parsed. */
static json_t *read_msg(struct conn *c)
{
    for (;;) {
        char *nl = memchr(c->buf, '\n', c->len);
        if (nl) {
            json_error_t e;
            json_t *m = json_loadb(c->buf, (size_t)(nl - c->buf), 0, &e);
            c->len -= (size_t)(nl - c->buf) + 1;
            memmove(c->buf, nl + 1, c->len);
            return m;
        }
        ssize_t r = conn_read(c, c->buf + c->len, sizeof c->buf - c->len);
        if (r <= 0) {
            fprintf(stderr, "load: akd closed a connection\n");
            exit(1);
        }
        c->len += (size_t)r;
    }
}

static json_t *call(struct conn *c, json_t *req)
{
    json_object_set_new(req, "id", json_integer(1));
    send_json(c, req);
    for (;;) {
        json_t *m = read_msg(c);
        if (json_object_get(m, "id"))
            return m;
        json_decref(m);
    }
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void record_latency(struct conn *c)
{
    if (nlat == cap_lat) {
        cap_lat = cap_lat ? cap_lat * 2 : 1 << 16;
        lat = realloc(lat, sizeof *lat * (size_t)cap_lat);
        lat_written = realloc(lat_written, sizeof *lat_written * (size_t)cap_lat);
    }
    double t = now();
    lat_written[nlat] = t - c->written;
    lat[nlat++] = t - c->sent;
    c->sent = 0;
}

static void print_latency(const char *what, double *l)
{
    qsort(l, (size_t)nlat, sizeof *l, compare);
    printf("  latency %s: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", what, l[nlat / 2] * 1e3,
           l[(long)(nlat * 0.99)] * 1e3, l[nlat - 1] * 1e3);
}

/* The `new` request: a challenge to the other bot from the position,
 * with a time control of a day per action or per player turn if
 * LOAD_TIME_CONTROL says so (every action then moves a deadline). */
static json_t *new_game_request(void)
{
    json_error_t e;
    json_t *req = json_pack("{s:s,s:i,s:s,s:s,s:o}", "cmd", "new", "id", 0, "side", "axis", "opponent",
                            "loadbot1", "position", json_loads(position, 0, &e));
    const char *per = getenv("LOAD_TIME_CONTROL");
    if (per && *per)
        json_object_set_new(req, "time_control", json_pack("{s:i,s:s,s:s}", "seconds", 86400, "per", per,
                                                           "on_expiry", "wait"));
    return req;
}

/* Ask for a new game without waiting: the replies move it on (on_reply). */
static void request_game(int g)
{
    G[g].phase = CREATING;
    send_json(&C[G[g].conn[0]], new_game_request());
}

static void start_game(int g)
{
    struct conn *ax = &C[G[g].conn[0]], *al = &C[G[g].conn[1]];
    json_t *r = call(ax, new_game_request());
    G[g].id = (long)json_integer_value(json_object_get(json_object_get(r, "result"), "game"));
    json_decref(r);
    json_decref(call(al, json_pack("{s:s,s:I}", "cmd", "join", "game", (json_int_t)G[g].id)));
    G[g].step = 0;
    for (int i = 0; i < nconn; i++)
        if (C[i].side < 0 && C[i].game == g)
            send_json(&C[i], json_pack("{s:s,s:i,s:I}", "cmd", "watch", "id", 0, "game", (json_int_t)G[g].id));
}

/* The action at this step of a game: `moves` moves of one unit (to the
 * next square and back: the starting position has bologna at W6 and
 * 22gdsinf at L59), then the end of the movement portion and of the turn.
 * Written with printf, not built as JSON: the generator shares akd's two
 * cores, so the less it spends the more akd is measured. */
static int action_at(int step, int *side, char *out, size_t cap)
{
    int per_turn = moves + 2, at = step % per_turn;
    *side = (step / per_turn) % 2;
    if (at == moves)
        return snprintf(out, cap, "{\"action\":\"end_movement\"}");
    if (at == moves + 1)
        return snprintf(out, cap, "{\"action\":\"end_turn\"}");
    static const char *const unit[2] = {"bologna", "22gdsinf"};
    static const char *const hex[2][2] = {{"W7", "W6"}, {"L58", "L59"}};
    return snprintf(out, cap, "{\"action\":\"move\",\"units\":[\"%s\"],\"to\":\"%s\"}", unit[*side],
                    hex[*side][at % 2]);
}

static void send_action(int g)
{
    int step = G[g].step, side;
    char action[128], line[256];
    action_at(step, &side, action, sizeof action);
    struct conn *c = &C[G[g].conn[side]];
    int n = snprintf(line, sizeof line, "{\"cmd\":\"act\",\"id\":%d,\"game\":%ld,\"action\":%s}\n", step,
                     G[g].id, action);
    send_line(c, line, (size_t)n);
    if (interval > 0)
        c->sent = G[g].due;     /* latency counts from the schedule */
    G[g].waiting = false;
}

/* Send the next action of game g from the side whose turn it is: now, or
 * when it is due if the load is paced. */
static void next_action(int g)
{
    if (interval > 0) {
        G[g].due += interval;
        if (G[g].due > now()) {
            G[g].waiting = true;
            return;
        }
    }
    send_action(g);
}

/* Paced: send the actions that have come due; returns the milliseconds
 * until the next one (at most 100). */
static int send_due(void)
{
    double t = now(), next = t + 0.1;
    for (int g = 0; g < ngames; g++) {
        if (!G[g].waiting)
            continue;
        if (G[g].due <= t)
            send_action(g);
        else if (G[g].due < next)
            next = G[g].due;
    }
    return (int)((next - t) * 1e3);
}

/* The usual answer, an action accepted, seen without parsing it. */
static bool accepted_action(const struct conn *c, const char *line, size_t len)
{
    static const char ok[] = ",\"ok\":true,";
    return c->side >= 0 && G[c->game].phase == PLAYING && len > 32 && memmem(line, 32, ok, sizeof ok - 1);
}

static void on_accepted(struct conn *c)
{
    int g = c->game;
    record_latency(c);
    G[g].step++;
    next_action(g);
}

static void flood_one(struct conn *c)
{
    static unsigned n;
    char line[200];
    const char *fmt = flood->lines[1] && n % 2 ? flood->lines[1] : flood->lines[0];
    n++;
    /* The game's number, then a counter (register, login), then the same
     * counter again; a format uses what it needs (the rest is ignored). */
    int len = snprintf(line, sizeof line, fmt, G[0].id ? G[0].id : 1, n, n);
    if (write(c->fd, line, (size_t)len) != len && !flood->reads)
        return;     /* akd stopped reading it (map_noread): it holds what it has */
}

/* HTTP replies in what a flooder read: each status line counted (refused:
 * not 200) and answered by the next request. A status line split between
 * two reads is found with the end of the previous read (c->tail: at most
 * 11 bytes, from after the last line counted). */
static void http_replies(struct conn *c, const char *buf, size_t len)
{
    static const char status[] = "HTTP/1.1 ";
    enum { LINE = 12 };     /* "HTTP/1.1 200" */
    char joined[sizeof c->tail + (1 << 16)];
    size_t kept = c->ntail;
    memcpy(joined, c->tail, kept);
    memcpy(joined + kept, buf, len);
    size_t n = kept + len, after = 0;
    for (const char *p = joined; (p = memmem(p, n - (size_t)(p - joined), status, 9)) != NULL; p += 9) {
        if ((size_t)(joined + n - p) < LINE)
            break;          /* its code is in the next read */
        flood_replies++;
        flood_refused += memcmp(p + 9, "200", 3) != 0;
        flood_one(c);
        after = (size_t)(p - joined) + LINE;
    }
    size_t from = n - after < LINE - 1 ? after : n - (LINE - 1);
    c->ntail = n - from;
    memcpy(c->tail, joined + from, c->ntail);
}

/* The flooders' own loop, in a process of their own: in the generator's,
 * their hundreds of sockets would delay its reading of the player's
 * replies, and that delay would be counted against akd. Each reader keeps
 * FLOOD_DEPTH requests in flight; a non-reader sends on until akd stops
 * taking its bytes or closes it. Its counts go back through a pipe. */
static void flood_loop(double seconds)
{
    int ep = epoll_create1(0);
    for (int i = nconn; i < nconn + nflood; i++) {
        /* HTTP/1.1 clients do not pipeline (akd's listener answers one
         * request at a time): one in flight on each */
        for (int k = 0; k < (flood->once || flood->http ? 1 : FLOOD_DEPTH); k++)
            flood_one(&C[i]);
        /* a non-reader is only told when akd closes it */
        struct epoll_event ev = {.events = flood->reads ? EPOLLIN : EPOLLRDHUP, .data.u32 = (uint32_t)i};
        epoll_ctl(ep, EPOLL_CTL_ADD, C[i].fd, &ev);
    }
    struct epoll_event ready[256];
    char buf[1 << 16];
    for (double t0 = now(); now() - t0 < seconds;) {
        int n = epoll_wait(ep, ready, 256, 20);
        for (int k = 0; k < n; k++) {
            struct conn *c = &C[ready[k].data.u32];
            ssize_t r = flood->reads ? read(c->fd, buf, sizeof buf) : 0;
            if (r <= 0 && !(r < 0 && errno == EAGAIN)) {
                flood_closed++;     /* akd's defence: it stops */
                epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
                c->fd = -1;
                continue;
            }
            if (flood->http) {
                http_replies(c, buf, (size_t)r);
                continue;
            }
            /* each reply (not a push) counted, and answered by the next
             * request; c->len: 1 while in the middle of a line (a large
             * reply comes in several reads), 2 in a push */
            for (char *p = buf, *end = buf + r; p < end;) {
                char *nl = memchr(p, '\n', (size_t)(end - p));
                if (!c->len) {
                    bool push = strncmp(p, "{\"push\"", 7) == 0;
                    c->len = push ? 2 : 1;
                    if (!push) {
                        flood_replies++;
                        flood_refused += !memmem(p, (size_t)(end - p) < 48 ? (size_t)(end - p) : 48, "\"ok\":true", 9);
                    }
                }
                if (!nl)
                    break;
                if (c->len == 1 && !flood->once)
                    flood_one(c);
                c->len = 0;
                p = nl + 1;
            }
        }
        if (!flood->reads && !flood->once)     /* non-readers keep asking */
            for (int i = nconn; i < nconn + nflood; i++)
                if (C[i].fd >= 0)
                    flood_one(&C[i]);
    }
}

static pid_t start_flood(double seconds, int report[2])
{
    if (pipe(report) != 0)
        return -1;
    pid_t child = fork();
    if (child == 0) {
        close(report[0]);
        signal(SIGPIPE, SIG_IGN);   /* a flooder akd closed is counted as closed, not the end of all */
        flood_loop(seconds);
        long counts[3] = {flood_replies, flood_refused, flood_closed};
        if (write(report[1], counts, sizeof counts) != (ssize_t)sizeof counts)
            _exit(1);
        _exit(0);
    }
    close(report[1]);   /* the parent keeps its copies of the flooders' sockets: akd sees no close */
    return child;
}

static void flood_results(pid_t child, int fd)
{
    long counts[3] = {0, 0, 0};
    if (read(fd, counts, sizeof counts) == (ssize_t)sizeof counts) {
        flood_replies = counts[0];
        flood_refused = counts[1];
        flood_closed = (int)counts[2];
    }
    close(fd);
    waitpid(child, NULL, 0);
}

static void on_reply(struct conn *c, json_t *m)
{
    int g = c->game;
    if (c->side == FLOODER) {
        flood_replies++;
        flood_refused += !json_is_true(json_object_get(m, "ok"));
        flood_one(c);
        return;
    }
    if (c->side < 0) {
        c->sent = 0;
        return;
    }
    if (G[g].phase == CREATING) {
        c->sent = 0;
        G[g].id = (long)json_integer_value(json_object_get(json_object_get(m, "result"), "game"));
        G[g].phase = JOINING;
        send_json(&C[G[g].conn[1]], json_pack("{s:s,s:i,s:I}", "cmd", "join", "id", 0, "game",
                                              (json_int_t)G[g].id));
        return;
    }
    if (G[g].phase == JOINING) {
        c->sent = 0;
        G[g].phase = PLAYING;
        G[g].step = 0;
        for (int i = 0; i < nconn; i++)
            if (C[i].side < 0 && C[i].game == g)
                send_json(&C[i], json_pack("{s:s,s:i,s:I}", "cmd", "watch", "id", 0, "game",
                                           (json_int_t)G[g].id));
        next_action(g);
        return;
    }
    if (!json_is_true(json_object_get(m, "ok"))) {
        record_latency(c);
        /* The game ended (after the last turn): play a new one. */
        const char *code = json_string_value(json_object_get(json_object_get(m, "error"), "code"));
        if (strcmp(code ? code : "", "illegal") != 0 && errors++ == 0)
            fprintf(stderr, "load: first unexpected error: %s\n",
                    json_string_value(json_object_get(json_object_get(m, "error"), "message")));
        finished++;
        finished_actions += G[g].step;
        request_game(g);
        return;
    }
    on_accepted(c);
}


/* CPU seconds a process (or one of its threads) has used, from /proc. */
static double cpu_seconds(const char *stat_path)
{
    FILE *f = fopen(stat_path, "r");
    char line[1024];
    double s = 0;
    if (f && fgets(line, sizeof line, f)) {
        const char *p = strrchr(line, ')');     /* the name may hold spaces */
        unsigned long utime = 0, stime = 0;
        if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) == 2)
            s = (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
    }
    if (f)
        fclose(f);
    return s;
}

/* The process's CPU time and its busiest thread's (the event loop). */
static void akd_cpu(long pid, double *total, double *loop)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    *total = cpu_seconds(path);
    snprintf(path, sizeof path, "/proc/%ld/task/%ld/stat", pid, pid);
    *loop = cpu_seconds(path);
}

static long rss_kib(long pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", pid);
    FILE *f = fopen(path, "r");
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kib = atol(line + 6);
    if (f)
        fclose(f);
    return kib;
}

/* Log c in as user (registered first if need be); its session token into tok. */
static void log_in(struct conn *c, const char *user, char *tok, size_t cap)
{
    json_t *r = call(c, json_pack("{s:s,s:s,s:s}", "cmd", "register", "user", user, "password", "load-password"));
    if (!json_is_true(json_object_get(r, "ok"))) {
        json_decref(r);
        r = call(c, json_pack("{s:s,s:s,s:s}", "cmd", "login", "user", user, "password", "load-password"));
    }
    if (tok)
        snprintf(tok, cap, "%s", json_string_value(json_object_get(json_object_get(r, "result"), "token")));
    json_decref(r);
}

static void login_bots(const char *host, int port)
{
    for (int b = 0; b < 2; b++) {
        struct conn c = {0};
        dial(&c, host, port);
        char user[16];
        snprintf(user, sizeof user, "loadbot%d", b);
        log_in(&c, user, token[b], sizeof token[b]);
        SSL_free(c.ssl);
        close(c.fd);
    }
}

int main(int argc, char **argv)
{
    if (argc < 7 || argc > 9) {
        fprintf(stderr, "usage: load HOST:PORT AKD-PID POSITION.json CONNECTIONS GAMES SECONDS [RATE [MOVES]]\n");
        return 2;
    }
    char host[64];
    int port = atoi(strrchr(argv[1], ':') + 1);
    snprintf(host, sizeof host, "%.*s", (int)(strrchr(argv[1], ':') - argv[1]), argv[1]);
    long pid = atol(argv[2]);
    json_error_t e;
    json_t *pos = json_load_file(argv[3], 0, &e);
    position = json_dumps(pos, JSON_COMPACT);
    json_decref(pos);
    nconn = atoi(argv[4]);
    ngames = atoi(argv[5]);
    double seconds = atof(argv[6]);
    double rate = argc >= 8 ? atof(argv[7]) : 0;
    moves = argc >= 9 ? atoi(argv[8]) : 0;
    if (moves != 0 && moves != 2 && moves != 4) {
        fprintf(stderr, "load: MOVES is 0, 2 or 4 (a unit steps out and back)\n");
        return 2;
    }
    interval = rate > 0 ? ngames / rate : 0;
    if (getenv("LOAD_TLS") && strcmp(getenv("LOAD_TLS"), "1") == 0) {
        tls = SSL_CTX_new(TLS_client_method());
        SSL_CTX_set_verify(tls, SSL_VERIFY_NONE, NULL);
    }
    if (ngames < 1 || nconn < 2 * ngames) {
        fprintf(stderr, "load: need at least two connections per game\n");
        return 2;
    }
    login_bots(host, port);
    long rss0 = rss_kib(pid);
    C = calloc((size_t)nconn, sizeof *C);
    G = calloc((size_t)ngames, sizeof *G);
    for (int i = 0; i < nconn; i++) {
        dial(&C[i], host, port);
        C[i].side = i < 2 * ngames ? i % 2 : -1;
        C[i].game = i < 2 * ngames ? i / 2 : i % ngames;
        if (C[i].side >= 0)
            G[i / 2].conn[i % 2] = i;
        int bot = C[i].side >= 0 ? C[i].side : 0;
        json_decref(call(&C[i], json_pack("{s:s,s:s}", "cmd", "resume", "token", token[bot])));
    }
    long rss_conns = rss_kib(pid);
    for (int g = 0; g < ngames; g++)
        start_game(g);
    nflood = getenv("LOAD_FLOOD") ? atoi(getenv("LOAD_FLOOD")) : 0;
    flood = &flood_kinds[0];
    for (size_t k = 0; getenv("LOAD_FLOOD_KIND") && k < sizeof flood_kinds / sizeof flood_kinds[0]; k++)
        if (strcmp(getenv("LOAD_FLOOD_KIND"), flood_kinds[k].name) == 0)
            flood = &flood_kinds[k];
    C = realloc(C, sizeof *C * (size_t)(nconn + nflood));
    for (int i = nconn; i < nconn + nflood; i++) {
        char from[32], user[32];
        memset(&C[i], 0, sizeof C[i]);
        snprintf(from, sizeof from, "127.0.0.%d", 2 + (i - nconn) % FLOOD_ADDRS);
        int http_port = getenv("LOAD_HTTP_PORT") ? atoi(getenv("LOAD_HTTP_PORT")) : 0;
        if (flood->http && !http_port) {
            fprintf(stderr, "load: the http flood needs LOAD_HTTP_PORT, akd's http_listen port\n");
            exit(2);
        }
        dial_from(&C[i], host, flood->http ? http_port : port, from);
        C[i].side = FLOODER;
        C[i].game = 0;
        snprintf(user, sizeof user, "loadflood%d", (i - nconn) % FLOOD_ACCOUNTS);
        if (flood->login)
            log_in(&C[i], user, NULL, 0);
        if (!flood->reads)      /* its writes must not block the generator once akd stops reading */
            fcntl(C[i].fd, F_SETFL, fcntl(C[i].fd, F_GETFL) | O_NONBLOCK);
    }
    long rss_games = rss_kib(pid);
    nlat = 0;
    double start = now();
    for (int g = 0; g < ngames; g++) {
        G[g].due = start + interval * g / ngames - interval;   /* spread over one interval */
        next_action(g);
    }
    int report[2] = {-1, -1};
    pid_t flooder = nflood ? start_flood(seconds, report) : -1;
    int ep = epoll_create1(0);
    for (int i = 0; i < nconn; i++) {
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        epoll_ctl(ep, EPOLL_CTL_ADD, C[i].fd, &ev);
    }
    long rss_peak = 0;
    struct epoll_event ready[256];
    double cpu0, loop0, cpu1, loop1;
    akd_cpu(pid, &cpu0, &loop0);
    double t0 = now(), t1 = t0;
    double next_rss = t0;
    while ((t1 = now()) - t0 < seconds) {
        if (t1 >= next_rss) {
            long kib = rss_kib(pid);
            rss_peak = kib > rss_peak ? kib : rss_peak;
            next_rss = t1 + 0.25;
        }
        int n = epoll_wait(ep, ready, 256, interval > 0 ? send_due() : 100);
        for (int k = 0; k < n; k++) {
            struct conn *c = &C[ready[k].data.u32];
            ssize_t r = conn_read(c, c->buf + c->len, sizeof c->buf - c->len);
            if (r <= 0) {
                fprintf(stderr, "load: akd closed a connection\n");
                return 1;
            }
            c->len += (size_t)r;
            /* TLS may hold more decrypted bytes than one read took. */
            while (c->ssl && SSL_pending(c->ssl) && c->len < sizeof c->buf &&
                   (r = conn_read(c, c->buf + c->len, sizeof c->buf - c->len)) > 0)
                c->len += (size_t)r;
            /* Pushes are only counted; replies are parsed. The generator
             * must stay lighter than akd. Each line leaves the buffer
             * before it is handled: a reply may start a game, which reads
             * from this same connection. */
            char *nl, *start = c->buf;
            while ((nl = memchr(start, '\n', c->len - (size_t)(start - c->buf)))) {
                size_t len = (size_t)(nl - start);
                if (strncmp(start, "{\"push\"", 7) == 0) {
                    pushes++;
                    start = nl + 1;
                    continue;
                }
                if (accepted_action(c, start, len)) {
                    start = nl + 1;
                    c->len -= (size_t)(start - c->buf);
                    memmove(c->buf, start, c->len);
                    start = c->buf;
                    on_accepted(c);
                    continue;
                }
                json_t *m = json_loadb(start, len, 0, &e);
                start = nl + 1;
                c->len -= (size_t)(start - c->buf);
                memmove(c->buf, start, c->len);
                start = c->buf;
                if (json_object_get(m, "id"))
                    on_reply(c, m);
                json_decref(m);
            }
            c->len -= (size_t)(start - c->buf);
            memmove(c->buf, start, c->len);
        }
    }
    akd_cpu(pid, &cpu1, &loop1);
    double elapsed = t1 - t0;
    if (flooder > 0)
        flood_results(flooder, report[0]);
    printf("akd load: %d connections (%d players, %d spectators)%s, %d games, %.1f s, %s\n", nconn,
           2 * ngames, nconn - 2 * ngames, tls ? " over TLS" : "", ngames, elapsed,
           interval > 0 ? "paced" : "as fast as answered");
    if (interval > 0)
        printf("  offered: %.0f actions per second (each game every %.1f ms)\n", rate, interval * 1e3);
    printf("  each player turn: %d moves, end of movement, end of turn\n", moves);
    printf("  %.0f actions per second, each refereed, committed and pushed before the next\n",
           (double)nlat / elapsed);
    if (nlat && interval > 0) {
        /* The first counts a generator that fell behind its schedule
         * against akd; the second is akd and loopback alone. */
        print_latency("from the schedule", lat);
        print_latency("from the write   ", lat_written);
    } else if (nlat) {
        print_latency("(send to reply)", lat);
    }
    if (nlat)
        printf("  akd CPU per action: %.1f us in all, %.1f us on the event loop (%.0f%% of a core)\n",
               (cpu1 - cpu0) / (double)nlat * 1e6, (loop1 - loop0) / (double)nlat * 1e6,
               (loop1 - loop0) / elapsed * 100);
    if (nflood)
        printf("  meanwhile %d connections from %d addresses flooding (%s): %.0f answered per second, %.0f "
               "refused, %d closed by akd; akd's resident memory at most %ld KiB\n", nflood, FLOOD_ADDRS,
               flood->name, (double)(flood_replies - flood_refused) / elapsed, (double)flood_refused / elapsed,
               flood_closed, rss_peak);
    if (nlat)
        printf("FLOOD %s %d p50 %.2f p99 %.2f answered/s %.0f refused/s %.0f closed %d rss_kib %ld\n",
               nflood ? flood->name : "none", nflood, lat[nlat / 2] * 1e3, lat[(long)(nlat * 0.99)] * 1e3,
               (double)(flood_replies - flood_refused) / elapsed, (double)flood_refused / elapsed, flood_closed,
               rss_peak);
    printf("  %ld pushes delivered (%.0f per second); %ld unexpected errors\n", pushes,
           (double)pushes / elapsed, errors);
    if (finished)
        printf("  %ld games played to the end, %.0f actions each\n", finished,
               (double)finished_actions / finished);
    printf("  akd memory: %.1f KiB per connection, %.1f KiB per game (resident, /proc)\n",
           (double)(rss_conns - rss0) / nconn, (double)(rss_games - rss_conns) / ngames);
    return errors ? 1 : 0;
}
