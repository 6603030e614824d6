/* ak_log: akd's log, one logfmt line per event,
 *
 *     ts=2026-11-23T10:00:00Z level=info msg="game 7 created by alice" conn=12 user=alice game=7
 *
 * filtered by level, on standard error or in a file that SIGHUP reopens (for
 * log rotation). Under systemd (JOURNAL_STREAM names our standard error,
 * and no log file is set) the time is left to journald and each line starts
 * with its syslog priority ("<6>"), which journald reads as the entry's
 * level, so `journalctl -p warning -u akd` works. logfmt rather than JSON:
 * it reads as text in a terminal and `grep user=alice` finds a player's
 * lines, and tools that parse logfmt (Loki, lnav) take it as it is. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "ak_server.h"

#define LOG_BUFFER (64 * 1024)

static int threshold = AK_LOG_INFO;
static FILE *out;
static int journal = -1;    /* -1: not looked at yet */
static const char *const names[] = {"debug", "info", "warn", "error"};
static const int priorities[] = {7, 6, 4, 3};   /* syslog: debug, info, warning, err */

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
    setvbuf(f, NULL, _IOFBF, LOG_BUFFER);
    if (out)
        fclose(out);
    out = f;
    return 0;
}

/* The trade-off: a crash loses the lines of its loop turn (at most one
 * buffer's worth); an orderly stop (exit, return from main) writes them. */
void ak_log_buffer(void)
{
    setvbuf(stderr, NULL, _IOFBF, LOG_BUFFER);
}

void ak_log_flush(void)
{
    fflush(out ? out : stderr);
}

/* systemd sets JOURNAL_STREAM=DEVICE:INODE for a service whose standard
 * error goes to the journal; a child of that service with its standard
 * error redirected elsewhere inherits the variable, hence the comparison. */
static bool stderr_is_journal(void)
{
    if (journal < 0) {
        const char *js = getenv("JOURNAL_STREAM");
        unsigned long long dev, ino;
        struct stat st;
        journal = js && sscanf(js, "%llu:%llu", &dev, &ino) == 2 && fstat(2, &st) == 0 &&
                  (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
    }
    return journal == 1;
}

/* A logfmt value: bare when it is a plain word, else quoted with ", \
 * and control characters escaped (a user name or a peer's text cannot
 * forge a field or a line). */
static void put_value(FILE *f, const char *v)
{
    bool bare = *v != '\0';
    for (const char *p = v; *p && bare; p++)
        bare = (unsigned char)*p > ' ' && *p != '"' && *p != '=' && *p != '\\' && (unsigned char)*p != 0x7f;
    if (bare) {
        fputs(v, f);
        return;
    }
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p < ' ' || *p == 0x7f)
            fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static void emit(int level, const struct ak_log_ctx *ctx, const char *fmt, va_list ap)
{
    char msg[2048];
    vsnprintf(msg, sizeof msg, fmt, ap);
    FILE *f = out ? out : stderr;
    if (!out && stderr_is_journal()) {
        fprintf(f, "<%d>level=%s msg=", priorities[level], names[level]);
    } else {
        char when[32];
        time_t t = time(NULL);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
        fprintf(f, "ts=%s level=%s msg=", when, names[level]);
    }
    put_value(f, msg);
    if (ctx && ctx->conn)
        fprintf(f, " conn=%llu", (unsigned long long)ctx->conn);
    if (ctx && ctx->user && ctx->user[0]) {
        fputs(" user=", f);
        put_value(f, ctx->user);
    }
    if (ctx && ctx->game)
        fprintf(f, " game=%lld", (long long)ctx->game);
    if (ctx && ctx->target && ctx->target[0]) {
        fputs(" target=", f);
        put_value(f, ctx->target);
    }
    fputc('\n', f);
}

void ak_log(int level, const char *fmt, ...)
{
    if (level < threshold || !fmt)
        return;
    va_list ap;
    va_start(ap, fmt);
    emit(level, NULL, fmt, ap);
    va_end(ap);
}

void ak_log_with(int level, const struct ak_log_ctx *ctx, const char *fmt, ...)
{
    if (level < threshold || !fmt)
        return;
    va_list ap;
    va_start(ap, fmt);
    emit(level, ctx, fmt, ap);
    va_end(ap);
}
