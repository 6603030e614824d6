/* fuzz_request: request lines to their replies, through akd's own code.
 *
 * What it fuzzes: what akd does with the bytes a client sends on a
 * plaintext connection: server/ak_conn.c (on_connection, on_read, on_line,
 * the rate limit, the queue of requests waiting behind a command that
 * runs off the loop, ak_conn_resume, the output gathered per loop turn:
 * the very functions, #included below), the framing (proto/ak_frame.c),
 * the codec (proto/ak_codec.c), the command table and its queue of costly
 * queries (ak_dispatch.c) and every command behind it: accounts, lobby,
 * play, undo, record, ladder, with the group commit (ak_batch.c) and the
 * writer thread (ak_writer.c) storing into SQLite, and the replies and
 * pushes exactly as akd would write them.
 *
 * The server: a struct ak_server set up as akd's main sets it up
 * (ak_store_open, ak_games_load, ak_batch_start, a libuv loop) on a
 * database in a new directory under $TMPDIR (or /tmp), with akd's default
 * settings but sync = normal (no fsync per commit), allow_positions = 1
 * and max_line = 16384 (so that a line over the limit is within reach).
 * At start-up it is given, through the same request path, three players
 * (alice, bob and carol, passwords "alice-password" and so on) and seven
 * games: 1 alice v bob, played by random players (tests/ak_player.c) into
 * turn 3; 2 an open seek by alice with a time control; 3 bob's rated
 * challenge to carol; 4 carol v alice, rated, resigned (over, on the
 * ladder, its dice secret out); 5 bob v carol from a position; 6 aborted;
 * 7 declined. That is the baseline every input starts from, the games as
 * akd loads them at start (ak_games_load, after the start-up): after an
 * input that changed the database (a PRAGMA data_version on a connection
 * of the harness's own says so) it is copied back with SQLite's backup
 * API, and the games in memory, if they changed, are put back as they
 * were loaded.
 *
 * Input: the bytes a client sends on one new connection (not logged in),
 * delivered in reads of at most 509 bytes, so lines are split across
 * reads; while the connection is paused (its queue full) no more is read,
 * as akd would not read the socket. Then the harness runs the loop until
 * every reply is out (password work, costly queries, commits) and hangs up.
 *
 * What it asserts:
 *   - every line written is a JSON object: a reply (with "id") or a push
 *     (with "push", without "id");
 *   - exactly one reply per complete non-empty line, in the order the
 *     lines were sent (PROTOCOL.md: "answered in the order sent"), each
 *     echoing the line's id: null for a line that is not a JSON object or
 *     has no integer or string id (a line that is not a JSON object gets
 *     bad_json); over the rate the line is not parsed and the reply carries
 *     the id picked out of its text (ak_msg_peek_id), so a rate_limited
 *     reply only has to have a null, integer or string id;
 *   - "ok": true with a "result" object, or "ok": false with an "error"
 *     whose code is one akd documents (never "internal": this store does
 *     not fail) and a message; "illegal" with its rule and section;
 *   - a line over max_line gets line_too_long, and a first byte of 0x16
 *     (a TLS handshake) tls_not_enabled, with id null, and nothing is
 *     written after it: the replies before it are those of the lines
 *     before, in order, less those still waiting when the connection
 *     closed;
 *   - after each input, every game in memory passes ak_state_check, and
 *     the games put back are the baseline's (their fingerprint).
 *
 * FUZZ_REQUEST_EARLY_ERRORS=1 lets a bad_json or rate_limited reply come
 * before the replies of earlier lines still waiting (akd answers those on
 * arrival, ahead of a login or a commit in progress): a protocol
 * deviation the strict check finds, relaxed so that fuzzing can go on
 * past it. FUZZ_REQUEST_DEBUG=1 prints what is sent and written.
 *
 * Not covered, and why: sockets. on_connection runs with uv_accept and
 * uv_tcp_getpeername replaced (nothing to accept; the peer is
 * 203.0.113.7), the socket writes with uv_try_write replaced by a
 * function that keeps the bytes (what akd would write, in that order),
 * and reading is the harness's. The connection's clock (uv_now in
 * ak_conn.c: rate limit, idle times) stands still, so an input is always
 * limited alike. TLS (ak_tls.c is linked, no certificate is configured),
 * the clock's deadlines and session expiry (ak_clock_start is not run:
 * time controls are set and stored but never run out), signals, backups
 * and the notification command (none configured) are left out. Password
 * hashing is a keyed BLAKE2b instead of argon2id (tens of milliseconds by
 * design), still run on the libuv work queue, so the connection waits for
 * it as in akd. libsodium's random bytes come from a generator restarted
 * for every input, so an input always draws the same tokens, dice secrets
 * and random sides. akd's JSON allocator (ak_json_pool) is not installed,
 * so AddressSanitizer sees every JSON value akd makes; the harness's own
 * parsing of akd's output, for its checks, goes into the arena of
 * ak_fuzz.h (FUZZ_ARENA_OFF=1: into malloc too).
 */
#include <sodium.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ak_codec.h"
#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_player.h"
#include "ak_server.h"

#define AK_FUZZ_NAME "fuzz_request"
#include "ak_fuzz.h"

#define MAX_LINE 16384
#define READ_MAX 509

/* ---- What akd writes to the connection, kept instead of written. ---- */

static struct {
    const void *conn;       /* whose bytes are kept (others' are dropped) */
    char *buf;
    size_t len, cap;
} wire;

static int fuzz_try_write(uv_stream_t *s, const uv_buf_t bufs[], unsigned int nbufs)
{
    size_t total = 0;
    for (unsigned i = 0; i < nbufs; i++) {
        if (s->data == wire.conn) {
            if (wire.len + bufs[i].len > wire.cap) {
                size_t cap = wire.cap ? wire.cap : 65536;
                while (cap < wire.len + bufs[i].len)
                    cap *= 2;
                if (!(wire.buf = realloc(wire.buf, cap)))
                    fail("out of memory");
                wire.cap = cap;
            }
            memcpy(wire.buf + wire.len, bufs[i].base, bufs[i].len);
            wire.len += bufs[i].len;
        }
        total += bufs[i].len;
    }
    return (int)total;
}

/* The connection has no socket: reading is the harness's to do. */
static int fuzz_read_start(uv_stream_t *s, uv_alloc_cb alloc, uv_read_cb read)
{
    (void)s;
    (void)alloc;
    (void)read;
    return 0;
}

static int fuzz_read_stop(uv_stream_t *s)
{
    (void)s;
    return 0;
}

/* The connection's clock (rate limit, idle times) stands still: the same
 * input is always limited the same way, however long it takes to run. */
static uint64_t fuzz_now(const uv_loop_t *loop)
{
    (void)loop;
    return 1000000;
}

/* akd's on_connection accepts a socket and asks for its peer's address:
 * here there is none to accept, and the peer is 203.0.113.7. */
static int fuzz_accept(uv_stream_t *server, uv_stream_t *client)
{
    (void)server;
    (void)client;
    return 0;
}

static int fuzz_getpeername(const uv_tcp_t *handle, struct sockaddr *name, int *namelen)
{
    struct sockaddr_in peer = {.sin_family = AF_INET, .sin_port = htons(40000)};
    (void)handle;
    peer.sin_addr.s_addr = htonl(0xcb007107);
    if (*namelen < (int)sizeof peer)
        return UV_EINVAL;
    memcpy(name, &peer, sizeof peer);
    *namelen = sizeof peer;
    return 0;
}

#define uv_try_write fuzz_try_write
#define uv_read_start fuzz_read_start
#define uv_read_stop fuzz_read_stop
#define uv_now fuzz_now
#define uv_accept fuzz_accept
#define uv_tcp_getpeername fuzz_getpeername
#include "../server/ak_conn.c"
#undef uv_try_write
#undef uv_read_start
#undef uv_read_stop
#undef uv_now
#undef uv_accept
#undef uv_tcp_getpeername

/* ---- Password hashing, cheap: a keyed hash of the password. ---- */

static int fuzz_pwhash_str(char out[crypto_pwhash_STRBYTES], const char *password,
                           unsigned long long len, unsigned long long ops, size_t mem)
{
    static const unsigned char key[16] = "fuzz_request pw";
    unsigned char h[16];
    (void)ops;
    (void)mem;
    crypto_generichash(h, sizeof h, (const unsigned char *)password, len, key, sizeof key);
    memcpy(out, "$fuzz$", 6);
    sodium_bin2hex(out + 6, 33, h, sizeof h);
    return 0;
}

static int fuzz_pwhash_str_verify(const char *str, const char *password, unsigned long long len)
{
    char want[crypto_pwhash_STRBYTES];
    fuzz_pwhash_str(want, password, len, 0, 0);
    return strcmp(str, want) == 0 ? 0 : -1;
}

#define crypto_pwhash_str fuzz_pwhash_str
#define crypto_pwhash_str_verify fuzz_pwhash_str_verify
#include "../server/ak_accounts.c"
#undef crypto_pwhash_str
#undef crypto_pwhash_str_verify

/* ---- The chat's rate, counted afresh for every input on a clock that
 * stands still (its buckets would otherwise carry one input's messages
 * into the next: chat refused as rate_limited, and a crash behind it not
 * found again when its input runs alone). ---- */

static int64_t fuzz_chat_now(void)
{
    return 1700000000;
}

#define ak_now fuzz_chat_now
#include "../server/ak_chat.c"
#undef ak_now

/* ---- libsodium's random bytes, the same for every input. ---- */

static uint64_t random_state;

static uint64_t splitmix(void)
{
    uint64_t z = (random_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static const char *random_name(void) { return "fuzz_request"; }
static uint32_t random_u32(void) { return (uint32_t)(splitmix() >> 32); }

static void random_buf(void *const buf, const size_t size)
{
    unsigned char *p = buf;
    for (size_t i = 0; i < size; i++)
        p[i] = (unsigned char)(splitmix() >> 56);
}

static randombytes_implementation fixed_random = {
    .implementation_name = random_name, .random = random_u32, .buf = random_buf,
};

/* ---- The server. ---- */

static struct ak_server srv;
static uv_loop_t loop;
static char dir[512], db_path[600];
static sqlite3 *probe;      /* the harness's own connection to the database */
static sqlite3 *baseline;   /* the database after start-up, in memory */
static long long baseline_version;
static uint64_t baseline_games;
static bool debug;
static bool early_errors;       /* FUZZ_REQUEST_EARLY_ERRORS: see the top of the file */

static bool settled(const struct ak_conn *c)
{
    if (c && !c->closing && (c->busy || c->paused))
        return false;
    return !srv.batch && !ak_writer_busy(&srv) && !srv.dirty;
}

/* Run the loop until the connection's requests are answered and written. */
static void settle(const struct ak_conn *c)
{
    while (!settled(c))
        uv_run(&loop, UV_RUN_ONCE);
}

/* A new connection, made by akd's own on_connection. */
static struct ak_conn *conn_open(void)
{
    struct ak_conn *before = srv.conns;
    srv.listener.data = &srv;   /* all on_connection reads of the listener */
    on_connection((uv_stream_t *)&srv.listener, 0);
    struct ak_conn *c = srv.conns;
    if (!c || c == before)
        fail("on_connection made no connection");
    c->refs++;      /* the harness's, until conn_done */
    return c;
}

/* Bytes from the client, as akd's read callback gets them. */
static void conn_feed(struct ak_conn *c, const char *data, size_t n)
{
    static char space[64 * 1024];     /* on_alloc's buffer */
    size_t at = 0;
    while (at < n && !c->closing) {
        while (c->paused && !c->closing)    /* akd does not read a paused connection */
            uv_run(&loop, UV_RUN_ONCE);
        if (c->closing)
            break;
        size_t take = n - at < READ_MAX ? n - at : READ_MAX;
        memcpy(space, data + at, take);
        uv_buf_t buf = uv_buf_init(space, (unsigned)take);
        on_read((uv_stream_t *)&c->tcp, (ssize_t)take, &buf);
        at += take;
        uv_run(&loop, UV_RUN_NOWAIT);
    }
    settle(c);
}

/* The client hangs up; the connection is gone when this returns. */
static void conn_done(struct ak_conn *c)
{
    if (!c->closing)
        on_read((uv_stream_t *)&c->tcp, UV_EOF, NULL);
    while (c->refs > 1)
        uv_run(&loop, UV_RUN_ONCE);
    ak_conn_unref(c);
    settle(NULL);
}

/* ---- Start-up: players and games, through the request path. ---- */

static int next_id;

/* Send one request (the members after its id) and return its result;
 * fail unless it is answered ok. */
static json_t *ask(struct ak_conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static json_t *ask(struct ak_conn *c, const char *fmt, ...)
{
    static char line[MAX_LINE + 2];
    int id = ++next_id;
    int n = snprintf(line, sizeof line, "{\"id\":%d,", id);
    va_list ap;
    va_start(ap, fmt);
    n += vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    if (n + 2 >= (int)sizeof line)
        fail("start-up: a request too long");
    memcpy(line + n, "}\n", 3);
    wire.conn = c;
    wire.len = 0;
    conn_feed(c, line, strlen(line));
    json_t *result = NULL;
    for (char *p = wire.buf, *end = wire.buf + wire.len; p < end;) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            fail("start-up: an unfinished line");
        json_error_t je;
        json_t *m = json_loadb(p, (size_t)(nl - p), 0, &je);
        if (m && json_integer_value(json_object_get(m, "id")) == id) {
            if (!json_is_true(json_object_get(m, "ok")))
                fail("start-up: %.200s was answered %.*s", line, (int)(nl - p), p);
            result = json_incref(json_object_get(m, "result"));
        }
        json_decref(m);
        p = nl + 1;
    }
    if (!result)
        fail("start-up: no answer to %.200s", line);
    wire.conn = NULL;
    return result;
}

static int64_t game_of(json_t *result)
{
    int64_t game = json_integer_value(json_object_get(result, "game"));
    json_decref(result);
    return game;
}

/* Game 1's random players send their actions through akd. */
struct played {
    struct ak_conn *conn[AK_SIDES];
    struct ak_game *game;
};

static void send_action(struct ak_player_game *pg, const struct ak_action *a)
{
    struct played *p = pg->ud;
    json_t *j = ak_action_to_json_in(a, &pg->s);
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    json_decref(ask(p->conn[a->side], "\"cmd\":\"act\",\"game\":%lld,\"action\":%s",
                    (long long)p->game->id, text));
    free(text);
    /* The player's copy gets the dice akd used (an action without a nonce). */
    ak_dice_before_action(&p->game->dice, pg->s.actions + 1, NULL, &pg->s);
}

static void set_up_games(void)
{
    struct ak_conn *alice = conn_open(), *bob = conn_open(), *carol = conn_open();
    json_decref(ask(alice, "\"cmd\":\"register\",\"user\":\"alice\",\"password\":\"alice-password\""));
    json_decref(ask(bob, "\"cmd\":\"register\",\"user\":\"bob\",\"password\":\"bob-password\""));
    json_decref(ask(carol, "\"cmd\":\"register\",\"user\":\"carol\",\"password\":\"carol-password\""));

    /* 1: alice (Axis) v bob, played into turn 3. */
    int64_t g1 = game_of(ask(alice, "\"cmd\":\"new\",\"side\":\"axis\""));
    json_decref(ask(bob, "\"cmd\":\"join\",\"game\":%lld", (long long)g1));
    static struct ak_player_game pg;
    struct played p = {{alice, bob}, ak_game_find(&srv, g1)};
    ak_player_start(&pg, 1);
    pg.s = *p.game->state;
    pg.before_apply = send_action;
    pg.ud = &p;
    if (!ak_player_play(&pg, 3) || ak_state_hash(&pg.s) != ak_state_hash(p.game->state))
        fail("start-up: game 1 did not play as akd refereed it");

    /* 2: an open seek; 3: a rated challenge. */
    json_decref(ask(alice, "\"cmd\":\"new\",\"side\":\"allied\",\"time_control\":{\"seconds\":86400,"
                           "\"per\":\"turn\",\"on_expiry\":\"wait\"}"));
    json_decref(ask(bob, "\"cmd\":\"new\",\"side\":\"random\",\"opponent\":\"carol\",\"rated\":true"));

    /* 4: rated, over: carol resigns. */
    int64_t g4 = game_of(ask(carol, "\"cmd\":\"new\",\"side\":\"axis\",\"rated\":true"));
    json_decref(ask(alice, "\"cmd\":\"join\",\"game\":%lld", (long long)g4));
    json_decref(ask(carol, "\"cmd\":\"act\",\"game\":%lld,\"action\":{\"action\":\"resign\"}", (long long)g4));

    /* 5: from game 1's position. */
    json_t *pos = ak_state_to_json(&pg.s);
    char *text = json_dumps(pos, JSON_COMPACT);
    json_decref(pos);
    int64_t g5 = game_of(ask(carol, "\"cmd\":\"new\",\"side\":\"allied\",\"position\":%s", text));
    free(text);
    json_decref(ask(bob, "\"cmd\":\"join\",\"game\":%lld", (long long)g5));
    ak_player_free(&pg);

    /* 6: aborted; 7: declined. */
    int64_t g6 = game_of(ask(alice, "\"cmd\":\"new\",\"side\":\"axis\""));
    json_decref(ask(alice, "\"cmd\":\"abort\",\"game\":%lld", (long long)g6));
    int64_t g7 = game_of(ask(carol, "\"cmd\":\"new\",\"side\":\"axis\",\"opponent\":\"alice\""));
    json_decref(ask(alice, "\"cmd\":\"decline\",\"game\":%lld", (long long)g7));
    conn_done(alice);
    conn_done(bob);
    conn_done(carol);
}

/* ---- The baseline, and going back to it. ---- */

/* A PRAGMA's number, on the harness's own connection; with keep, its
 * statement is prepared once and kept there (one run after every input). */
static long long pragma_value(const char *sql, sqlite3_stmt **keep)
{
    sqlite3_stmt *st = keep ? *keep : NULL;
    long long v = -1;
    if (!st && sqlite3_prepare_v2(probe, sql, -1, &st, NULL) != SQLITE_OK)
        fail("%s: %s", sql, sqlite3_errmsg(probe));
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    if (keep) {
        sqlite3_reset(st);
        *keep = st;
    } else {
        sqlite3_finalize(st);
    }
    return v;
}

/* Changes when another connection (akd's) has committed since. */
static long long data_version(void)
{
    static sqlite3_stmt *st;
    return pragma_value("PRAGMA data_version", &st);
}

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t mix_text(uint64_t h, const char *text)
{
    return mix(h, text, strlen(text) + 1);
}

/* The games in memory, as far as a request can change them (strings by
 * their text: what follows the NUL in their arrays is nobody's). */
static uint64_t games_fingerprint(void)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = mix(h, &srv.next_game_id, sizeof srv.next_game_id);
    for (const struct ak_game *g = srv.games; g; g = g->next) {
        const struct ak_store_game_meta *m = &g->meta;
        /* a finished game's state may be out of memory (ak_game_evict) */
        uint64_t state = g->state ? ak_state_hash(g->state) : 0;
        const struct ak_game_brief *b = &g->brief;
        int64_t numbers[] = {g->id, g->player[0], g->player[1], g->snapshot_seq, g->creating, g->warned,
                             g->overdue, g->position != NULL, g->nwatchers, m->dice_scheme, m->challenge,
                             m->rated, m->tc_seconds, m->deadline, g->tournament, g->round,
                             b->ruleset, b->turn, b->side, b->phase, b->result, b->reason, b->actions,
                             g->dice.scheme, (int64_t)g->dice.seed, (int64_t)(intptr_t)g->crt};
        h = mix(h, &state, sizeof state);
        h = mix(h, numbers, sizeof numbers);
        h = mix(h, g->dice.key, sizeof g->dice.key);
        h = mix_text(h, g->player_name[0]);
        h = mix_text(h, g->player_name[1]);
        h = mix_text(h, g->challenge_name);
        h = mix_text(h, m->dice_commit);
        h = mix_text(h, m->dice_secret);
        h = mix_text(h, m->tc_per);
        h = mix_text(h, m->tc_expiry);
        h = mix_text(h, m->status);
        h = mix_text(h, g->position ? g->position : "");
    }
    return h;
}

static void copy_database(sqlite3 *to, sqlite3 *from)
{
    sqlite3_backup *b = sqlite3_backup_init(to, "main", from, "main");
    if (!b || sqlite3_backup_step(b, -1) != SQLITE_DONE || sqlite3_backup_finish(b) != SQLITE_OK)
        fail("copying the database: %s", sqlite3_errmsg(to));
}

/* The backup API adds one to the destination's schema cookie, so that
 * akd's two connections read the schema again and prepare every
 * statement anew: a fifth of the harness's time. The schema copied back
 * is the very one they hold (the baseline is this database after
 * start-up, and akd never changes its schema while it runs), so the
 * cookie is set back to what they hold. */
static long long schema_cookie;

static void keep_schema_cookie(void)
{
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA schema_version = %lld", schema_cookie);
    if (sqlite3_exec(probe, sql, NULL, NULL, NULL) != SQLITE_OK)
        fail("%s: %s", sql, sqlite3_errmsg(probe));
}

/* The games as akd loaded them from the baseline at start-up, kept (in
 * the order of srv.games) to be put back when an input changed them.
 * Loading them again from the baseline database, as the harness once did,
 * read the same rows every time (the database is the baseline's again by
 * then), so it tested nothing more, and it replayed game 1 into its third
 * turn: 40% of the harness's time. */
static struct ak_game *kept_games;
static int nkept_games;
static int64_t kept_next_game_id;

static void keep_games(void)
{
    for (const struct ak_game *g = srv.games; g; g = g->next)
        nkept_games++;
    if (!(kept_games = calloc((size_t)nkept_games, sizeof *kept_games)))
        fail("out of memory");
    int i = 0;
    for (const struct ak_game *g = srv.games; g; g = g->next, i++) {
        struct ak_game *k = &kept_games[i];
        *k = *g;
        k->next = NULL;
        k->watchers = NULL;     /* none at the baseline */
        k->nwatchers = k->watchers_cap = 0;
        k->undo = NULL;         /* an undo after a put-back replays the log */
        k->nundo = 0;
        if ((g->state && !(k->state = malloc(sizeof *g->state))) ||
            (g->position && !(k->position = strdup(g->position))))
            fail("out of memory");
        if (g->state)
            *k->state = *g->state;
    }
    kept_next_game_id = srv.next_game_id;
}

/* ak_game_add puts each new game first: the kept ones go in last to first. */
static void put_games_back(void)
{
    ak_games_free(&srv);
    srv.next_game_id = 0;
    for (int i = nkept_games - 1; i >= 0; i--) {
        const struct ak_game *k = &kept_games[i];
        struct ak_game *g = ak_game_add(&srv, k->id);
        if (!g)
            fail("out of memory");
        struct ak_state *state = g->state;
        struct ak_game *next = g->next;
        *g = *k;
        g->next = next;
        g->state = NULL;
        g->position = NULL;
        if (k->state) {
            *state = *k->state;
            g->state = state;
        } else {
            free(state);
        }
        if (k->position && !(g->position = strdup(k->position)))
            fail("out of memory");
    }
    srv.next_game_id = kept_next_game_id;
    ak_games_relist_all(&srv);      /* the copies' links point at the old games */
}

/* The database is copied back whenever an input wrote to it (most do: a
 * login stores a session); the games are put back when they differ from
 * the baseline's. The fingerprint covers every member of a game a request
 * can change, so a game it calls unchanged is the baseline's.
 * The vacations are read again each time; requests keep nothing else in
 * memory past their connection's end that they act on (the failed logins
 * and the chat's rate are reset before each input; akd's counters for
 * admin stats and the log's request numbers run on). */
static void back_to_baseline(void)
{
    /* keep_schema_cookie's premise, checked (one pragma) */
    if (pragma_value("PRAGMA schema_version", NULL) != schema_cookie)
        fail("an input changed the database's schema");
    copy_database(probe, baseline);
    keep_schema_cookie();
    baseline_version = data_version();
    if (ak_vacation_load(&srv) != 0)
        fail("the baseline's vacations do not load again");
    if (games_fingerprint() == baseline_games)
        return;
    put_games_back();
    if (games_fingerprint() != baseline_games)
        fail("the games put back differ from the baseline");
}

static void remove_files(void)
{
    static const char *const suffix[] = {"", "-wal", "-shm"};
    char path[700];
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s%s", db_path, suffix[i]);
        unlink(path);
    }
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    debug = getenv("FUZZ_REQUEST_DEBUG") != NULL;
    early_errors = getenv("FUZZ_REQUEST_EARLY_ERRORS") != NULL;
    randombytes_set_implementation(&fixed_random);
    fuzz_arena_install();   /* before any JSON value; see ak_fuzz.h */
    if (sodium_init() < 0)
        fail("libsodium failed to initialise");
    const char *tmp = getenv("TMPDIR");
    /* mkdtemp replaces the six X with a unique name. */
    snprintf(dir, sizeof dir, "%s/akd-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        fail("cannot make a directory in %s", tmp && *tmp ? tmp : "/tmp");
    snprintf(db_path, sizeof db_path, "%s/akd.sqlite3", dir);
    atexit(remove_files);
    umask(077);

    ak_server_hook(&srv);       /* the layers wired as akd wires them */
    ak_config_defaults(&srv.cfg);
    snprintf(srv.cfg.db, sizeof srv.cfg.db, "%s", db_path);
    srv.cfg.sync_full = false;
    srv.cfg.allow_positions = 1;
    snprintf(srv.cfg.admins, sizeof srv.cfg.admins, "alice");     /* the admin role is fuzzed too (granted below) */
    srv.cfg.max_line = MAX_LINE;
    srv.cfg.log_level = debug ? AK_LOG_DEBUG : AK_LOG_ERROR;
    ak_log_set_level(srv.cfg.log_level);
    char err[512];
    srv.store = ak_store_open(srv.cfg.db, err, sizeof err);
    if (!srv.store || ak_store_verify(srv.store, err, sizeof err) != AK_STORE_OK)
        fail("cannot open the database: %s", err);
    ak_store_set_sync(srv.store, srv.cfg.sync_full);
    if (ak_games_load(&srv) != 0)
        fail("cannot load the games");
    if (uv_loop_init(&loop) != 0)
        fail("cannot start a libuv loop");
    srv.loop = &loop;
    if (ak_batch_start(&srv, err, sizeof err) != 0)
        fail("cannot start the writer: %s", err);

    random_state = 1941;
    int rate = srv.cfg.rate;
    srv.cfg.rate = 0;       /* the players of game 1 act faster than anyone */
    set_up_games();
    srv.cfg.rate = rate;
    /* the admin role is an account's, granted on the database (ak_admin.c) */
    int64_t alice = 0;
    char pwhash[256];
    if (ak_store_user_find(srv.store, "alice", &alice, pwhash, sizeof pwhash) != AK_STORE_OK ||
        ak_store_admin_set(srv.store, alice, true, ak_now(), "operator") != AK_STORE_OK)
        fail("cannot give alice the admin role");

    if (sqlite3_open_v2(db_path, &probe, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
        sqlite3_open(":memory:", &baseline) != SQLITE_OK)
        fail("cannot open the database twice");
    sqlite3_busy_timeout(probe, 5000);
    /* Going back to the baseline need not wait for the disk. */
    sqlite3_exec(probe, "PRAGMA synchronous = OFF", NULL, NULL, NULL);
    copy_database(baseline, probe);
    schema_cookie = pragma_value("PRAGMA schema_version", NULL);
    /* The baseline is the games as akd loads them at start. */
    ak_games_free(&srv);
    srv.next_game_id = 0;
    srv.skipped_games = 0;
    if (ak_games_load(&srv) != 0 || srv.skipped_games)
        fail("the games of the start-up do not load");
    baseline_version = data_version();
    baseline_games = games_fingerprint();
    keep_games();
    put_games_back();   /* once now: what it puts back must be the baseline */
    if (games_fingerprint() != baseline_games)
        fail("the games put back differ from the baseline");
    return 0;
}

/* ---- One input. ---- */

struct expect {
    json_t *id;         /* the id echoed: NULL for null */
    bool bad_json;
};

static const char *const error_codes[] = {
    "bad_json", "bad_request", "unknown_command", "line_too_long", "not_logged_in", "auth_failed",
    "user_exists", "no_such_game", "already_seated", "seat_taken", "not_your_game", "not_started",
    "bad_action", "illegal", "too_many_connections", "idle_timeout", "rate_limited",
    "too_many_games", "no_such_user", "not_invited", "already_started", "cannot_undo",
    "session_ended", "tls_not_enabled", "not_admin", "banned", "no_such_tournament", "tournament_closed",
    "tournament_full", "already_joined", "tournament_game", "not_eligible", "no_vacation_left",
    "chat_full",
};

static bool known_code(const char *code)
{
    for (size_t i = 0; i < sizeof error_codes / sizeof error_codes[0]; i++)
        if (strcmp(code, error_codes[i]) == 0)
            return true;
    return false;
}

/* The replies due, line by line as ak_frame cuts them; *too_long if a
 * line passes the limit (nothing after it is read). */
static int expected(const uint8_t *data, size_t size, struct expect *out, int max, bool *too_long)
{
    int n = 0;
    size_t start = 0;
    *too_long = false;
    for (size_t i = 0; i <= size; i++) {
        if (i - start > srv.cfg.max_line) {
            *too_long = true;
            return n;
        }
        if (i == size)
            break;
        if (data[i] != '\n')
            continue;
        size_t len = i - start;
        if (len > 0 && data[start + len - 1] == '\r')
            len--;
        if (len > 0) {
            if (n == max)
                fail("more than %d lines", max);
            char err[256];
            json_t *m = ak_msg_parse((const char *)data + start, len, err, sizeof err);
            json_t *id = json_object_get(m, "id");
            out[n].bad_json = !m;
            out[n].id = json_is_integer(id) || json_is_string(id) ? json_incref(id) : NULL;
            json_decref(m);
            n++;
        }
        start = i + 1;
    }
    return n;
}

static void check_reply(const json_t *m, const struct expect *e, int i)
{
    const json_t *id = json_object_get(m, "id"), *ok = json_object_get(m, "ok");
    if (!json_is_boolean(ok))
        fail("reply %d has no ok", i);
    if (json_is_true(ok)) {
        if (!json_is_object(json_object_get(m, "result")))
            fail("reply %d is ok without a result", i);
    } else {
        const json_t *error = json_object_get(m, "error");
        const char *code = json_string_value(json_object_get(error, "code"));
        if (!code || !known_code(code) || !json_is_string(json_object_get(error, "message")))
            fail("reply %d has an error without a known code and a message", i);
        const char *section = json_string_value(json_object_get(error, "section"));
        if (strcmp(code, "illegal") == 0 &&
            (!json_is_string(json_object_get(error, "rule")) || !section || strcmp(section, "?") == 0))
            fail("reply %d says illegal without the rule and its section", i);
        /* Over the rate the line is not parsed: the id is picked out of
         * its text (ak_msg_peek_id), whatever the line is. */
        if (strcmp(code, "rate_limited") == 0) {
            if (!json_is_null(id) && !json_is_integer(id) && !json_is_string(id))
                fail("reply %d (rate_limited) has an id that is not null, a number or a string", i);
            return;
        }
    }
    if (!e)
        return;
    if (e->id ? !json_equal(id, e->id) : !json_is_null(id)) {
        char *want = e->id ? json_dumps(e->id, JSON_ENCODE_ANY) : NULL;
        char *got = json_dumps(m, JSON_COMPACT);
        fail("reply %d does not echo the id of request %d (%s): %.300s", i, i, want ? want : "null", got);
    }
    if (e->bad_json && !(json_is_false(ok) &&
                         strcmp(json_string_value(json_object_get(json_object_get(m, "error"), "code")),
                                "bad_json") == 0))
        fail("reply %d is not bad_json, for a line that is not a JSON object", i);
}

static bool same_id(const json_t *m, const struct expect *e)
{
    const json_t *id = json_object_get(m, "id");
    return e->id ? json_equal(id, e->id) : json_is_null(id);
}

/* FUZZ_REQUEST_EARLY_ERRORS: an error answered at once, ahead of replies
 * still to come, stands for line e: bad_json for a line that is not a JSON
 * object, rate_limited for any. */
static bool take_from_pool(const struct expect *e, int *pool_bad, int *pool_rate)
{
    if (e->bad_json && *pool_bad > 0) {
        --*pool_bad;
        return true;
    }
    if (*pool_rate > 0) {
        --*pool_rate;
        return true;
    }
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct expect want[AK_FRAME_DEFAULT_LIMIT];
    random_state = 1942;    /* not the start-up's 1941: its tokens are in the database */
    ak_throttle_reset();                    /* ak_throttle.c: login and registration counts */
    memset(buckets, 0, sizeof buckets);     /* ak_chat.c: the chat's rate */
    wire.len = 0;
    struct ak_conn *c = conn_open();
    wire.conn = c;
    if (debug)
        fprintf(stderr, "---- sent\n%.*s\n---- written\n", (int)size, (const char *)data);
    conn_feed(c, (const char *)data, size);
    conn_done(c);
    wire.conn = NULL;
    if (debug)
        fprintf(stderr, "%.*s----\n", (int)wire.len, wire.buf);

    /* A TLS client on this plaintext port is told so and cut off at once. */
    bool tls = size > 0 && data[0] == 0x16, too_long;
    const char *closed = NULL;     /* the error the connection was closed with */
    int nwant = expected(data, size, want, (int)(sizeof want / sizeof want[0]), &too_long), nreplies = 0;
    int pool_bad = 0, pool_rate = 0;    /* FUZZ_REQUEST_EARLY_ERRORS: errors not yet matched */
    /* akd's output is parsed into the arena (ak_fuzz.h): parsing it
     * with malloc under AddressSanitizer took a quarter of the time. */
    fuzz_arena_begin();
    for (size_t at = 0; at < wire.len;) {
        char *line = wire.buf + at, *nl = memchr(line, '\n', wire.len - at);
        if (!nl)
            fail("the output ends in the middle of a line");
        int len = (int)(nl - line);
        at += (size_t)len + 1;
        json_error_t je;
        json_t *m = json_loadb(line, (size_t)len, JSON_REJECT_DUPLICATES, &je);
        if (!json_is_object(m))
            fail("a line written is not a JSON object: %.*s", len, line);
        if (closed)
            fail("written after %s: %.*s", closed, len, line);
        const char *code = json_string_value(json_object_get(json_object_get(m, "error"), "code"));
        if (json_object_get(m, "push")) {
            if (!json_is_string(json_object_get(m, "push")) || json_object_get(m, "id"))
                fail("a push without its name, or with an id: %.*s", len, line);
        } else if (!json_object_get(m, "id")) {
            fail("a reply without an id: %.*s", len, line);
        } else if (code && (strcmp(code, "line_too_long") == 0 || strcmp(code, "tls_not_enabled") == 0)) {
            closed = strcmp(code, "line_too_long") == 0 ? "line_too_long" : "tls_not_enabled";
            if (!json_is_null(json_object_get(m, "id")) || (closed[0] == 'l' ? !too_long || tls : !tls))
                fail("%s with an id, or for an input without cause: %.*s", closed, len, line);
        } else if (early_errors && code && (strcmp(code, "bad_json") == 0 || strcmp(code, "rate_limited") == 0)) {
            check_reply(m, NULL, -1);   /* matched to a line below, in any order */
            if (code[0] == 'b')
                pool_bad++;
            else
                pool_rate++;
        } else {
            /* lines answered from the pool come before this reply's */
            while (early_errors && nreplies < nwant &&
                   (want[nreplies].bad_json || !same_id(m, &want[nreplies])) &&
                   take_from_pool(&want[nreplies], &pool_bad, &pool_rate))
                nreplies++;
            if (nreplies >= nwant || tls)
                fail("more replies than requests (%d): %.*s", nwant, len, line);
            check_reply(m, &want[nreplies], nreplies);
            nreplies++;
        }
        json_decref(m);
    }
    fuzz_arena_end();
    while (nreplies < nwant && take_from_pool(&want[nreplies], &pool_bad, &pool_rate))
        nreplies++;
    if (pool_bad || pool_rate)
        fail("%d bad_json and %d rate_limited replies with no line to answer", pool_bad, pool_rate);
    if ((too_long || tls) && !closed)
        fail("%s did not close the connection", tls ? "a TLS handshake" : "a line over the limit");
    if (!closed && nreplies != nwant)
        fail("%d replies to %d requests", nreplies, nwant);
    for (int i = 0; i < nwant; i++) {
        json_decref(want[i].id);
    }

    for (const struct ak_game *g = srv.games; g; g = g->next) {
        char why[200];
        if (g->state && !ak_state_check(g->state, why, sizeof why))
            fail("game %lld is not valid: %s", (long long)g->id, why);
    }
    if (data_version() != baseline_version || games_fingerprint() != baseline_games)
        back_to_baseline();
    return 0;
}
