/* ak_web_listen: the HTTP listener's socket, bound exactly where
 * http_listen says and accepted by akd, each connection handed to
 * libwebsockets (ak_web.c) to speak HTTP and WebSocket on.
 *
 * libwebsockets 4.1 given an address to listen on binds every address of
 * the machine instead (its `iface` is read as an interface name first),
 * which served the login page and the password-carrying WebSocket to the
 * whole network when the operator had said 127.0.0.1 (issue 27). So akd
 * makes the socket itself, like the game port's: a numeric IPv4 or IPv6
 * address, or localhost (127.0.0.1); a host name is refused, saying so,
 * rather than resolved to whatever the resolver answers today; an IPv6
 * address listens on IPv6 only. libwebsockets' own listener is off
 * (CONTEXT_PORT_NO_LISTEN_SERVER) and a uv_poll on this socket accepts,
 * at most ACCEPT_PER_TURN connections a loop turn, so a flood of connects
 * cannot hold the loop.
 */
#define _GNU_SOURCE     /* accept4 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ak_server.h"

#define ACCEPT_PER_TURN 64
#define PAUSE_MS 200            /* no descriptor left: accept again after this */
#define LOG_EVERY_MS 10000      /* accept errors logged at most this often */

static struct {
    int fd;
    uv_poll_t poll;
    uv_timer_t pause;
    bool polling;
    uint64_t logged_at, errors;     /* accept errors since the last line */
    void (*adopt)(int fd, const struct sockaddr_storage *peer);
} lst = {.fd = -1};

static void on_readable(uv_poll_t *p, int status, int events);

static void on_pause_over(uv_timer_t *t)
{
    (void)t;
    if (lst.polling)
        uv_poll_start(&lst.poll, UV_READABLE, on_readable);
}

/* An accept that failed: logged once an interval with the count, and when
 * no descriptor is left, the listener rests a moment instead of waking
 * the loop at every turn for a connection it cannot take. */
static void accept_failed(int err)
{
    uint64_t now = uv_now(lst.poll.loop);
    lst.errors++;
    if (lst.logged_at == 0 || now - lst.logged_at >= LOG_EVERY_MS) {
        ak_log(AK_LOG_WARN, "HTTP listener: accept failed %llu time(s): %s",
               (unsigned long long)lst.errors, strerror(err));
        lst.logged_at = now;
        lst.errors = 0;
    }
    if (err == EMFILE || err == ENFILE || err == ENOBUFS || err == ENOMEM) {
        uv_poll_stop(&lst.poll);
        uv_timer_start(&lst.pause, on_pause_over, PAUSE_MS, 0);
    }
}

/* host:port as a socket address, by akd's rule for listen addresses. */
int ak_listen_address(const char *host, int port, struct sockaddr_storage *addr)
{
    memset(addr, 0, sizeof *addr);
    if (strcmp(host, "localhost") == 0)
        host = "127.0.0.1";
    int rc = uv_ip4_addr(host, port, (struct sockaddr_in *)addr);
    if (rc != 0)
        rc = uv_ip6_addr(host, port, (struct sockaddr_in6 *)addr);
    return rc;
}

static void on_readable(uv_poll_t *p, int status, int events)
{
    (void)p;
    (void)events;
    if (status < 0)
        return;
    for (int i = 0; i < ACCEPT_PER_TURN; i++) {
        struct sockaddr_storage peer;
        socklen_t len = sizeof peer;
        int fd = accept4(lst.fd, (struct sockaddr *)&peer, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED)
                accept_failed(errno);
            return;
        }
        /* An answer goes out as its headers, then its body: with Nagle's
         * algorithm the body waited for the client's delayed ACK of the
         * headers, 40 ms an answer on a kept-alive connection. */
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        lst.adopt(fd, &peer);
    }
}

int ak_web_listen_start(uv_loop_t *loop, const char *host, int port,
                        void (*adopt)(int fd, const struct sockaddr_storage *peer), char *err, size_t cap)
{
    struct sockaddr_storage addr;
    if (ak_listen_address(host, port, &addr) != 0)
        return snprintf(err, cap, "http_listen: %s is not a numeric address (give 127.0.0.1, ::1, 0.0.0.0, :: or localhost; akd resolves no host names)", host), -1;
    int fd = socket(addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), one = 1;
    if (fd < 0)
        return snprintf(err, cap, "http_listen: socket: %s", strerror(errno)), -1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (addr.ss_family == AF_INET6)
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    socklen_t alen = addr.ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    if (bind(fd, (struct sockaddr *)&addr, alen) != 0 || listen(fd, 128) != 0) {
        snprintf(err, cap, "cannot listen for HTTP on %s:%d: %s", host, port, strerror(errno));
        close(fd);
        return -1;
    }
    lst.fd = fd;
    lst.adopt = adopt;
    uv_poll_init_socket(loop, &lst.poll, fd);
    uv_timer_init(loop, &lst.pause);
    uv_poll_start(&lst.poll, UV_READABLE, on_readable);
    lst.polling = true;
    return 0;
}

int ak_web_listen_port(void)
{
    struct sockaddr_storage addr;
    socklen_t len = sizeof addr;
    if (lst.fd < 0 || getsockname(lst.fd, (struct sockaddr *)&addr, &len) != 0)
        return -1;
    return ntohs(addr.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&addr)->sin6_port
                                            : ((struct sockaddr_in *)&addr)->sin_port);
}

static void on_closed(uv_handle_t *h)
{
    (void)h;
    close(lst.fd);
    lst.fd = -1;
}

void ak_web_listen_stop(void)
{
    if (!lst.polling)
        return;
    lst.polling = false;
    uv_poll_stop(&lst.poll);
    uv_close((uv_handle_t *)&lst.pause, NULL);
    uv_close((uv_handle_t *)&lst.poll, on_closed);
}
