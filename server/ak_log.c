/* ak_log: log lines on stderr, "time level message", filtered by level. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ak_server.h"

static int threshold = AK_LOG_INFO;
static const char *const names[] = {"debug", "info", "warn", "error"};

int ak_log_parse_level(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (strcasecmp(name, names[i]) == 0)
            return i;
    return -1;
}

void ak_log_set_level(int level) { threshold = level; }

int64_t ak_now(void) { return (int64_t)time(NULL); }

void ak_log(int level, const char *fmt, ...)
{
    if (level < threshold)
        return;
    char when[32];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s %s ", when, names[level]);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
