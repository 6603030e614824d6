/* ak_trust: deciding whether akc trusts a server's certificate.
 *
 * A certificate that verifies against the system's trust store (or the
 * --ca file) for the server's name is trusted: that is how a server with a
 * certificate from a public authority (certbot's, say) is reached, and its
 * renewals change nothing here. A club's server often has a self-signed
 * certificate instead; for it akc works like ssh with host keys: the first
 * time, it shows the certificate's SHA-256 fingerprint and offers to pin
 * it (asked on a terminal; --accept-new-cert pins without asking, for
 * scripts), and from then on it trusts exactly that certificate for that
 * host and port and refuses, loudly, any other. Pins are kept in
 * $XDG_STATE_HOME/akc/known_servers (~/.local/state/akc/known_servers),
 * one "host:port fingerprint" per line.
 */
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ak_client.h"

static int pins_path(char *out, size_t cap, bool make_dir)
{
    return ak_xdg_path("XDG_STATE_HOME", ".local/state", "known_servers", out, cap, make_dir);
}

/* "AB:CD:..." of the certificate's DER encoding. */
static bool fingerprint(X509 *cert, char *out, size_t cap)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!cert || X509_digest(cert, EVP_sha256(), md, &n) != 1 || cap < n * 3)
        return false;
    for (unsigned i = 0; i < n; i++)
        snprintf(out + 3 * i, cap - 3 * i, "%02X%s", md[i], i + 1 < n ? ":" : "");
    return true;
}

/* The fingerprint pinned for key ("host:port"), into out; false if none. */
static bool pinned(const char *key, char *out, size_t cap)
{
    char path[600], line[400];
    if (pins_path(path, sizeof path, false) != 0)
        return false;
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool found = false;
    size_t klen = strlen(key);
    while (!found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, key, klen) == 0 && line[klen] == ' ') {
            snprintf(out, cap, "%s", line + klen + 1);
            found = true;
        }
    }
    fclose(f);
    return found;
}

static int pin(const char *key, const char *fp, char *err, size_t errlen)
{
    char path[600];
    FILE *f = NULL;
    if (pins_path(path, sizeof path, true) == 0) {
        mode_t old = umask(077);
        f = fopen(path, "a");
        umask(old);
    }
    if (!f || fprintf(f, "%s %s\n", key, fp) < 0 || fclose(f) != 0) {
        snprintf(err, errlen, "cannot record the certificate in %s", path);
        return -1;
    }
    fprintf(stderr, "akc: trusting this certificate for %s from now on (kept in %s)\n", key, path);
    return 0;
}

/* On a terminal: show what is known and ask. */
static bool ask(const char *key, const char *why, const char *fp)
{
    if (!isatty(STDIN_FILENO) || !isatty(STDERR_FILENO))
        return false;
    fprintf(stderr,
            "The certificate of %s cannot be verified: %s.\n"
            "Its SHA-256 fingerprint is\n  %s\n"
            "Ask the server's operator whether that is the fingerprint of their certificate.\n"
            "Trust it for %s from now on? [y/N] ", key, why, fp, key);
    char answer[16];
    if (!fgets(answer, sizeof answer, stdin))
        return false;
    return answer[0] == 'y' || answer[0] == 'Y';
}

int ak_trust_check(SSL *ssl, const char *host, const char *port, bool accept_new, char *err, size_t errlen)
{
    char key[300], fp[128], want[128];
    snprintf(key, sizeof key, strchr(host, ':') ? "[%s]:%s" : "%s:%s", host, port);
    X509 *cert = SSL_get1_peer_certificate(ssl);
    bool have_fp = fingerprint(cert, fp, sizeof fp);
    X509_free(cert);
    if (!have_fp) {
        snprintf(err, errlen, "%s sent no certificate", key);
        return -1;
    }
    if (pinned(key, want, sizeof want)) {
        if (strcmp(want, fp) == 0)
            return 0;
        char path[600] = "the known servers file";
        pins_path(path, sizeof path, false);
        snprintf(err, errlen,
                 "\n@@@ THE CERTIFICATE OF %s HAS CHANGED @@@\n"
                 "It is not the one you trusted before: someone may be impersonating the server\n"
                 "(or its operator replaced the certificate).\n"
                 "  trusted:   %s\n  presented: %s\n"
                 "Nothing was sent. If the operator confirms the new fingerprint, delete the line\n"
                 "for %s in %s and connect again.", key, want, fp, key, path);
        return -1;
    }
    long v = SSL_get_verify_result(ssl);
    if (v == X509_V_OK)
        return 0;
    const char *why = X509_verify_cert_error_string(v);
    if (accept_new || ask(key, why, fp))
        return pin(key, fp, err, errlen);
    snprintf(err, errlen,
             "the certificate of %s cannot be verified (%s).\n"
             "Its SHA-256 fingerprint is %s.\n"
             "If the operator confirms it, trust it with --accept-new-cert (or answer yes on a terminal),\n"
             "or give the authority that signed it with --ca FILE.", key, why, fp);
    return -1;
}
