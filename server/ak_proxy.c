/* ak_proxy: the client's real address behind a reverse proxy (issue 27).
 *
 * For connections from an address in trusted_proxies, and from nobody
 * else, akd takes the client's address from what the proxy says: on the
 * game port the PROXY protocol version 2 header (HAProxy's binary header,
 * which nginx's stream module and HAProxy send before the first byte of
 * the client's, TLS included); on the HTTP listener the last address of
 * X-Forwarded-For (the one the proxy itself added), or X-Real-IP when
 * there is none. What
 * is taken must be a numeric address (inet_pton); anything else leaves
 * the proxy's own address. That address is then the connection's peer:
 * logs, rate limits, login throttles, registrations per address,
 * connections per address and metrics_allow all see it.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ak_server.h"

static const unsigned char v2_signature[12] = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

bool ak_proxy_trusted(const struct ak_config *cfg, const char *peer)
{
    return ak_list_has(cfg->trusted_proxies, peer);
}

/* A numeric address, copied to out (IPv4-mapped IPv6 as IPv4). */
static bool numeric(const char *text, size_t n, char *out, size_t cap)
{
    char tmp[64];
    unsigned char bin[16];
    while (n && isspace((unsigned char)*text))
        text++, n--;
    while (n && isspace((unsigned char)text[n - 1]))
        n--;
    if (n == 0 || n >= sizeof tmp)
        return false;
    memcpy(tmp, text, n);
    tmp[n] = '\0';
    const char *t = strncmp(tmp, "::ffff:", 7) == 0 && strchr(tmp + 7, '.') ? tmp + 7 : tmp;
    if (inet_pton(AF_INET, t, bin) != 1 && inet_pton(AF_INET6, t, bin) != 1)
        return false;
    snprintf(out, cap, "%s", t);
    return true;
}

/* The last address of X-Forwarded-For is the one the proxy itself added
 * (nginx's $proxy_add_x_forwarded_for, HAProxy's option forwardfor); the
 * ones before it are the client's word. X-Real-IP only when there is no
 * X-Forwarded-For: a proxy that does not set it passes on the client's. */
bool ak_proxy_forwarded(const char *real_ip, const char *forwarded_for, char *out, size_t cap)
{
    if (forwarded_for && *forwarded_for) {
        const char *last = strrchr(forwarded_for, ',');
        last = last ? last + 1 : forwarded_for;
        return numeric(last, strlen(last), out, cap);
    }
    return real_ip && numeric(real_ip, strlen(real_ip), out, cap);
}

int ak_proxy_v2_parse(const unsigned char *buf, size_t len, char *out, size_t cap)
{
    size_t check = len < sizeof v2_signature ? len : sizeof v2_signature;
    if (memcmp(buf, v2_signature, check) != 0)
        return -1;
    if (len < 16)
        return 16;
    if ((buf[12] & 0xF0) != 0x20 || (buf[12] & 0x0F) > 1)
        return -1;      /* version 2; command LOCAL (0) or PROXY (1) */
    size_t total = 16 + ((size_t)buf[14] << 8 | buf[15]);
    if (total > AK_PROXY_HEADER_MAX)
        return -1;
    if (len < total)
        return (int)total;
    out[0] = '\0';
    int family = buf[13] >> 4, command = buf[12] & 0x0F;
    if (command == 1 && family == 1 && total >= 16 + 12)
        inet_ntop(AF_INET, buf + 16, out, (socklen_t)cap);
    else if (command == 1 && family == 2 && total >= 16 + 36)
        inet_ntop(AF_INET6, buf + 16, out, (socklen_t)cap);
    return (int)total;
}
