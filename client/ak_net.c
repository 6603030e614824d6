/* ak_net: a blocking line-protocol connection for akc. */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ak_client.h"
#include "ak_codec.h"

int ak_net_connect(struct ak_net *n, const char *hostport, char *err, size_t errlen)
{
    char host[256];
    const char *colon = strrchr(hostport, ':');
    memset(n, 0, sizeof *n);
    n->fd = -1;
    n->next_id = 1;
    if (!colon || colon == hostport || (size_t)(colon - hostport) >= sizeof host) {
        snprintf(err, errlen, "server address '%s' is not HOST:PORT", hostport);
        return -1;
    }
    memcpy(host, hostport, (size_t)(colon - hostport));
    host[colon - hostport] = '\0';
    struct addrinfo hints = {0}, *res, *ai;
    hints.ai_socktype = SOCK_STREAM;
    int rc = getaddrinfo(host, colon + 1, &hints, &res);
    if (rc != 0) {
        snprintf(err, errlen, "%s: %s", hostport, gai_strerror(rc));
        return -1;
    }
    for (ai = res; ai; ai = ai->ai_next) {
        n->fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (n->fd >= 0 && connect(n->fd, ai->ai_addr, ai->ai_addrlen) == 0)
            break;
        if (n->fd >= 0)
            close(n->fd);
        n->fd = -1;
    }
    freeaddrinfo(res);
    if (n->fd < 0) {
        snprintf(err, errlen, "cannot connect to %s: %s (is akd running?)", hostport, strerror(errno));
        return -1;
    }
    return 0;
}

void ak_net_close(struct ak_net *n)
{
    if (n->fd >= 0)
        close(n->fd);
    n->fd = -1;
}

int ak_net_send_line(struct ak_net *n, const char *line, size_t len)
{
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

json_t *ak_net_read(struct ak_net *n, int timeout_ms)
{
    for (;;) {
        char *nl = memchr(n->buf, '\n', n->len);
        if (nl) {
            size_t linelen = (size_t)(nl - n->buf);
            char err[128];
            json_t *msg = ak_msg_parse(n->buf, linelen, err, sizeof err);
            memmove(n->buf, nl + 1, n->len - linelen - 1);
            n->len -= linelen + 1;
            if (msg)
                return msg;
            continue;
        }
        if (n->len == sizeof n->buf)
            return NULL;
        struct pollfd p = {n->fd, POLLIN, 0};
        int rc = poll(&p, 1, timeout_ms);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc <= 0)
            return NULL;
        ssize_t r = read(n->fd, n->buf + n->len, sizeof n->buf - n->len);
        if (r <= 0)
            return NULL;
        n->len += (size_t)r;
    }
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
