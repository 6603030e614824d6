/* fuzz_request: request lines to their replies, through akd's own code.
 *
 * What it fuzzes: what akd does with the bytes a client sends: the
 * framing (proto/ak_frame.c), the codec (proto/ak_codec.c), the rate
 * limit and request queue of server/ak_conn.c (its on_read, on_line and
 * ak_conn_resume, the very functions, compiled in here), the command table
 * (ak_dispatch.c) and every command behind it: accounts, lobby, play,
 * undo, record, ladder, with the group commit (ak_batch.c) and the writer
 * thread (ak_writer.c) storing into SQLite, and the replies and pushes as
 * akd writes them.
 *
 * The server: a struct ak_server as akd's main sets it up (ak_games_load,
 * ak_batch_start, a libuv loop), on a database in a fresh directory under
 * $TMPDIR (or /tmp), with sync = normal (no fsync per commit),
 * allow_positions = 1 and max_line = 16384 (so a line over the limit is
 * within the fuzzer's reach); every other setting is akd's default. At
 * start-up it is given, through the same request path, three players
 * (alice, bob and carol, passwords "alice-password" and so on) and
 * games: 1 alice v bob played by random players (tests/ak_player.c) into
 * turn 3; 2 an open seek by alice with a time control; 3 bob's rated
 * challenge to carol; 4 carol v alice, rated, resigned (over, on the
 * ladder, its dice secret revealed); 5 carol v bob from a position; 6
 * aborted; 7 declined. The database and the games then are the baseline:
 * every input starts from it (after an input that changed the database,
 * which a PRAGMA data_version on a connection of the harness's own tells,
 * or a game in memory, the database is copied back with SQLite's backup
 * API and the games loaded again).
 *
 * Input: the bytes a client sends on one new connection, not logged in,
 * delivered in reads of at most 509 bytes (so lines are split across
 * reads); akd reads no further while the connection is paused (its queue
 * full), as it would not read the socket. After the input the harness
 * runs the loop until every reply is out (password work, commits), then
 * hangs up.
 *
 * What it asserts:
 *   - every line written is a JSON object: a reply (with "id") or a push;
 *   - exactly one reply per complete non-empty request line, in the order
 *     sent, each echoing the request's id (null for a line that is not a
 *     JSON object or has no valid id; what was sent, for a rate_limited
 *     one); a line that is not JSON gets bad_json;
 *   - a reply has "ok": true and a "result" object, or "ok": false and an
 *     "error" with a code of PROTOCOL.md's table (never "internal": the
 *     store here does not fail) and a message; "illegal" has rule and
 *     section;
 *   - a line over max_line gets line_too_long (id null), after which
 *     nothing more is answered: the replies before it are those of the
 *     lines before, in order, less the ones still waiting behind a
 *     password check or a commit when the connection closed;
 *   - every game in memory passes ak_state_check after each input.
 *
 * Not covered, and why: accepting a socket (on_connection: the connection
 * is made as it makes one, without uv_accept, getpeername and the
 * per-address limits), the socket writes themselves (uv_try_write is
 * replaced by a function that keeps the bytes: what akd would write, in
 * the order written), TLS, the clock's deadlines (ak_clock_start: time
 * controls are set and stored but never expire within an input), signals,
 * backups, and the notification command (none is configured). Password
 * hashing is replaced by a keyed BLAKE2b of the password (argon2id takes
 * tens of milliseconds by design); it still runs on the libuv work queue,
 * so the connection waits for it as in akd. libsodium's random bytes come
 * from a generator restarted for every input, so an input always draws
 * the same tokens, dice secrets and random sides. akd's JSON allocator
 * (ak_json_pool) is not installed, so AddressSanitizer sees every JSON
 * value. FUZZ_REQUEST_DEBUG=1 prints what is sent and written.
 */
#include <sodium.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ak_codec.h"
#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_player.h"
#include "ak_server.h"

#define MAX_LINE 16384
#define READ_MAX 509

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fuzz_request: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

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

#define uv_try_write fuzz_try_write
#define uv_read_start fuzz_read_start
#define uv_read_stop fuzz_read_stop
#include "../server/ak_conn.c"
#undef uv_try_write
#undef uv_read_start
#undef uv_read_stop

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

/* A connection as on_connection makes one, for a socket that is not there. */
static struct ak_conn *conn_open(void)
{
    struct ak_conn *c = calloc(1, sizeof *c);
    if (!c || ak_frame_init(&c->frame, srv.cfg.max_line) != 0)
        fail("out of memory");
    c->srv = &srv;
    c->refs = 3;    /* the socket, the idle timer, and the harness until conn_done */
    c->accepted = uv_now(&loop);
    c->queue = json_array();
    c->tokens = 2.0 * srv.cfg.rate;
    c->refilled = uv_now(&loop);
    uv_tcp_init(&loop, &c->tcp);
    uv_timer_init(&loop, &c->idle);
    c->tcp.data = c->idle.data = c;
    snprintf(c->peer, sizeof c->peer, "fuzz");
    c->next = srv.conns;
    srv.conns = c;
    srv.nconns++;
    if (srv.cfg.idle_timeout > 0)
        uv_timer_start(&c->idle, on_idle, (uint64_t)srv.cfg.idle_timeout * 1000, 0);
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
    pg.s = p.game->state;
    pg.before_apply = send_action;
    pg.ud = &p;
    if (!ak_player_play(&pg, 3) || ak_state_hash(&pg.s) != ak_state_hash(&p.game->state))
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

/* Changes when another connection (akd's) has committed since. */
static long long data_version(void)
{
    static sqlite3_stmt *st;
    long long v = -1;
    if (!st && sqlite3_prepare_v2(probe, "PRAGMA data_version", -1, &st, NULL) != SQLITE_OK)
        fail("data_version: %s", sqlite3_errmsg(probe));
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    return v;
}

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* The games in memory, as far as a request can change them. */
static uint64_t games_fingerprint(void)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = mix(h, &srv.next_game_id, sizeof srv.next_game_id);
    for (const struct ak_game *g = srv.games; g; g = g->next) {
        uint64_t state = ak_state_hash(&g->state);
        h = mix(h, &g->id, sizeof g->id);
        h = mix(h, &state, sizeof state);
        h = mix(h, g->player, sizeof g->player);
        h = mix(h, g->player_name, sizeof g->player_name);
        h = mix(h, &g->meta, sizeof g->meta);
        h = mix(h, &g->snapshot_seq, sizeof g->snapshot_seq);
        bool flags[4] = {g->creating, g->warned, g->overdue, g->position != NULL};
        h = mix(h, flags, sizeof flags);
        h = mix(h, &g->nwatchers, sizeof g->nwatchers);
    }
    return h;
}

static void copy_database(sqlite3 *to, sqlite3 *from)
{
    sqlite3_backup *b = sqlite3_backup_init(to, "main", from, "main");
    if (!b || sqlite3_backup_step(b, -1) != SQLITE_DONE || sqlite3_backup_finish(b) != SQLITE_OK)
        fail("copying the database: %s", sqlite3_errmsg(to));
}

static void back_to_baseline(void)
{
    copy_database(probe, baseline);
    ak_games_free(&srv);
    srv.next_game_id = 0;
    srv.skipped_games = 0;
    if (ak_games_load(&srv) != 0 || srv.skipped_games)
        fail("the baseline games do not load again");
    baseline_version = data_version();
    if (games_fingerprint() != baseline_games)
        fail("the games loaded again differ from the baseline");
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
    randombytes_set_implementation(&fixed_random);
    if (sodium_init() < 0)
        fail("libsodium failed to initialise");
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/akd-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        fail("cannot make a directory in %s", tmp && *tmp ? tmp : "/tmp");
    snprintf(db_path, sizeof db_path, "%s/akd.sqlite3", dir);
    atexit(remove_files);
    umask(077);

    ak_config_defaults(&srv.cfg);
    snprintf(srv.cfg.db, sizeof srv.cfg.db, "%s", db_path);
    srv.cfg.sync_full = false;
    srv.cfg.allow_positions = 1;
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

    if (sqlite3_open_v2(db_path, &probe, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
        sqlite3_open(":memory:", &baseline) != SQLITE_OK)
        fail("cannot open the database twice");
    sqlite3_busy_timeout(probe, 5000);
    copy_database(baseline, probe);
    baseline_version = data_version();
    baseline_games = games_fingerprint();
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
    "session_ended", "tls_not_enabled",
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
        if (strcmp(code, "illegal") == 0 && (!json_is_string(json_object_get(error, "rule")) ||
                                             !json_is_string(json_object_get(error, "section"))))
            fail("reply %d says illegal without the rule and section", i);
        /* Over the rate the line is not parsed: the id is picked out of
         * its text (ak_msg_peek_id), whatever the line is. */
        if (strcmp(code, "rate_limited") == 0) {
            if (!json_is_null(id) && !json_is_integer(id) && !json_is_string(id))
                fail("reply %d (rate_limited) has an id that is not null, a number or a string", i);
            return;
        }
    }
    if (e->id ? !json_equal(id, e->id) : !json_is_null(id))
        fail("reply %d does not echo the id of request %d", i, i);
    if (e->bad_json && !(json_is_false(ok) &&
                         strcmp(json_string_value(json_object_get(json_object_get(m, "error"), "code")),
                                "bad_json") == 0))
        fail("reply %d is not bad_json, for a line that is not a JSON object", i);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct expect want[AK_FRAME_DEFAULT_LIMIT];
    random_state = 1941;
    memset(failures, 0, sizeof failures);   /* ak_accounts.c: failed logins */
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
        } else {
            if (nreplies >= nwant || tls)
                fail("more replies than requests (%d): %.*s", nwant, len, line);
            check_reply(m, &want[nreplies], nreplies);
            nreplies++;
        }
        json_decref(m);
    }
    if ((too_long || tls) && !closed)
        fail("%s did not close the connection", tls ? "a TLS handshake" : "a line over the limit");
    if (!closed && nreplies != nwant)
        fail("%d replies to %d requests", nreplies, nwant);
    for (int i = 0; i < nwant; i++) {
        json_decref(want[i].id);
    }

    for (const struct ak_game *g = srv.games; g; g = g->next) {
        char why[200];
        if (!ak_state_check(&g->state, why, sizeof why))
            fail("game %lld is not valid: %s", (long long)g->id, why);
    }
    if (data_version() != baseline_version || games_fingerprint() != baseline_games)
        back_to_baseline();
    return 0;
}
