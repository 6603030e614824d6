/* ak_web: akd's HTTP listener (http_listen), on akd's own libuv loop
 * through libwebsockets (its libuv event library, on a foreign loop):
 *
 *   /metrics   the Prometheus text of ak_metrics.c, for the addresses in
 *              metrics_allow only (default loopback); 403 for others
 *
 * With tls_cert and tls_key set it speaks HTTPS with the same certificate
 * as the game port. Every answer carries the security headers of
 * libwebsockets' best-practice option (a Content-Security-Policy allowing
 * no inline script and no other origin, nosniff, no framing, no referrer).
 * The browser client and its WebSocket endpoint (issue 17) are served here
 * next; anything else is 404 until then. */
#include <ctype.h>
#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ak_server.h"

struct http_session {
    char *body;                 /* the answer being written, after LWS_PRE bytes */
    size_t len;
};

static struct lws_context *context;
static struct ak_server *server;

/* An address in the comma-separated list (IPv4-mapped IPv6 as IPv4). */
static bool allowed(const char *list, const char *peer)
{
    if (strncmp(peer, "::ffff:", 7) == 0)
        peer += 7;
    size_t len = strlen(peer);
    for (const char *p = list; *p;) {
        while (*p == ',' || isspace((unsigned char)*p))
            p++;
        const char *start = p;
        while (*p && *p != ',' && !isspace((unsigned char)*p))
            p++;
        if ((size_t)(p - start) == len && len && strncasecmp(start, peer, len) == 0)
            return true;
    }
    return false;
}

static int answer_status(struct lws *wsi, unsigned int code)
{
    if (lws_return_http_status(wsi, code, NULL))
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

static int start_metrics(struct lws *wsi, struct http_session *hs)
{
    char peer[128] = "";
    lws_get_peer_simple(wsi, peer, sizeof peer);
    if (!allowed(server->cfg.metrics_allow, peer)) {
        ak_log(AK_LOG_INFO, "/metrics refused to %s (not in metrics_allow)", peer);
        return answer_status(wsi, HTTP_STATUS_FORBIDDEN);
    }
    size_t len;
    char *text = ak_metrics_text(server, &len);
    unsigned char head[LWS_PRE + 512], *start = &head[LWS_PRE], *p = start, *end = &head[sizeof head - 1];
    hs->body = text ? malloc(LWS_PRE + len) : NULL;
    if (!hs->body) {
        free(text);
        return answer_status(wsi, HTTP_STATUS_INTERNAL_SERVER_ERROR);
    }
    memcpy(hs->body + LWS_PRE, text, len);
    free(text);
    hs->len = len;
    if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK, "text/plain; version=0.0.4; charset=utf-8", len, &p, end) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    lws_callback_on_writable(wsi);
    return 0;
}

static int on_http(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
    struct http_session *hs = user;
    switch (reason) {
    case LWS_CALLBACK_HTTP: {
        const char *url = in ? in : "";
        if (strcmp(url, "/metrics") == 0)
            return start_metrics(wsi, hs);
        return answer_status(wsi, HTTP_STATUS_NOT_FOUND);
    }
    case LWS_CALLBACK_HTTP_WRITEABLE:
        if (!hs->body)
            return -1;
        if (lws_write(wsi, (unsigned char *)hs->body + LWS_PRE, hs->len, LWS_WRITE_HTTP_FINAL) != (int)hs->len)
            return -1;
        free(hs->body);
        hs->body = NULL;
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    case LWS_CALLBACK_CLOSED_HTTP:
        free(hs->body);
        hs->body = NULL;
        return 0;
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}

static const struct lws_protocols protocols[] = {
    {"http", on_http, sizeof(struct http_session), 0, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static void lws_to_log(int level, const char *line)
{
    char text[512];
    snprintf(text, sizeof text, "%s", line);
    text[strcspn(text, "\n")] = '\0';
    ak_log(level & LLL_ERR ? AK_LOG_ERROR : AK_LOG_WARN, "libwebsockets: %s", text);
}

int ak_web_start(struct ak_server *srv, const char *host, int port, char *err, size_t cap)
{
    struct lws_context_creation_info info;
    void *loops[1] = {srv->loop};
    memset(&info, 0, sizeof info);
    server = srv;
    info.port = port;
    info.iface = host;
    info.protocols = protocols;
    info.foreign_loops = loops;
    info.uid = info.gid = -1;
    info.options = LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE |
                   LWS_SERVER_OPTION_VALIDATE_UTF8;
    if (srv->cfg.tls_cert[0]) {
        info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
        info.ssl_cert_filepath = srv->cfg.tls_cert;
        info.ssl_private_key_filepath = srv->cfg.tls_key;
    }
    lws_set_log_level(LLL_ERR | LLL_WARN, lws_to_log);
    context = lws_create_context(&info);
    if (!context)
        return snprintf(err, cap, "cannot listen for HTTP on %s:%d (see the log)", host, port), -1;
    ak_log(AK_LOG_INFO, "HTTP%s on %s:%d: /metrics for %s", srv->cfg.tls_cert[0] ? "S" : "", host, port,
           srv->cfg.metrics_allow);
    return 0;
}

/* lws closes its handles on the loop: akd's uv_run goes on until they are. */
void ak_web_stop(void)
{
    if (context)
        lws_context_destroy(context);
    context = NULL;
}
