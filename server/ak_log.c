/* ak_log: structured log lines, "time level message", filtered by level,
 * on stderr or in a file that SIGHUP reopens (for log rotation). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ak_server.h"

static int threshold = AK_LOG_INFO;
static FILE *out;
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

int ak_log_open(const char *path)
{
    if (!path || !*path)
        return 0;
    FILE *f = fopen(path, "a");
    if (!f)
        return -1;
    setvbuf(f, NULL, _IOLBF, 0);
    if (out)
        fclose(out);
    out = f;
    return 0;
}

void ak_log(int level, const char *fmt, ...)
{
    if (level < threshold || !fmt)
        return;
    char when[32];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    FILE *f = out ? out : stderr;
    va_list ap;
    va_start(ap, fmt);
    fprintf(f, "%s %s ", when, names[level]);
    vfprintf(f, fmt, ap);
    fputc('\n', f);
    va_end(ap);
}
