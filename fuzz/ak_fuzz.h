/* ak_fuzz: what every harness of fuzz/ shares. A harness defines
 * AK_FUZZ_NAME (its name, for messages) before including this, and calls
 * fail() when an assertion breaks: the message, then abort(), which
 * libFuzzer reports as a crash and keeps the input for. */
#ifndef AK_FUZZ_H
#define AK_FUZZ_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn, unused));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", AK_FUZZ_NAME);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

#endif
