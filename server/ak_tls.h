/* ak_tls: TLS for akd's connections, driven by the libuv loop.
 *
 * OpenSSL never touches a socket here: each connection's SSL object reads
 * from one memory BIO (the bytes libuv read from the network) and writes
 * to another (the bytes to send). ak_conn.c feeds what it reads in, takes
 * the plaintext lines out, seals its replies, and writes the sealed bytes
 * with the same libuv writes as plaintext. So a slow or stalled handshake
 * costs nothing but its own connection's memory: nothing ever waits on it.
 *
 * The context (certificate, key, protocol versions) is shared; SIGHUP
 * loads a new one (a renewed certificate) and every new connection uses
 * it, while connections already open keep the one they started with
 * (OpenSSL counts the references).
 */
#ifndef AK_TLS_H
#define AK_TLS_H

#include <stdbool.h>
#include <stddef.h>

struct ak_tls_ctx;
struct ak_tls;

/* A server context from a PEM certificate chain and key, TLS 1.2 and up;
 * NULL with the reason in err. */
struct ak_tls_ctx *ak_tls_ctx_new(const char *cert_file, const char *key_file, char *err, size_t errlen);
void ak_tls_ctx_free(struct ak_tls_ctx *ctx);
/* Whole days until the certificate expires; -1 if it has expired. */
int ak_tls_ctx_days_left(const struct ak_tls_ctx *ctx);
/* When its certificate expires, seconds since the epoch; -1 if unknown. */
long long ak_tls_ctx_not_after(const struct ak_tls_ctx *ctx);
/* A short description of the certificate (subject, expiry) for the log. */
void ak_tls_ctx_describe(const struct ak_tls_ctx *ctx, char *out, size_t cap);

/* One connection's TLS state, NULL if out of memory. */
struct ak_tls *ak_tls_new(struct ak_tls_ctx *ctx);
void ak_tls_free(struct ak_tls *t);

/* Bytes read from the network: each run of plaintext they decrypt to goes
 * to plain (a non-zero return stops and is returned). -1 if the peer does
 * not speak TLS or broke the protocol (close the connection); the reason is
 * in ak_tls_error. */
int ak_tls_feed(struct ak_tls *t, const char *in, size_t len,
                int (*plain)(void *ud, char *data, size_t len), void *ud);
/* Encrypt plaintext for sending: false if the handshake has not finished
 * (keep it for later) or on error. */
bool ak_tls_seal(struct ak_tls *t, const char *data, size_t len);
bool ak_tls_ready(const struct ak_tls *t);    /* the handshake is done */
/* Sealed bytes (handshake records too) waiting to be sent, and taking up
 * to cap of them. */
size_t ak_tls_pending(const struct ak_tls *t);
size_t ak_tls_take(struct ak_tls *t, char *out, size_t cap);
const char *ak_tls_error(const struct ak_tls *t);
const char *ak_tls_version(const struct ak_tls *t);

#endif
