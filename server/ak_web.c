/* ak_web: akd's HTTP listener (http_listen), on akd's own libuv loop
 * through libwebsockets (its libuv event library, on a foreign loop):
 *
 *   /metrics       the Prometheus text of ak_metrics.c, for the addresses
 *                  in metrics_allow only (default loopback); 403 for others
 *   /healthz       200 "ok" or 503 and why (ak_health.c), for the same
 *                  addresses
 *   / and /game/N  the browser client's page (web_dir/index.html), also at
 *                  /ladder, /player/NAME, /tournaments, /tournament/N,
 *                  /settings and /admin; its modules and style sheet are the other
 *                  files of web_dir
 *   WebSocket      (an upgrade on any path, subprotocol "akd" or none) the
 *                  NDJSON protocol of PROTOCOL.md, one message per frame:
 *                  a transport of ak_conn.c (struct ak_transport), so the
 *                  connection limits, rate, login, commands and pushes are
 *                  those of the TCP port, by the same code
 *
 * With tls_cert and tls_key set it speaks HTTPS (and wss) with the same
 * certificate as the game port. Every answer carries the security headers
 * (a Content-Security-Policy allowing no inline script and connections to
 * the page's own origin only, nosniff, no framing, no referrer), and a
 * WebSocket opened from another site's page is refused (its Origin; the
 * config key web_origins names others allowed). The socket is akd's own
 * (ak_web_listen.c), bound exactly where http_listen says. Only files whose names are plain (a letter, then letters,
 * digits, '-' or '_', and a known extension) are served: no path reaches
 * outside web_dir. Anything else is 404. */
#include <ctype.h>
#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ak_server.h"

/* One message to send on a WebSocket, after LWS_PRE bytes of room for
 * the frame header (libwebsockets writes it there). */
struct ws_frame {
    struct ws_frame *next;
    size_t len;
    unsigned char data[];
};

/* libwebsockets' per-connection memory (zeroed; freed after CLOSED):
 * an HTTP answer, or a WebSocket's connection and output. */
struct session {
    char *body;                 /* HTTP: the answer being written, after LWS_PRE bytes */
    size_t len;
    struct lws *wsi;            /* WebSocket: */
    struct ak_conn *conn;       /* its connection, NULL once gone */
    struct ws_frame *head, *tail;   /* messages not yet written */
    size_t queued;              /* their bytes */
    bool closing;               /* close once they are written */
};

static struct lws_context *context;
static struct lws_vhost *vhost;

static void socket_gone(struct lws *wsi);
static struct ak_server *server;


/* The security headers of every answer. The page talks to its own origin
 * only: connect-src 'self' (CSP 3 matches ws: and wss: of the same host
 * and port), so no other site's page can make a visitor's browser a
 * client of akd through this page (issue 27; libwebsockets' best-practice
 * option, used before, allowed ws: and wss: to any host). */
static const struct {
    const char *name, *value;
} security_headers[] = {
    {"content-security-policy:", "default-src 'none'; img-src 'self' data:; script-src 'self'; font-src 'self'; "
                                 "style-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
                                 "form-action 'self'"},
    {"x-content-type-options:", "nosniff"},
    {"x-frame-options:", "deny"},
    {"referrer-policy:", "no-referrer"},
};

static int add_security_headers(struct lws *wsi, unsigned char **p, unsigned char *end)
{
    for (size_t i = 0; i < sizeof security_headers / sizeof security_headers[0]; i++)
        if (lws_add_http_header_by_name(wsi, (const unsigned char *)security_headers[i].name,
                                        (const unsigned char *)security_headers[i].value,
                                        (int)strlen(security_headers[i].value), p, end))
            return -1;
    return 0;
}

/* The same as lws_serve_http_file's other_headers: "name: value\r\n"... */
static size_t security_header_lines(char *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof security_headers / sizeof security_headers[0] && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "%s %s\x0d\x0a", security_headers[i].name, security_headers[i].value);
    return n < cap ? n : cap - 1;
}

/* A status without a body, with the security headers. */
/* The client's address: the socket's peer, or, when that is a trusted
 * proxy, what it says (X-Real-IP, else the last of X-Forwarded-For;
 * ak_proxy.c); IPv4-mapped IPv6 as IPv4. */
static void client_address(struct lws *wsi, char *out, size_t cap)
{
    char peer[64] = "?", real[64] = "", fwd[512] = "";
    lws_get_peer_simple(wsi, peer, sizeof peer);
    const char *p = strncmp(peer, "::ffff:", 7) == 0 ? peer + 7 : peer;
    snprintf(out, cap, "%s", p);
    if (!ak_proxy_trusted(&server->cfg, p))
        return;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_X_REAL_IP) > 0)
        lws_hdr_copy(wsi, real, sizeof real, WSI_TOKEN_HTTP_X_REAL_IP);
    if (lws_hdr_total_length(wsi, WSI_TOKEN_X_FORWARDED_FOR) > 0)
        lws_hdr_copy(wsi, fwd, sizeof fwd, WSI_TOKEN_X_FORWARDED_FOR);
    char client[64];
    if (ak_proxy_forwarded(real, fwd, client, sizeof client))
        snprintf(out, cap, "%s", client);
}

static int answer_status(struct lws *wsi, unsigned int code)
{
    unsigned char head[LWS_PRE + 1024], *start = &head[LWS_PRE], *p = start, *end = &head[sizeof head - 1];
    if (lws_add_http_common_headers(wsi, code, "text/plain; charset=utf-8", 0, &p, end) ||
        add_security_headers(wsi, &p, end) || lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* The monitoring paths (/metrics, /healthz) answer only the addresses in
 * metrics_allow; a refusal is logged. */
static bool monitor_allowed(struct lws *wsi, const char *path)
{
    char peer[128] = "";
    client_address(wsi, peer, sizeof peer);
    if (ak_list_has(server->cfg.metrics_allow, peer))
        return true;
    ak_log(AK_LOG_INFO, "%s refused to %s (not in metrics_allow)", path, peer);
    return false;
}

/* Answer code with text (len bytes, copied), written when writable. */
static int answer_text(struct lws *wsi, struct session *hs, unsigned int code, const char *type, const char *text,
                       size_t len)
{
    unsigned char head[LWS_PRE + 1024], *start = &head[LWS_PRE], *p = start, *end = &head[sizeof head - 1];
    hs->body = text ? malloc(LWS_PRE + len) : NULL;
    if (!hs->body)
        return answer_status(wsi, HTTP_STATUS_INTERNAL_SERVER_ERROR);
    memcpy(hs->body + LWS_PRE, text, len);
    hs->len = len;
    if (lws_add_http_common_headers(wsi, code, type, len, &p, end) || add_security_headers(wsi, &p, end) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    lws_callback_on_writable(wsi);
    return 0;
}

static int start_metrics(struct lws *wsi, struct session *hs)
{
    if (!monitor_allowed(wsi, "/metrics"))
        return answer_status(wsi, HTTP_STATUS_FORBIDDEN);
    size_t len;
    char *text = ak_metrics_text(server, &len);
    int rc = answer_text(wsi, hs, HTTP_STATUS_OK, "text/plain; version=0.0.4; charset=utf-8", text, len);
    free(text);
    return rc;
}

/* /healthz: 200 "ok", or 503 and why (ak_health.c). */
static int start_healthz(struct lws *wsi, struct session *hs)
{
    if (!monitor_allowed(wsi, "/healthz"))
        return answer_status(wsi, HTTP_STATUS_FORBIDDEN);
    char why[400];
    int code = ak_health(server, why, sizeof why - 1);
    size_t len = strlen(why);
    why[len++] = '\n';
    return answer_text(wsi, hs, (unsigned int)code, "text/plain; charset=utf-8", why, len);
}

/* Whether a path is one of the page's own addresses (app.js routes them):
 * 1 if so, -1 for one of their prefixes followed by something no such
 * address holds, 0 for anything else (perhaps a file). */
static int page_path(const char *url)
{
    static const char *const whole[] = {"/", "/lobby", "/ladder", "/tournaments", "/settings", "/admin"};
    static const struct {
        const char *prefix, *chars;
        size_t max;
    } named[] = {{"/game/", "0123456789", 18},
                 {"/tournament/", "0123456789", 18},
                 {"/player/", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_", 32}};
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
        if (strcmp(url, whole[i]) == 0)
            return 1;
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        size_t n = strlen(named[i].prefix);
        if (strncmp(url, named[i].prefix, n) != 0 || !url[n])
            continue;
        size_t len = strlen(url + n);      /* url is at least the prefix long */
        return strspn(url + n, named[i].chars) == len && len <= named[i].max ? 1 : -1;
    }
    return 0;
}

/* The file of web_dir a path names, with its type; false for any other path. */
static bool static_file(const char *url, char *path, size_t cap, const char **type)
{
    static const struct {
        const char *ext, *type;
    } types[] = {{".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
                 {".css", "text/css; charset=utf-8"},   {".svg", "image/svg+xml"},
                 {".png", "image/png"},                 {".ico", "image/x-icon"}};
    const char *name = url + 1;
    int page = page_path(url);
    if (page < 0)
        return false;
    if (page)
        name = "index.html";
    if (!isalpha((unsigned char)name[0]) || strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-_.") != strlen(name))
        return false;
    const char *dot = strchr(name, '.');
    if (!dot || strchr(dot + 1, '.'))
        return false;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(dot, types[i].ext) == 0) {
            *type = types[i].type;
            return (size_t)snprintf(path, cap, "%s/%s", server->cfg.web_dir, name) < cap;
        }
    return false;
}

/* Every HTTP request is charged to its address before any work, as the
 * game port's lines are (issue 28's rate_per_address, the same bucket for
 * every listener), and refused with 429 while the address is over it or
 * in debt for its output (output_per_address: the files it was sent); the
 * refused connection is closed, so that its next requests cost a new
 * connection (counted against max_per_address) rather than a parse each
 * on the loop. Without the charge a flood of page requests from ten
 * addresses made the players wait 16 ms (p99 32 ms); answering 429 on a
 * kept connection still cost 9 ms (scripts/flood-bench http,
 * docs/performance.md). */
#define HTTP_TOO_MANY 429

static bool http_charged(struct lws *wsi, uint64_t *key)
{
    char addr[64];
    client_address(wsi, addr, sizeof addr);
    *key = ak_budget_address_key(addr);
    uint64_t now = uv_now(server->loop);
    return ak_budget_charge(&server->cfg, AK_BUDGET_ADDRESS, *key, 1, now) &&
           !ak_budget_in_debt(&server->cfg, AK_BUDGET_OUTPUT, *key, now);
}

static int answer_too_many(struct lws *wsi)
{
    unsigned char head[LWS_PRE + 1024], *start = &head[LWS_PRE], *p = start, *end = &head[sizeof head - 1];
    if (lws_add_http_common_headers(wsi, HTTP_TOO_MANY, "text/plain; charset=utf-8", 0, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"retry-after:", (const unsigned char *)"1", 1, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"connection:", (const unsigned char *)"close", 5, &p, end) ||
        add_security_headers(wsi, &p, end) || lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    return -1;      /* closed: see above */
}

static int serve_file(struct lws *wsi, const char *url, uint64_t key)
{
    char path[1024];
    const char *type;
    struct stat st;
    /* a missing file is answered here: libwebsockets' own 404 would lack
     * the security headers */
    if (!server->cfg.web_dir[0] || !static_file(url, path, sizeof path, &type) || stat(path, &st) != 0 ||
        !S_ISREG(st.st_mode))
        return answer_status(wsi, HTTP_STATUS_NOT_FOUND);
    ak_budget_spend(&server->cfg, AK_BUDGET_OUTPUT, key, (double)st.st_size / 1024.0, uv_now(server->loop));
    /* The page is small and changes with akd: no stale copies. */
    char headers[1024];
    size_t n = security_header_lines(headers, sizeof headers);
    snprintf(headers + n, sizeof headers - n, "cache-control: no-cache\x0d\x0a");
    int rc = lws_serve_http_file(wsi, path, type, headers, (int)strlen(headers));
    if (rc < 0)
        return answer_status(wsi, HTTP_STATUS_NOT_FOUND);      /* no such file */
    if (rc > 0)
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    return 0;
}

/* --- the WebSocket transport (struct ak_transport for ak_conn.c) --- */

static void ws_drop_frames(struct session *ss)
{
    while (ss->head) {
        struct ws_frame *f = ss->head;
        ss->head = f->next;
        free(f);
    }
    ss->tail = NULL;
    ak_conn_output_taken(server, ss->conn, ss->queued);
    ss->queued = 0;
}

/* A WebSocket whose peer takes nothing would wait for its writable
 * callback for ever, a descriptor nobody counts any more: the close gets
 * this long to write what is left (the connection's linger timer; the
 * timeouts of libwebsockets did not always fire on a foreign loop), then
 * the socket is dropped. */
#define WS_CLOSE_MS 5000

static void ws_kill(uv_timer_t *t)
{
    struct ak_conn *c = t->data;
    struct session *ss = c->ws;
    if (!ss)
        return;
    /* Not gone yet: libwebsockets would hold the socket until its unsent
     * bytes drain, which a peer that does not read never lets happen. The
     * socket is reset (no lingering) and shut, and the connection closed
     * from outside its callbacks. */
    ak_log(AK_LOG_INFO, "%s did not take its last messages; dropping the connection", c->peer);
    int fd = (int)lws_get_socket_fd(ss->wsi);
    if (fd >= 0) {
        struct linger reset = {1, 0};
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
        shutdown(fd, SHUT_RDWR);
    }
    lws_set_timeout(ss->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_SYNC);
}

static void ws_close(struct ak_conn *c)
{
    struct session *ss = c->ws;
    if (!ss || ss->closing)
        return;
    ss->closing = true;
    uv_timer_start(&c->linger, ws_kill, WS_CLOSE_MS, 0);
    lws_callback_on_writable(ss->wsi);
}

/* The turn's output, one message per frame (a line without its newline). */
static void ws_write(struct ak_conn *c)
{
    struct session *ss = c->ws;
    const char *p = c->out, *end = c->out + c->out_len;
    c->out_len = 0;
    if (!ss || ss->closing)     /* gone, or on its way out */
        return;
    bool any = false;
    if (!ak_conn_output_fits(c, ss->queued, (size_t)(end - p))) {
        /* Nothing more will be written to it: dropped at once, and the
         * connection closed (and no longer counted) now. */
        ws_drop_frames(ss);
        ss->closing = true;
        uv_timer_start(&c->linger, ws_kill, 0, 0);
        ak_conn_close(c);
        return;
    }
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = (size_t)((nl ? nl : end) - p);
        struct ws_frame *f = malloc(sizeof *f + LWS_PRE + len);
        if (!f) {
            ws_drop_frames(ss);
            ws_close(c);
            return;
        }
        f->next = NULL;
        f->len = len;
        memcpy(f->data + LWS_PRE, p, len);
        *(ss->tail ? &ss->tail->next : &ss->head) = f;
        ss->tail = f;
        ss->queued += len;
        ak_conn_output_held(server, c, len);
        any = true;
        p += len + (nl != NULL);
    }
    if (any)
        lws_callback_on_writable(ss->wsi);
}

static void ws_set_reading(struct ak_conn *c, bool on)
{
    struct session *ss = c->ws;
    if (ss && !ss->closing)
        lws_rx_flow_control(ss->wsi, on);
}

static const struct ak_transport ws_transport = {"websocket", ws_write, ws_set_reading, ws_close};

/* One frame per writable callback, as libwebsockets asks. */
static int ws_writable(struct lws *wsi, struct session *ss)
{
    struct ws_frame *f = ss->head;
    if (f) {
        ss->head = f->next;
        if (!ss->head)
            ss->tail = NULL;
        ss->queued -= f->len;
        ak_conn_output_taken(server, ss->conn, f->len);
        int n = lws_write(wsi, f->data + LWS_PRE, f->len, LWS_WRITE_TEXT);
        free(f);
        if (n < 0)
            return -1;
        if (ss->head || ss->closing)
            lws_callback_on_writable(wsi);
        return 0;
    }
    if (ss->closing) {
        lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, NULL, 0);
        return -1;
    }
    return 0;
}

/* An Origin the WebSocket may be opened from (issue 27): the page's own
 * (the Host the browser asked for, over http or https), one of
 * web_origins, or none at all (a client that is not a browser sends none;
 * a browser always does, and that is what the check is for: another
 * site's page turning its visitors' browsers into clients of akd). */
static bool origin_allowed(struct lws *wsi)
{
    char origin[256], host[256], own[300];
    if (lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) <= 0)
        return true;
    if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) < 0)
        return false;
    /* The page's own origin, whichever the scheme: behind a proxy that
     * ends TLS the browser says https while akd speaks http. */
    if (lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) > 0) {
        const char *authority = strncasecmp(origin, "https://", 8) == 0 ? origin + 8
                                : strncasecmp(origin, "http://", 7) == 0 ? origin + 7 : NULL;
        snprintf(own, sizeof own, "%s", host);
        if (authority && strcasecmp(authority, own) == 0)
            return true;
    }
    if (ak_list_has(server->cfg.web_origins, origin))
        return true;
    char peer[64] = "?";
    client_address(wsi, peer, sizeof peer);
    ak_log(AK_LOG_INFO, "WebSocket from %s refused: its page's origin %s is not this server's", peer, origin);
    return false;
}

static int ws_established(struct lws *wsi, struct session *ss)
{
    char peer[64] = "?";
    client_address(wsi, peer, sizeof peer);
    ss->wsi = wsi;
    ss->conn = ak_conn_open(server, &ws_transport, ss, peer);
    return ss->conn ? 0 : -1;
}

static void ws_closed(struct session *ss)
{
    ws_drop_frames(ss);
    struct ak_conn *c = ss->conn;
    ss->conn = NULL;
    if (c) {
        c->ws = NULL;   /* this memory goes with the WebSocket */
        ak_conn_transport_gone(c);
    }
}

static int on_request(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
    struct session *ss = user;
    if (reason == LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION)
        return origin_allowed(wsi) ? 0 : -1;
    if (reason == LWS_CALLBACK_WSI_DESTROY)
        socket_gone(wsi);
    /* Some callbacks come without session memory (a connection closed
     * during its TLS handshake, before any was allocated). */
    if (!ss)
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    switch (reason) {
    case LWS_CALLBACK_HTTP: {
        const char *url = in ? in : "";
        uint64_t key;
        if (!http_charged(wsi, &key))
            return answer_too_many(wsi);
        if (strcmp(url, "/metrics") == 0)
            return start_metrics(wsi, ss);
        if (strcmp(url, "/healthz") == 0)
            return start_healthz(wsi, ss);
        return serve_file(wsi, url, key);
    }
    case LWS_CALLBACK_HTTP_WRITEABLE:
        if (!ss->body)
            return 0;
        if (lws_write(wsi, (unsigned char *)ss->body + LWS_PRE, ss->len, LWS_WRITE_HTTP_FINAL) != (int)ss->len)
            return -1;
        free(ss->body);
        ss->body = NULL;
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    case LWS_CALLBACK_CLOSED_HTTP:
        free(ss->body);
        ss->body = NULL;
        return 0;
    case LWS_CALLBACK_ESTABLISHED:
        return ws_established(wsi, ss);
    case LWS_CALLBACK_RECEIVE:
        if (!ss->conn || ss->closing)
            return 0;
        if (lws_frame_is_binary(wsi)) {     /* the protocol is text (UTF-8 JSON) */
            ak_conn_refuse(ss->conn, NULL, "bad_json", "binary frames are not read; send each request as a text frame");
            return 0;
        }
        ak_conn_feed(ss->conn, in, len, lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi));
        return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return ws_writable(wsi, ss);
    case LWS_CALLBACK_CLOSED:
        ws_closed(ss);
        return 0;
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}

/* One protocol for both: a WebSocket without a subprotocol gets the first. */
static const struct lws_protocols protocols[] = {
    {"akd", on_request, sizeof(struct session), 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static void lws_to_log(int level, const char *line)
{
    char text[512];
    snprintf(text, sizeof text, "%s", line);
    text[strcspn(text, "\n")] = '\0';
    ak_log(level & LLL_ERR ? AK_LOG_ERROR : AK_LOG_WARN, "libwebsockets: %s", text);
}

/* The HTTP listener's sockets, counted with the game port's connections
 * (issue 28: one count for all listeners): each accepted socket until
 * libwebsockets destroys it, a WebSocket's as well as a page's (counted
 * twice once it is also a connection of ak_conn.c: the safe side). */
struct http_socket {
    struct http_socket *next, **prev;
    char addr[64];
};

static struct http_socket *http_sockets;
static int http_open;
static uint64_t refused_logged_at, refused_since;

static int http_from(const char *addr)
{
    int n = 0;
    for (const struct http_socket *h = http_sockets; h; h = h->next)
        n += strcmp(h->addr, addr) == 0;
    return n;
}

/* Over max_connections in all, or max_per_address from its address (both
 * listeners counted): closed at once, and said in the log once every ten
 * seconds with the count, not once per connection. */
static bool over_limits(const char *addr)
{
    const struct ak_config *cfg = &server->cfg;
    /* a trusted proxy carries many clients: its sockets count in all, and
     * each WebSocket by its client's address once the headers name it */
    bool per_address = cfg->max_per_address && !ak_proxy_trusted(cfg, addr);
    bool over = (cfg->max_connections && server->nconns + http_open >= cfg->max_connections) ||
                (per_address && ak_conn_count_from(server, addr) + http_from(addr) >= cfg->max_per_address);
    if (!over)
        return false;
    refused_since++;
    uint64_t now = uv_now(server->loop);
    if (!refused_logged_at || now - refused_logged_at >= 10000) {
        ak_log(AK_LOG_WARN, "HTTP listener: refused %llu connection(s) over the limits (the last from %s: "
               "max_connections %d, max_per_address %d)", (unsigned long long)refused_since, addr,
               cfg->max_connections, cfg->max_per_address);
        refused_logged_at = now;
        refused_since = 0;
    }
    ak_stats_refused();
    return true;
}

/* A connection the listener accepted (ak_web_listen.c): libwebsockets
 * speaks HTTP, or HTTPS, on it from here (and closes fd if it cannot). */
static void adopt(int fd, const struct sockaddr_storage *peer)
{
    char addr[64] = "?";
    uv_ip_name((const struct sockaddr *)peer, addr, sizeof addr);
    const char *a = strncmp(addr, "::ffff:", 7) == 0 ? addr + 7 : addr;
    struct http_socket *h = over_limits(a) ? NULL : calloc(1, sizeof *h);
    if (!h) {
        close(fd);
        return;
    }
    snprintf(h->addr, sizeof h->addr, "%s", a);
    lws_sock_file_fd_type sock = {.sockfd = fd};
    int type = LWS_ADOPT_SOCKET | LWS_ADOPT_HTTP | (server->cfg.tls_cert[0] ? LWS_ADOPT_ALLOW_SSL : 0);
    struct lws *wsi = lws_adopt_descriptor_vhost(vhost, (lws_adoption_type)type, sock, NULL, NULL);
    if (!wsi) {         /* it closed fd */
        free(h);
        return;
    }
    h->next = http_sockets;
    h->prev = &http_sockets;
    if (http_sockets)
        http_sockets->prev = &h->next;
    http_sockets = h;
    http_open++;
    lws_set_opaque_user_data(wsi, h);
}

static void socket_gone(struct lws *wsi)
{
    struct http_socket *h = lws_get_opaque_user_data(wsi);
    if (!h)
        return;
    lws_set_opaque_user_data(wsi, NULL);
    *h->prev = h->next;
    if (h->next)
        h->next->prev = h->prev;
    http_open--;
    free(h);
}

int ak_web_start(struct ak_server *srv, const char *host, int port, char *err, size_t cap)
{
    struct lws_context_creation_info info;
    void *loops[1] = {srv->loop};
    memset(&info, 0, sizeof info);
    server = srv;
    info.port = CONTEXT_PORT_NO_LISTEN_SERVER;      /* akd's own socket: ak_web_listen.c */
    /* HTTP/1.1 only: the headers akd adds to files are written as text,
     * which an HTTP/2 stream would not carry */
    info.alpn = "http/1.1";
    info.protocols = protocols;
    info.foreign_loops = loops;
    info.uid = info.gid = -1;
    info.options = LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_VALIDATE_UTF8;
    if (srv->cfg.tls_cert[0]) {
        info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
        info.ssl_cert_filepath = srv->cfg.tls_cert;
        info.ssl_private_key_filepath = srv->cfg.tls_key;
    }
    lws_set_log_level(LLL_ERR | LLL_WARN, lws_to_log);
    context = lws_create_context(&info);
    if (context && !(vhost = lws_get_vhost_by_name(context, "default"))) {
        lws_context_destroy(context);
        context = NULL;
    }
    if (!context)
        return snprintf(err, cap, "cannot start HTTP on %s:%d (see the log)", host, port), -1;
    if (ak_web_listen_start(srv->loop, host, port, adopt, err, cap) != 0) {
        lws_context_destroy(context);
        context = NULL;
        return -1;
    }
    ak_log(AK_LOG_INFO, "HTTP%s on %s:%d: the web client from %s, WebSocket, /metrics for %s",
           srv->cfg.tls_cert[0] ? "S" : "", host, port, srv->cfg.web_dir[0] ? srv->cfg.web_dir : "(no web_dir)",
           srv->cfg.metrics_allow);
    return 0;
}

int ak_web_reload_cert(const struct ak_config *cfg, char *err, size_t cap)
{
    if (!context || !cfg->tls_cert[0])
        return 0;
    /* Without copies in memory libwebsockets reads the files again, the
     * whole chain (SSL_CTX_use_certificate_chain_file), into the vhost's
     * context: handshakes from now on present the new certificate. */
    if (lws_tls_cert_updated(context, cfg->tls_cert, cfg->tls_key, NULL, 0, NULL, 0) != 0)
        return snprintf(err, cap, "libwebsockets could not load %s", cfg->tls_cert), -1;
    ak_log(AK_LOG_INFO, "HTTPS: certificate reloaded from %s", cfg->tls_cert);
    return 0;
}

/* lws closes its handles on the loop: akd's uv_run goes on until they are. */
void ak_web_stop(void)
{
    ak_web_listen_stop();
    if (context)
        lws_context_destroy(context);
    context = NULL;
}
