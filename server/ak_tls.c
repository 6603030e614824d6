/* ak_tls: OpenSSL through memory BIOs (ak_tls.h says how it fits). */
#include "ak_tls.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ak_tls_ctx {
    SSL_CTX *ssl;
};

struct ak_tls {
    SSL *ssl;
    BIO *in, *out;          /* network -> OpenSSL, OpenSSL -> network */
    char error[160];
};

static void openssl_error(char *err, size_t errlen, const char *what)
{
    unsigned long e = ERR_get_error();
    char reason[200] = "";
    if (e)
        ERR_error_string_n(e, reason, sizeof reason);
    ERR_clear_error();
    snprintf(err, errlen, "%s%s%s", what, e ? ": " : "", reason);
}

struct ak_tls_ctx *ak_tls_ctx_new(const char *cert_file, const char *key_file, char *err, size_t errlen)
{
    struct ak_tls_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx || !(ctx->ssl = SSL_CTX_new(TLS_server_method()))) {
        free(ctx);
        openssl_error(err, errlen, "cannot create a TLS context");
        return NULL;
    }
    SSL_CTX *s = ctx->ssl;
    /* TLS 1.2 and 1.3 only; OpenSSL settles on 1.3 when the client has it.
     * No renegotiation (a client could make the server redo handshakes),
     * no tickets' key reuse across reloads to worry about: the defaults. */
    SSL_CTX_set_min_proto_version(s, TLS1_2_VERSION);
    SSL_CTX_set_options(s, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    SSL_CTX_set_mode(s, SSL_MODE_RELEASE_BUFFERS);     /* idle connections keep no buffers */
    if (SSL_CTX_use_certificate_chain_file(s, cert_file) != 1) {
        char what[600];
        snprintf(what, sizeof what, "cannot read the certificate %s", cert_file);
        openssl_error(err, errlen, what);
        ak_tls_ctx_free(ctx);
        return NULL;
    }
    if (SSL_CTX_use_PrivateKey_file(s, key_file, SSL_FILETYPE_PEM) != 1 || SSL_CTX_check_private_key(s) != 1) {
        char what[600];
        snprintf(what, sizeof what, "cannot use the key %s with the certificate", key_file);
        openssl_error(err, errlen, what);
        ak_tls_ctx_free(ctx);
        return NULL;
    }
    return ctx;
}

void ak_tls_ctx_free(struct ak_tls_ctx *ctx)
{
    if (!ctx)
        return;
    SSL_CTX_free(ctx->ssl);
    free(ctx);
}

int ak_tls_ctx_days_left(const struct ak_tls_ctx *ctx)
{
    X509 *cert = SSL_CTX_get0_certificate(ctx->ssl);
    int days = 0, secs = 0;
    if (!cert || ASN1_TIME_diff(&days, &secs, NULL, X509_get0_notAfter(cert)) != 1)
        return -1;
    return days < 0 || secs < 0 ? -1 : days;
}

long long ak_tls_ctx_not_after(const struct ak_tls_ctx *ctx)
{
    X509 *cert = SSL_CTX_get0_certificate(ctx->ssl);
    struct tm tm;
    if (!cert || ASN1_TIME_to_tm(X509_get0_notAfter(cert), &tm) != 1)
        return -1;
    return (long long)timegm(&tm);
}

void ak_tls_ctx_describe(const struct ak_tls_ctx *ctx, char *out, size_t cap)
{
    X509 *cert = SSL_CTX_get0_certificate(ctx->ssl);
    char subject[256] = "?";
    char until[64] = "?";
    if (cert) {
        X509_NAME_oneline(X509_get_subject_name(cert), subject, sizeof subject);
        BIO *b = BIO_new(BIO_s_mem());
        if (b && ASN1_TIME_print(b, X509_get0_notAfter(cert)) == 1) {
            int n = BIO_read(b, until, sizeof until - 1);
            until[n > 0 ? n : 0] = '\0';
        }
        BIO_free(b);
    }
    snprintf(out, cap, "%s, valid until %s", subject, until);
}

struct ak_tls *ak_tls_new(struct ak_tls_ctx *ctx)
{
    struct ak_tls *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->ssl = SSL_new(ctx->ssl);
    t->in = BIO_new(BIO_s_mem());
    t->out = BIO_new(BIO_s_mem());
    if (!t->ssl || !t->in || !t->out) {
        SSL_free(t->ssl);
        BIO_free(t->in);
        BIO_free(t->out);
        free(t);
        return NULL;
    }
    /* An empty input BIO means "wait for more", not end of file. */
    BIO_set_mem_eof_return(t->in, -1);
    BIO_set_mem_eof_return(t->out, -1);
    SSL_set_bio(t->ssl, t->in, t->out);     /* the SSL owns both now */
    SSL_set_accept_state(t->ssl);
    return t;
}

void ak_tls_free(struct ak_tls *t)
{
    if (!t)
        return;
    SSL_free(t->ssl);
    free(t);
}

/* After an OpenSSL call that returned rc: 0 to go on (it wants more
 * input), -1 on a real error (recorded). */
static int check(struct ak_tls *t, int rc, const char *what)
{
    int e = SSL_get_error(t->ssl, rc);
    if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE)
        return 0;
    if (e == SSL_ERROR_ZERO_RETURN)
        snprintf(t->error, sizeof t->error, "the peer closed the TLS session");
    else
        openssl_error(t->error, sizeof t->error, what);
    return -1;
}

int ak_tls_feed(struct ak_tls *t, const char *in, size_t len,
                int (*plain)(void *ud, char *data, size_t len), void *ud)
{
    if (len && BIO_write(t->in, in, (int)len) != (int)len) {
        snprintf(t->error, sizeof t->error, "out of memory");
        return -1;
    }
    /* SSL_get_error reads the thread's error queue: whatever an earlier
     * call on another connection left there must not count against this
     * one. */
    ERR_clear_error();
    if (!SSL_is_init_finished(t->ssl)) {
        int rc = SSL_do_handshake(t->ssl);
        if (rc != 1)
            return check(t, rc, "TLS handshake failed");
    }
    char buf[16 * 1024];
    for (;;) {
        int n = SSL_read(t->ssl, buf, sizeof buf);
        if (n <= 0)
            return check(t, n, "TLS read failed");
        int stop = plain(ud, buf, (size_t)n);
        if (stop)
            return stop;
    }
}

bool ak_tls_ready(const struct ak_tls *t)
{
    return SSL_is_init_finished(t->ssl);
}

bool ak_tls_seal(struct ak_tls *t, const char *data, size_t len)
{
    if (!SSL_is_init_finished(t->ssl))
        return false;
    /* Into a memory BIO a write is whole or fails. */
    ERR_clear_error();
    while (len > 0) {
        int chunk = len > (1u << 30) ? 1 << 30 : (int)len;
        int n = SSL_write(t->ssl, data, chunk);
        if (n <= 0) {
            check(t, n, "TLS write failed");
            return false;
        }
        data += n;
        len -= (size_t)n;
    }
    return true;
}

size_t ak_tls_pending(const struct ak_tls *t)
{
    return BIO_ctrl_pending(t->out);
}

size_t ak_tls_take(struct ak_tls *t, char *out, size_t cap)
{
    int n = BIO_read(t->out, out, cap > INT32_MAX ? INT32_MAX : (int)cap);
    return n > 0 ? (size_t)n : 0;
}

const char *ak_tls_error(const struct ak_tls *t)
{
    return t->error[0] ? t->error : "TLS error";
}

const char *ak_tls_version(const struct ak_tls *t)
{
    return SSL_get_version(t->ssl);
}
