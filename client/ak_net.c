/* ak_net: a blocking line-protocol connection for akc, plaintext or TLS.
 *
 * TLS is the default for every server that is not on this machine
 * (loopback): passwords and session tokens cross the network. The
 * certificate is checked by ak_trust.c before anything is sent. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "ak_client.h"
#include "ak_codec.h"

#define DEFAULT_PORT "7140"
#define HANDSHAKE_SECONDS 15

int ak_net_split(const char *hostport, char *host, size_t cap, char *port, size_t pcap)
{
    const char *end, *colon;
    if (hostport[0] == '[') {               /* [::1]:7140 or [::1] */
        end = strchr(hostport, ']');
        if (!end || end == hostport + 1)
            return -1;
        colon = end[1] == ':' ? end + 1 : NULL;
        if (end[1] && !colon)
            return -1;
        hostport++;
    } else {
        colon = strrchr(hostport, ':');
        if (colon && strchr(hostport, ':') != colon)
            colon = NULL, end = hostport + strlen(hostport);   /* a bare IPv6 address */
        else
            end = colon ? colon : hostport + strlen(hostport);
    }
    if (end == hostport || (size_t)(end - hostport) >= cap)
        return -1;
    memcpy(host, hostport, (size_t)(end - hostport));
    host[end - hostport] = '\0';
    const char *p = colon ? colon + 1 : DEFAULT_PORT;
    if (!*p || strlen(p) >= pcap || strspn(p, "0123456789") != strlen(p) || strlen(p) > 5 || atoi(p) < 1 ||
        atoi(p) > 65535)
        return -1;
    snprintf(port, pcap, "%s", p);
    return 0;
}

bool ak_net_is_loopback(const char *host)
{
    return strncmp(host, "127.", 4) == 0 || strcmp(host, "::1") == 0 || strcmp(host, "localhost") == 0;
}

static int tcp_connect(const char *host, const char *port, const char *hostport, char *err, size_t errlen)
{
    struct addrinfo hints = {0}, *res, *ai;
    hints.ai_socktype = SOCK_STREAM;
    int rc = getaddrinfo(host, port, &hints, &res);
    if (rc != 0) {
        snprintf(err, errlen, "%s: %s", hostport, gai_strerror(rc));
        return -1;
    }
    int fd = -1;
    for (ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
            break;
        if (fd >= 0)
            close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0)
        snprintf(err, errlen, "cannot connect to %s: %s (is akd running?)", hostport, strerror(errno));
    return fd;
}

static void set_timeout(int fd, int seconds)
{
    struct timeval tv = {seconds, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

static int tls_start(struct ak_net *n, const char *host, const char *port, const struct ak_net_opts *o,
                     const char *hostport, char *err, size_t errlen)
{
    n->ctx = SSL_CTX_new(TLS_client_method());
    if (!n->ctx || !(n->ssl = SSL_new(n->ctx))) {
        snprintf(err, errlen, "cannot set up TLS");
        return -1;
    }
    SSL_CTX_set_min_proto_version(n->ctx, TLS1_2_VERSION);
    if (o->ca_file ? SSL_CTX_load_verify_locations(n->ctx, o->ca_file, NULL) != 1
                   : SSL_CTX_set_default_verify_paths(n->ctx) != 1) {
        snprintf(err, errlen, "cannot read the trusted certificates%s%s", o->ca_file ? " in " : "",
                 o->ca_file ? o->ca_file : "");
        return -1;
    }
    /* The chain and the name are checked during the handshake, and the
     * verdict kept for ak_trust_check, which also knows pinned
     * certificates: the handshake itself is not aborted here. */
    SSL_set_verify(n->ssl, SSL_VERIFY_NONE, NULL);
    SSL_set1_host(n->ssl, host);
    SSL_set_tlsext_host_name(n->ssl, host);
    SSL_set_fd(n->ssl, n->fd);
    set_timeout(n->fd, HANDSHAKE_SECONDS);
    if (SSL_connect(n->ssl) != 1) {
        unsigned long e = ERR_get_error();
        char reason[200] = "no answer";
        if (e)
            ERR_error_string_n(e, reason, sizeof reason);
        snprintf(err, errlen, "%s did not complete a TLS handshake (%s). If it is a plaintext akd, "
                 "connect with --no-tls", hostport, reason);
        return -1;
    }
    set_timeout(n->fd, 0);
    /* From now on the socket does not block: a TLS record that has only
     * partly arrived must not hold a read past its time-out (receive
     * waits in poll instead). */
    fcntl(n->fd, F_SETFL, fcntl(n->fd, F_GETFL) | O_NONBLOCK);
    return ak_trust_check(n->ssl, host, port, o->accept_new, err, errlen);
}

int ak_net_connect(struct ak_net *n, const char *hostport, const struct ak_net_opts *o, char *err,
                   size_t errlen)
{
    char host[256], port[16];
    memset(n, 0, sizeof *n);
    n->fd = -1;
    n->next_id = 1;
    if (ak_net_split(hostport, host, sizeof host, port, sizeof port) != 0) {
        snprintf(err, errlen, "server address '%s' is not HOST, HOST:PORT or [IPv6]:PORT", hostport);
        return -1;
    }
    if ((n->fd = tcp_connect(host, port, hostport, err, errlen)) < 0)
        return -1;
    bool tls = o->tls == AK_TLS_ON || (o->tls == AK_TLS_AUTO && !ak_net_is_loopback(host));
    if (tls && tls_start(n, host, port, o, hostport, err, errlen) != 0) {
        ak_net_close(n);
        return -1;
    }
    return 0;
}

void ak_net_close(struct ak_net *n)
{
    if (n->ssl) {
        SSL_shutdown(n->ssl);
        SSL_free(n->ssl);
    }
    SSL_CTX_free(n->ctx);
    n->ssl = NULL;
    n->ctx = NULL;
    free(n->buf);
    n->buf = NULL;
    n->len = n->cap = 0;
    if (n->fd >= 0)
        close(n->fd);
    n->fd = -1;
}

/* TLS on the non-blocking socket: the whole line, waiting in poll for
 * what OpenSSL wants (it may need to read to be able to write). */
static int tls_send(struct ak_net *n, const char *line, size_t len)
{
    while (len > 0) {
        int w = SSL_write(n->ssl, line, len > INT32_MAX ? INT32_MAX : (int)len);
        if (w > 0) {
            line += w;
            len -= (size_t)w;
            continue;
        }
        int e = SSL_get_error(n->ssl, w);
        if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE)
            return -1;
        struct pollfd p = {n->fd, e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, 0};
        if (poll(&p, 1, -1) < 0 && errno != EINTR)
            return -1;
    }
    return 0;
}

int ak_net_send_line(struct ak_net *n, const char *line, size_t len)
{
    if (n->ssl)
        return tls_send(n, line, len);
    while (len > 0) {
        ssize_t w = send(n->fd, line, len, MSG_NOSIGNAL);  /* a closed server is an error, not a signal */
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        line += w;
        len -= (size_t)w;
    }
    return 0;
}

/* Read what is there (waiting up to timeout_ms for something): >0 bytes,
 * 0 for nothing in time, -1 for the end of the connection. */
/* Room to read into: the buffer doubles while a line is longer than it,
 * up to AK_NET_LINE_MAX. */
static bool room(struct ak_net *n)
{
    if (n->len < n->cap)
        return true;
    size_t cap = n->cap ? n->cap * 2 : 1u << 16;
    if (cap > AK_NET_LINE_MAX)
        return false;
    char *more = realloc(n->buf, cap);
    if (!more)
        return false;
    n->buf = more;
    n->cap = cap;
    return true;
}

static ssize_t receive(struct ak_net *n, int timeout_ms)
{
    if (!room(n))
        return -1;      /* a line longer than any akd sends */
    for (;;) {
        if (!n->ssl || SSL_pending(n->ssl) == 0) {
            struct pollfd p = {n->fd, POLLIN, 0};
            int rc = poll(&p, 1, timeout_ms);
            if (rc < 0 && errno == EINTR)
                continue;
            if (rc < 0)
                return -1;
            if (rc == 0)
                return 0;
        }
        if (!n->ssl) {
            ssize_t r = read(n->fd, n->buf + n->len, n->cap - n->len);
            return r > 0 ? r : -1;
        }
        int r = SSL_read(n->ssl, n->buf + n->len, (int)(n->cap - n->len));
        if (r > 0)
            return r;
        int e = SSL_get_error(n->ssl, r);
        if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE)
            return -1;
        /* Part of a record: wait for the rest. */
    }
}

json_t *ak_net_read(struct ak_net *n, int timeout_ms)
{
    for (;;) {
        char *nl = n->len ? memchr(n->buf, '\n', n->len) : NULL;
        if (nl) {
            size_t linelen = (size_t)(nl - n->buf);
            char err[128];
            json_t *msg = ak_msg_parse(n->buf, linelen, err, sizeof err);
            memmove(n->buf, nl + 1, n->len - linelen - 1);
            n->len -= linelen + 1;
            n->heard = true;
            if (msg)
                return msg;
            continue;
        }
        ssize_t r = receive(n, timeout_ms);
        if (r < 0)
            n->closed = true;
        if (r <= 0)
            return NULL;
        n->len += (size_t)r;
    }
}

bool ak_net_pending(const struct ak_net *n)
{
    return (n->len && memchr(n->buf, '\n', n->len) != NULL) || (n->ssl && SSL_pending(n->ssl) > 0);
}

void ak_net_ping(struct ak_net *n)
{
    static const char line[] = "{\"id\":\"ping\",\"cmd\":\"ping\"}\n";
    ak_net_send_line(n, line, sizeof line - 1);
}

json_t *ak_net_call(struct ak_net *n, json_t *req, void (*on_push)(json_t *push))
{
    int id = n->next_id++;
    json_object_set_new(req, "id", json_integer(id));
    size_t len;
    char *line = ak_msg_encode(req, &len);
    json_decref(req);
    if (!line || ak_net_send_line(n, line, len) != 0) {
        free(line);
        return NULL;
    }
    free(line);
    for (;;) {
        json_t *msg = ak_net_read(n, -1);
        if (!msg)
            return NULL;
        json_t *rid = json_object_get(msg, "id");
        if (json_is_integer(rid) && json_integer_value(rid) == id)
            return msg;
        if (on_push && json_object_get(msg, "push"))
            on_push(msg);
        json_decref(msg);
    }
}
