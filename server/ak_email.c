/* ak_email: whether an e-mail address is plain enough to hand to the
 * operator's notification command (ak_notify.c) and to store as a
 * player's setting (ak_settings.c): a leaf both use. */
#include <ctype.h>
#include <string.h>

#include "ak_server.h"

/* A plain address (issue 27): local@domain, checked like a user name
 * before anything uses it, so that no notification command can take it
 * for an option, a second address or shell syntax: at most 254 bytes (64
 * before the @), exactly one @; before it letters, digits and . _ % + -,
 * not beginning with - or ., no two dots; after it labels of letters,
 * digits and - (none beginning or ending with -) joined by dots, at least
 * two, the last of letters only. No blank, comma, quote, slash or shell
 * character anywhere. The verification mail is the real test. */
static bool local_char(unsigned char ch)
{
    return isalnum(ch) || ch == '.' || ch == '_' || ch == '%' || ch == '+' || ch == '-';
}

static bool plain_domain(const char *d)
{
    int labels = 0;
    const char *last = d;
    for (const char *p = d; *p;) {
        const char *start = p;
        while (isalnum((unsigned char)*p) || *p == '-')
            p++;
        if (p == start || *start == '-' || p[-1] == '-' || (*p && *p != '.') || p - start > 63)
            return false;
        labels++;
        last = start;
        if (*p == '.' && !*++p)
            return false;
    }
    if (labels < 2)
        return false;
    for (const char *p = last; *p; p++)
        if (!isalpha((unsigned char)*p))
            return false;
    return strlen(last) >= 2;
}

bool ak_email_plain(const char *e)
{
    const char *at = strchr(e, '@');
    size_t len = strlen(e);
    if (!at || at == e || at - e > 64 || len > 254 || strchr(at + 1, '@') || e[0] == '-' || e[0] == '.' ||
        at[-1] == '.' || strstr(e, ".."))
        return false;
    for (const char *p = e; p < at; p++)
        if (!local_char((unsigned char)*p))
            return false;
    return plain_domain(at + 1);
}
