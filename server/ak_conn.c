/* ak_conn: accepting connections, reading lines, writing replies, and the
 * connection limits: in total and per address (refused with an error at
 * once), time allowed before logging in (closed with an error), requests
 * per second (a token bucket: over the rate a request gets "rate_limited"
 * and is not run), and the longest line (closed with an error).
 *
 * The TCP transport lives here: with TLS (ak_tls.c) the bytes read go
 * through the connection's TLS state before framing, and what a loop turn
 * gathered for a connection is sealed in one piece before the same single
 * write. A WebSocket (ak_web.c) is another transport behind the same
 * struct ak_transport: it opens its connections with ak_conn_open and
 * feeds what it reads to ak_conn_feed, so both share every limit above. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_codec.h"
#include "ak_server.h"

/* Output kept between turns up to this size; a connection whose unwritten
 * output passes the backlog limit is not reading and is closed. */
#define OUT_KEEP 4096
/* Requests that may wait behind a command still running before the
 * connection is no longer read (pipelining is fine, flooding is not), in
 * number and in bytes. They wait as text, parsed when their turn comes. */
#define QUEUE_MAX 64
#define QUEUE_BYTES_MAX (256u << 10)

struct queued_line {
    struct queued_line *next;
    size_t len;
    bool over_rate;         /* refused on arrival: answered in its turn, not run */
    char text[];
};
/* A TLS handshake not finished in this many seconds is dropped (a client
 * that connects and says nothing holds a connection slot meanwhile). */
#define HANDSHAKE_SECONDS 10

static void conn_close(struct ak_conn *c);
static void mark_dirty(struct ak_conn *c);
static void on_idle(uv_timer_t *t);
static void throttle(struct ak_conn *c);

struct write_req {
    uv_write_t req;
    struct ak_conn *c;      /* alive until its writes are called back (the close cancels them first) */
    char *data;
    size_t len;
};

/* Written, or cancelled by the socket's close: either way no longer held. */
static void on_write(uv_write_t *req, int status)
{
    struct write_req *w = (struct write_req *)req;
    (void)status;
    ak_conn_output_taken(w->c->srv, w->c, w->len);
    free(w->data);
    free(w);
}

void ak_conn_output_held(struct ak_server *srv, struct ak_conn *c, size_t n)
{
    srv->out_total += n;
    if (c)
        c->held += n;
}

void ak_conn_output_taken(struct ak_server *srv, struct ak_conn *c, size_t n)
{
    srv->out_total -= n < srv->out_total ? n : srv->out_total;
    if (c)
        c->held -= n < c->held ? n : c->held;
}

/* The connection holding the most unread output. */
static struct ak_conn *largest_holder(struct ak_server *srv)
{
    struct ak_conn *big = NULL;
    for (struct ak_conn *k = srv->conns; k; k = k->next)
        if (!k->closing && !k->doomed && (!big || k->held > big->held))
            big = k;
    return big;
}

/* Past max_output_total, the client holding the most is the one that goes
 * (closed at the end of this loop turn, with nothing more written to it),
 * not whichever client happens to be sent something next: a player who
 * reads slowly is not closed for a stranger who never reads. */
static bool make_room(struct ak_conn *c, size_t more)
{
    const struct ak_config *cfg = &c->srv->cfg;
    struct ak_conn *big = largest_holder(c->srv);
    if (!big || big == c || big->held < more) {
        ak_log(AK_LOG_WARN, "clients hold %zu bytes of output unread in all (max_output_total %zu); closing %s, "
               "which would add %zu more", c->srv->out_total, cfg->max_output_total, c->peer, more);
        return false;
    }
    ak_log(AK_LOG_WARN, "clients hold %zu bytes of output unread in all (max_output_total %zu); closing %s, "
           "which holds %zu of them", c->srv->out_total, cfg->max_output_total, big->peer, big->held);
    big->doomed = true;
    mark_dirty(big);
    return true;
}

bool ak_conn_output_fits(struct ak_conn *c, size_t waiting, size_t more)
{
    const struct ak_config *cfg = &c->srv->cfg;
    size_t limit = c->user ? cfg->max_output_player : cfg->max_output_anonymous;
    if (waiting + more > limit) {
        ak_log(AK_LOG_WARN, "%s does not read what it is sent (%zu bytes would wait, its limit is %zu: "
               "max_output_%s); closing", c->peer, waiting + more, limit, c->user ? "player" : "anonymous");
        return false;
    }
    if (c->srv->out_total + more > cfg->max_output_total)
        return make_room(c, more);
    return true;
}

/* Room for `more` bytes after c's queued output. */
static bool reserve(struct ak_conn *c, size_t more)
{
    if (c->out_len + more <= c->out_cap)
        return true;
    if (!ak_conn_output_fits(c, c->out_len, more)) {
        conn_close(c);      /* what it was sent already this turn still goes */
        return false;
    }
    size_t cap = c->out_cap ? c->out_cap : 1024;
    while (cap < c->out_len + more)
        cap *= 2;
    char *out = realloc(c->out, cap);
    if (!out)
        return false;
    c->out = out;
    c->out_cap = cap;
    return true;
}

/* c has output for the end of this loop turn. */
static void mark_dirty(struct ak_conn *c)
{
    if (c->dirty)
        return;
    c->dirty = true;
    c->refs++;
    c->next_dirty = c->srv->dirty;
    c->srv->dirty = c;
    if (c->srv->hooks.output)
        c->srv->hooks.output(c->srv);
}

/* Queue bytes for c; they are written with everything else c is sent in
 * this loop turn, in one system call, by ak_conn_flush_all. */
void ak_conn_send_bytes(struct ak_conn *c, const char *bytes, size_t len)
{
    if (c->closing || !reserve(c, len))
        return;
    memcpy(c->out + c->out_len, bytes, len);
    c->out_len += len;
    mark_dirty(c);
}

/* Write the bytes in *buf (its length *len, capacity *cap: c's output
 * buffer, or its sealed TLS bytes): straight into the socket when nothing
 * is waiting before them, the rest (what the socket would not take)
 * through a libuv write request that owns its copy. */
static void send_buffer(struct ak_conn *c, char **out, size_t *out_len, size_t *out_cap)
{
    uv_stream_t *s = (uv_stream_t *)&c->tcp;
    size_t done = 0;
    if (*out_len == 0)
        return;
    if (uv_stream_get_write_queue_size(s) == 0) {
        uv_buf_t buf = uv_buf_init(*out, (unsigned)*out_len);
        int n = uv_try_write(s, &buf, 1);
        if (n < 0 && n != UV_EAGAIN) {
            *out_len = 0;       /* a broken connection: reading will close it */
            return;
        }
        done = n > 0 ? (size_t)n : 0;
    }
    size_t rest = *out_len - done;
    *out_len = 0;
    if (rest == 0) {
        if (*out_cap > OUT_KEEP) {
            free(*out);
            *out = NULL;
            *out_cap = 0;
        }
        return;
    }
    if (!ak_conn_output_fits(c, uv_stream_get_write_queue_size(s), rest)) {
        conn_close(c);
        return;
    }
    struct write_req *w = malloc(sizeof *w);
    char *data = done == 0 ? *out : malloc(rest);
    if (!w || !data) {
        free(w);
        if (data != *out)
            free(data);
        conn_close(c);
        return;
    }
    if (data == *out) {     /* hand the whole buffer over */
        *out = NULL;
        *out_cap = 0;
    } else {
        memcpy(data, *out + done, rest);
    }
    w->data = data;
    w->c = c;
    w->len = rest;
    uv_buf_t buf = uv_buf_init(data, (unsigned)rest);
    if (uv_write(&w->req, s, &buf, 1, on_write) != 0) {
        free(data);
        free(w);
        return;
    }
    ak_conn_output_held(c->srv, c, rest);
}

/* TLS: seal the turn's output (once the handshake is done; until then it
 * waits), then send every sealed byte, handshake records included. */
static void write_sealed(struct ak_conn *c)
{
    if (c->out_len && ak_tls_ready(c->tls)) {
        if (!ak_tls_seal(c->tls, c->out, c->out_len)) {
            ak_log(AK_LOG_WARN, "%s: %s", c->peer, ak_tls_error(c->tls));
            c->out_len = 0;
            conn_close(c);
            return;
        }
        c->out_len = 0;
    }
    size_t n = ak_tls_pending(c->tls);
    if (n == 0)
        return;
    if (c->cipher_cap < n) {
        char *b = realloc(c->cipher, n);
        if (!b) {
            conn_close(c);
            return;
        }
        c->cipher = b;
        c->cipher_cap = n;
    }
    c->cipher_len = ak_tls_take(c->tls, c->cipher, n);
    send_buffer(c, &c->cipher, &c->cipher_len, &c->cipher_cap);
}

static void tcp_write(struct ak_conn *c)
{
    if (c->tls)
        write_sealed(c);
    else
        send_buffer(c, &c->out, &c->out_len, &c->out_cap);
}

void ak_conn_flush_all(struct ak_server *srv)
{
    struct ak_conn *c = srv->dirty;
    srv->dirty = NULL;
    while (c) {
        struct ak_conn *next = c->next_dirty;
        c->dirty = false;
        if (c->doomed && !c->closing) {
            c->out_len = 0;     /* it goes for holding too much: nothing more for it */
            conn_close(c);
        } else if (!c->closing) {
            c->tp->write(c);
        }
        ak_conn_unref(c);
        c = next;
    }
}

/* Encoded straight into c's output buffer (grown and encoded again in the
 * rare case it is too small). */
void ak_conn_send(struct ak_conn *c, const json_t *msg)
{
    if (c->closing)
        return;
    size_t room = c->out_cap - c->out_len;
    size_t n = ak_msg_encode_to(msg, c->out ? c->out + c->out_len : NULL, room);
    if (n > room && reserve(c, n))
        n = ak_msg_encode_to(msg, c->out + c->out_len, n);
    if (n == 0 || n > c->out_cap - c->out_len)
        return;
    c->out_len += n;
    mark_dirty(c);
}

void ak_conn_reply_ok_text(struct ak_conn *c, const json_t *id, const char *result, size_t len)
{
    if (c->closing)
        return;
    size_t room = c->out_cap - c->out_len;
    size_t n = ak_msg_ok_text_to(id, result, len, c->out ? c->out + c->out_len : NULL, room);
    if (n > room && reserve(c, n))
        n = ak_msg_ok_text_to(id, result, len, c->out + c->out_len, n);
    if (n == 0 || n > c->out_cap - c->out_len)
        return;
    c->out_len += n;
    mark_dirty(c);
}

void ak_conn_reply_ok(struct ak_conn *c, const json_t *id, json_t *result)
{
    json_t *m = ak_msg_ok(id, result);
    ak_conn_send(c, m);
    json_decref(m);
}

void ak_conn_reply_error(struct ak_conn *c, const json_t *id, const char *code, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    json_t *m = ak_msg_error(id, code, text);
    ak_stats_error(code);
    ak_conn_send(c, m);
    json_decref(m);
}

static void unlink_conn(struct ak_conn *c)
{
    for (struct ak_conn **p = &c->srv->conns; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            c->srv->nconns--;
            return;
        }
}

void ak_conn_unref(struct ak_conn *c)
{
    if (--c->refs > 0)
        return;
    ak_frame_free(&c->frame);
    while (c->queue) {
        struct queued_line *q = c->queue;
        c->queue = q->next;
        free(q);
    }
    ak_tls_free(c->tls);
    free(c->cipher);
    free(c->out);
    free(c);
}

static void on_close(uv_handle_t *h)
{
    ak_conn_unref((struct ak_conn *)h->data);
}

static void conn_close(struct ak_conn *c)
{
    if (c->closing)
        return;
    /* Closing first: a write that fails now calls conn_close again, which
     * must find the handles already on their way out. */
    c->closing = true;
    c->tp->write(c);    /* a last error reply goes out before the transport closes */
    if (c->srv->hooks.closing)
        c->srv->hooks.closing(c);
    unlink_conn(c);
    ak_log_with(AK_LOG_INFO, AK_LOG_CONN(c, 0), "connection from %s closed", c->peer);
    uv_close((uv_handle_t *)&c->idle, on_close);
    uv_close((uv_handle_t *)&c->throttle, on_close);
    c->tp->close(c);
}

void ak_conn_close(struct ak_conn *c)
{
    conn_close(c);
}

void ak_conn_refuse(struct ak_conn *c, const json_t *id, const char *code, const char *text)
{
    ak_conn_reply_error(c, id, code, "%s", text);
    conn_close(c);
}

void ak_conn_authenticated(struct ak_conn *c)
{
    uv_timer_stop(&c->idle);
    if (c->user && c->srv->hooks.anonymous)
        c->srv->hooks.anonymous(c, false);  /* no longer an anonymous watcher */
}

void ak_conn_signed_out(struct ak_conn *c)
{
    if (c->srv->hooks.anonymous)
        c->srv->hooks.anonymous(c, true);
    if (c->srv->cfg.idle_timeout > 0 && !c->closing) {
        c->accepted = uv_now(c->srv->loop);     /* the time to log in starts again */
        uv_timer_start(&c->idle, on_idle, (uint64_t)c->srv->cfg.idle_timeout * 1000, 0);
    }
}

void ak_conn_end_sessions(struct ak_server *srv, int64_t user, const char *token_hash,
                          const char *keep_token_hash, const char *why)
{
    struct ak_conn *next;
    for (struct ak_conn *c = srv->conns; c; c = next) {
        next = c->next;     /* closing c unlinks only c */
        if (!c->user || c->closing)
            continue;
        bool same_token = token_hash && strcmp(c->token_hash, token_hash) == 0;
        bool same_user = user && c->user == user &&
                         (!keep_token_hash || strcmp(c->token_hash, keep_token_hash) != 0);
        if (!same_token && !same_user)
            continue;
        ak_log(AK_LOG_INFO, "ending %s's connection from %s: %s", c->user_name, c->peer, why);
        char text[200];
        snprintf(text, sizeof text, "%s; log in again", why);
        ak_conn_refuse(c, NULL, "session_ended", text);
    }
}

void ak_conn_tick(struct ak_server *srv)
{
    int64_t now = ak_now();
    uint64_t ms = uv_now(srv->loop), silent = (uint64_t)srv->cfg.session_idle_timeout * 1000;
    struct ak_conn *next;
    for (struct ak_conn *c = srv->conns; c; c = next) {
        next = c->next;
        if (c->closing || (!c->user && !c->nwatch))
            continue;       /* waiting to log in: its idle timer */
        if (c->user && c->session_expires && c->session_expires <= now) {
            ak_log(AK_LOG_INFO, "%s's session from %s expired", c->user_name, c->peer);
            ak_conn_refuse(c, NULL, "session_ended", "the session expired; log in again");
        } else if (silent && !c->busy && ms - c->last_heard > silent) {
            ak_log(AK_LOG_INFO, "%s's connection from %s said nothing for %d s; closing",
                   c->user ? c->user_name : "a spectator", c->peer, srv->cfg.session_idle_timeout);
            ak_conn_refuse(c, NULL, "idle_timeout", "nothing was sent for too long (send ping to stay); closing");
        }
    }
}

static void on_idle(uv_timer_t *t)
{
    struct ak_conn *c = t->data;
    if (c->tls && !ak_tls_ready(c->tls)) {
        int limit = c->srv->cfg.idle_timeout;
        if (limit <= 0 || limit > HANDSHAKE_SECONDS)
            limit = HANDSHAKE_SECONDS;
        ak_log(AK_LOG_INFO, "%s did not finish its TLS handshake within %d s; closing", c->peer, limit);
        conn_close(c);
        return;
    }
    uint64_t waited = uv_now(c->srv->loop) - c->accepted, limit = (uint64_t)c->srv->cfg.idle_timeout * 1000;
    if (!limit)
        return;                 /* no limit on logging in */
    if (waited < limit) {       /* the handshake's own deadline passed: now the login's */
        uv_timer_start(&c->idle, on_idle, limit - waited, 0);
        return;
    }
    ak_log(AK_LOG_INFO, "%s did not log in within %d s; closing", c->peer, c->srv->cfg.idle_timeout);
    ak_conn_refuse(c, NULL, "idle_timeout", "no login in time; closing the connection");
}

/* Token bucket: `rate` requests per second, bursts of twice that. */
bool ak_conn_charge(struct ak_conn *c, int n)
{
    int rate = c->srv->cfg.rate;
    if (rate <= 0 || n <= 0)
        return true;
    uint64_t now = uv_now(c->srv->loop);
    c->tokens += (double)(now - c->refilled) * rate / 1000.0;
    if (c->tokens > 2.0 * rate)
        c->tokens = 2.0 * rate;
    c->refilled = now;
    if (c->tokens < n) {
        throttle(c);
        return false;
    }
    c->tokens -= n;
    return true;
}

/* Every read lands in one buffer: the loop handles each read completely
 * (ak_frame keeps a partial line) before the next one starts. A
 * connection that went over its rate gets small reads: every request read
 * must be answered, and a flooder's 64 KiB of requests would hold the loop
 * (and the players' actions behind it) for milliseconds. */
static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    static char space[64 * 1024];
    const struct ak_conn *c = h->data;
    (void)suggested;
    *buf = uv_buf_init(space, c->overruns ? 2048 : sizeof space);
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf);

/* Read c exactly when nothing holds it back: its queue of waiting
 * requests full (paused), its rate exceeded (throttled), or closing. */
static void update_reading(struct ak_conn *c)
{
    if (!c->closing)
        c->tp->set_reading(c, !c->paused && !c->throttled);
}

static void tcp_set_reading(struct ak_conn *c, bool on)
{
    if (on)
        uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
    else
        uv_read_stop((uv_stream_t *)&c->tcp);
}

static void tcp_close(struct ak_conn *c)
{
    uv_close((uv_handle_t *)&c->tcp, on_close);
    uv_close((uv_handle_t *)&c->linger, on_close);
}

static const struct ak_transport tcp_transport = {"tcp", tcp_write, tcp_set_reading, tcp_close};

static void on_throttle_end(uv_timer_t *t)
{
    struct ak_conn *c = t->data;
    c->throttled = false;
    update_reading(c);
}

/* c went over its rate (or its address's, or its account's): it is not
 * read until its budget has refilled by a quarter of a burst, so a flood
 * is held back by TCP instead of being read and refused line by line. */
void ak_conn_throttle(struct ak_conn *c)
{
    throttle(c);
}

static void throttle(struct ak_conn *c)
{
    if (c->throttled)
        return;
    c->throttled = true;
    c->overruns++;
    /* A quarter of the 2 s burst, give or take: connections throttled in
     * one loop turn must not all come back in one later turn together. */
    uv_timer_start(&c->throttle, on_throttle_end, 400 + (c->id * 37 + (uint64_t)c->overruns * 53) % 200, 0);
    update_reading(c);
}

/* Over the rate, a request costs no parsing: its id is picked out of
 * the text for the reply (ak_msg_peek_id), nothing more. */
static void refuse_over_rate(struct ak_conn *c, const char *line, size_t len)
{
    json_t *id = ak_msg_peek_id(line, len);
    if (c->over_address)
        ak_conn_reply_error(c, id, "rate_limited", "more than %d requests per second from your address, all "
                            "connections together; this one was not run", c->srv->cfg.rate_per_address);
    else
        ak_conn_reply_error(c, id, "rate_limited", "more than %d requests per second; this one was not run",
                            c->srv->cfg.rate);
    json_decref(id);
}

/* One line's worth of c's own rate and of its address's (ak_budget.c),
 * before anything else is done with it; false (c throttled): over. */
static bool charge_line(struct ak_conn *c)
{
    if (!ak_conn_charge(c, 1))
        return false;
    if (!c->addr_key)
        c->addr_key = ak_budget_address_key(c->peer);
    c->over_address = !ak_budget_charge(&c->srv->cfg, AK_BUDGET_ADDRESS, c->addr_key, 1, uv_now(c->srv->loop));
    if (c->over_address)
        throttle(c);
    return !c->over_address;
}

/* Parse a request and run it. */
static void run_line(struct ak_conn *c, const char *line, size_t len)
{
    char err[256];
    json_t *msg = ak_msg_parse(line, len, err, sizeof err);
    if (!msg) {
        ak_conn_reply_error(c, NULL, "bad_json", "%s", err);
        return;
    }
    if (c->srv->hooks.request)
        c->srv->hooks.request(c, msg);
    json_decref(msg);
}

static int on_line(void *ud, char *line, size_t len)
{
    struct ak_conn *c = ud;
    c->last_heard = uv_now(c->srv->loop);
    bool over_rate = !charge_line(c);     /* throttles c when over */
    if (over_rate && !c->busy) {
        refuse_over_rate(c, line, len);
        return 0;
    }
    /* Behind a command still running, even a refusal waits its turn:
     * replies go out in the order of the requests. */
    if (c->busy) {
        struct queued_line *q = malloc(sizeof *q + len);
        if (!q) {
            json_t *id = ak_msg_peek_id(line, len);
            ak_conn_reply_error(c, id, "internal", "out of memory");
            json_decref(id);
            return 0;
        }
        q->next = NULL;
        q->len = len;
        q->over_rate = over_rate;
        memcpy(q->text, line, len);
        if (!c->queue)
            c->queue_tail = &c->queue;
        *c->queue_tail = q;
        c->queue_tail = &q->next;
        c->nqueued++;
        c->queued_bytes += len;
        if ((c->nqueued >= QUEUE_MAX || c->queued_bytes >= QUEUE_BYTES_MAX) && !c->paused) {
            c->paused = true;   /* read on when it has caught up */
            ak_log(AK_LOG_DEBUG, "%s: %d requests (%zu bytes) wait; not reading until they are answered",
                   c->peer, c->nqueued, c->queued_bytes);
            update_reading(c);
        }
        return 0;
    }
    run_line(c, line, len);
    return c->closing ? 1 : 0;
}

/* Decrypted bytes go to the framing as plain ones do (2: a line too long). */
static int on_plain(void *ud, char *data, size_t len)
{
    struct ak_conn *c = ud;
    int rc = ak_frame_feed(&c->frame, data, len, on_line, c);
    return rc == -1 ? 2 : rc;
}

/* A TLS client on the plaintext port: its first byte is a handshake
 * record's (22). Say so in plain words (akc shows them) and close. */
static bool tls_on_plain_port(struct ak_conn *c, const char *data, ssize_t n)
{
    bool first = !c->spoke;
    c->spoke = true;
    if (c->tls || !first || n < 1 || (unsigned char)data[0] != 0x16)
        return false;
    ak_log(AK_LOG_INFO, "%s speaks TLS to a plaintext port; closing", c->peer);
    ak_conn_refuse(c, NULL, "tls_not_enabled", "this akd does not speak TLS on this port; connect without TLS");
    return true;
}

static void refuse_long_line(struct ak_conn *c)
{
    ak_conn_reply_error(c, NULL, "line_too_long", "a message is longer than %zu bytes; closing the connection",
                        c->frame.limit);
    ak_log(AK_LOG_WARN, "%s sent a line over the limit", c->peer);
    conn_close(c);
}

/* A WebSocket's bytes: its frames end its messages, as newlines do. */
void ak_conn_feed(struct ak_conn *c, const char *data, size_t len, bool end)
{
    if (c->closing)
        return;
    c->refs++;  /* a command may close the connection under us */
    c->spoke = true;
    int rc = ak_frame_feed(&c->frame, data, len, on_line, c);
    if (rc == 0 && end && !c->closing)
        rc = ak_frame_feed(&c->frame, "\n", 1, on_line, c);
    if (rc == -1)
        refuse_long_line(c);
    ak_conn_unref(c);
}

void ak_conn_transport_gone(struct ak_conn *c)
{
    conn_close(c);      /* nothing when it was closing already */
    uv_close((uv_handle_t *)&c->linger, on_close);
    ak_conn_unref(c);
}

static void conn_bytes(struct ak_conn *c, char *data, ssize_t n);
static void refuse_at_accept(struct ak_conn *c, const char *why);
static int connections_from(const struct ak_server *srv, const char *peer);

/* The PROXY v2 header of a trusted proxy, before anything else: bytes
 * are kept until it is whole; then the client's address becomes the
 * peer, counted against max_per_address like any, and what followed it is
 * the client's. A connection from a trusted proxy that does not start
 * with one is closed. */
static void proxy_bytes(struct ak_conn *c, char *data, ssize_t n)
{
    size_t take = sizeof c->proxy_buf - c->proxy_len;
    if ((size_t)n < take)
        take = (size_t)n;
    memcpy(c->proxy_buf + c->proxy_len, data, take);
    c->proxy_len += take;
    char real[64];
    int need = ak_proxy_v2_parse(c->proxy_buf, c->proxy_len, real, sizeof real);
    if (need < 0) {
        ak_log(AK_LOG_WARN, "%s is a trusted proxy but sent no PROXY v2 header; closing", c->peer);
        conn_close(c);
        return;
    }
    if ((size_t)need > c->proxy_len)
        return;
    c->proxy_wait = false;
    if (real[0]) {
        ak_log_with(AK_LOG_INFO, AK_LOG_CONN(c, 0), "connection from %s by way of %s", real, c->peer);
        snprintf(c->peer, sizeof c->peer, "%s", real);
        c->addr_key = 0;    /* the client's budget now */
    }
    const struct ak_config *cfg = &c->srv->cfg;
    if (cfg->max_per_address && connections_from(c->srv, c->peer) > cfg->max_per_address) {
        ak_log(AK_LOG_WARN, "refusing %s: %d connections from it (the limit)", c->peer, cfg->max_per_address);
        refuse_at_accept(c, "too many connections from your address");
        return;
    }
    /* what came after the header in this read (the header is never more
     * than this read and the ones before it) */
    size_t rest = c->proxy_len - (size_t)need;
    if (rest > 0)
        conn_bytes(c, data + (take - rest), (ssize_t)rest);
    if (take < (size_t)n && !c->closing)
        conn_bytes(c, data + take, n - (ssize_t)take);
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    struct ak_conn *c = s->data;
    if (n > 0 && !c->closing && c->proxy_wait)
        proxy_bytes(c, buf->base, n);
    else if (n > 0)
        conn_bytes(c, buf->base, n);
    else if (n < 0)
        conn_close(c);
}

static void conn_bytes(struct ak_conn *c, char *data, ssize_t n)
{
    if (!c->closing && !tls_on_plain_port(c, data, n)) {
        c->refs++;  /* a command may close the connection under us */
        int rc;
        if (c->tls) {
            rc = ak_tls_feed(c->tls, data, (size_t)n, on_plain, c);
            rc = rc == 2 ? -1 : rc == -1 ? -2 : rc;
            if (!c->closing && ak_tls_pending(c->tls))
                mark_dirty(c);      /* handshake records to send */
        } else {
            rc = ak_frame_feed(&c->frame, data, (size_t)n, on_line, c);
        }
        if (rc == -2) {
            ak_log(AK_LOG_INFO, "%s: %s; closing", c->peer, ak_tls_error(c->tls));
            conn_close(c);
        } else if (rc == -1) {
            refuse_long_line(c);
        }
        ak_conn_unref(c);
    }
}

void ak_conn_hold(struct ak_conn *c)
{
    c->busy = true;
}

void ak_conn_resume(struct ak_conn *c)
{
    c->busy = false;
    while (!c->closing && !c->busy && c->queue) {
        struct queued_line *q = c->queue;
        c->queue = q->next;
        c->nqueued--;
        c->queued_bytes -= q->len;
        if (q->over_rate)
            refuse_over_rate(c, q->text, q->len);
        else
            run_line(c, q->text, q->len);
        free(q);
    }
    if (!c->closing && !c->busy && c->paused) {
        c->paused = false;
        update_reading(c);
    }
}

/* A connection over a limit at accept: told so in plaintext; over TLS,
 * whose handshake has not even begun, only closed. */
static void refuse_at_accept(struct ak_conn *c, const char *why)
{
    ak_stats_refused();
    if (c->tls)
        conn_close(c);
    else
        ak_conn_refuse(c, NULL, "too_many_connections", why);
}

int ak_conn_count_from(const struct ak_server *srv, const char *peer)
{
    return connections_from(srv, peer);
}

static int connections_from(const struct ak_server *srv, const char *peer)
{
    int n = 0;
    for (const struct ak_conn *k = srv->conns; k; k = k->next)
        n += strcmp(k->peer, peer) == 0;
    return n;
}

/* A connection's own state, not yet counted nor admitted. */
static struct ak_conn *conn_new(struct ak_server *srv, const struct ak_transport *tp)
{
    struct ak_conn *c = calloc(1, sizeof *c);
    if (!c || ak_frame_init(&c->frame, srv->cfg.max_line) != 0) {
        free(c);
        return NULL;
    }
    c->srv = srv;
    c->tp = tp;
    c->refs = 4;    /* the transport and the idle, throttle and linger timers */
    c->accepted = uv_now(srv->loop);
    c->queue_tail = &c->queue;
    c->tokens = 2.0 * srv->cfg.rate;
    c->refilled = uv_now(srv->loop);
    uv_timer_init(srv->loop, &c->idle);
    uv_timer_init(srv->loop, &c->throttle);
    uv_timer_init(srv->loop, &c->linger);
    c->idle.data = c->throttle.data = c->linger.data = c;
    return c;
}

/* Count c among the connections, or refuse it over a limit; start its
 * time to log in (or to finish its TLS handshake). */
static void conn_admit(struct ak_conn *c)
{
    struct ak_server *srv = c->srv;
    int from_peer = connections_from(srv, c->peer);
    c->next = srv->conns;
    srv->conns = c;
    srv->nconns++;
    static uint64_t last_id;
    c->id = ++last_id;
    ak_log_with(AK_LOG_INFO, AK_LOG_CONN(c, 0), "connection from %s%s%s", c->peer, c->tls ? " (TLS)" : "",
                c->ws ? " (WebSocket)" : "");
    if (srv->cfg.max_connections && srv->nconns > srv->cfg.max_connections) {
        ak_log(AK_LOG_WARN, "refusing %s: %d connections (the limit)", c->peer, srv->cfg.max_connections);
        refuse_at_accept(c, "the server is full; try again later");
        return;
    }
    if (srv->cfg.max_per_address && from_peer >= srv->cfg.max_per_address && !c->proxy_wait) {
        ak_log(AK_LOG_WARN, "refusing %s: %d connections from it (the limit)", c->peer,
               srv->cfg.max_per_address);
        refuse_at_accept(c, "too many connections from your address");
        return;
    }
    uint64_t wait = srv->cfg.idle_timeout > 0 ? (uint64_t)srv->cfg.idle_timeout * 1000 : 0;
    if (c->tls && (!wait || wait > HANDSHAKE_SECONDS * 1000))
        wait = HANDSHAKE_SECONDS * 1000;
    if (wait)
        uv_timer_start(&c->idle, on_idle, wait, 0);
    c->tp->set_reading(c, true);
}

struct ak_conn *ak_conn_open(struct ak_server *srv, const struct ak_transport *tp, void *ws, const char *peer)
{
    if (srv->stopping)
        return NULL;
    struct ak_conn *c = conn_new(srv, tp);
    if (!c)
        return NULL;
    c->ws = ws;
    snprintf(c->peer, sizeof c->peer, "%s", peer);
    conn_admit(c);
    return c;
}

static void on_connection(uv_stream_t *server, int status)
{
    struct ak_server *srv = server->data;
    if (status < 0 || srv->stopping)
        return;
    struct ak_conn *c = conn_new(srv, &tcp_transport);
    if (!c)
        return;
    if (srv->tls && !(c->tls = ak_tls_new(srv->tls))) {
        c->closing = true;
        uv_close((uv_handle_t *)&c->idle, on_close);
        uv_close((uv_handle_t *)&c->throttle, on_close);
        uv_close((uv_handle_t *)&c->linger, on_close);
        ak_conn_unref(c);   /* no socket to close */
        return;
    }
    uv_tcp_init(srv->loop, &c->tcp);
    c->tcp.data = c;
    if (uv_accept(server, (uv_stream_t *)&c->tcp) != 0) {
        c->closing = true;
        uv_close((uv_handle_t *)&c->idle, on_close);
        uv_close((uv_handle_t *)&c->throttle, on_close);
        uv_close((uv_handle_t *)&c->tcp, on_close);
        uv_close((uv_handle_t *)&c->linger, on_close);
        return;
    }
    struct sockaddr_storage addr;
    int alen = sizeof addr;
    char host[48] = "?";
    if (uv_tcp_getpeername(&c->tcp, (struct sockaddr *)&addr, &alen) == 0)
        uv_ip_name((struct sockaddr *)&addr, host, sizeof host);
    snprintf(c->peer, sizeof c->peer, "%s", host);
    /* a trusted proxy's connections are counted by the client's address,
     * once its header names it (proxy_bytes) */
    c->proxy_wait = ak_proxy_trusted(&srv->cfg, c->peer);
    /* Output is already gathered into one write per loop turn; Nagle's
     * wait for an acknowledgement would only delay replies and pushes. */
    uv_tcp_nodelay(&c->tcp, 1);
    conn_admit(c);
}

int ak_server_listen(struct ak_server *srv, const char *host, int port)
{
    struct sockaddr_storage addr;
    uv_tcp_init(srv->loop, &srv->listener);     /* closed by the caller whatever happens */
    srv->listener.data = srv;
    if (strcmp(host, "localhost") == 0)
        host = "127.0.0.1";
    int rc = uv_ip4_addr(host, port, (struct sockaddr_in *)&addr);
    if (rc != 0)
        rc = uv_ip6_addr(host, port, (struct sockaddr_in6 *)&addr);
    if (rc != 0)
        return rc;
    rc = uv_tcp_bind(&srv->listener, (const struct sockaddr *)&addr, 0);
    if (rc == 0)
        rc = uv_listen((uv_stream_t *)&srv->listener, 128, on_connection);
    return rc;
}

void ak_server_close_all(struct ak_server *srv)
{
    while (srv->conns)
        conn_close(srv->conns);
    ak_conn_flush_all(srv);     /* drops the references of the output list */
    if (!uv_is_closing((uv_handle_t *)&srv->listener))
        uv_close((uv_handle_t *)&srv->listener, NULL);
    if (srv->clock.data && !uv_is_closing((uv_handle_t *)&srv->clock))
        uv_close((uv_handle_t *)&srv->clock, NULL);
}
