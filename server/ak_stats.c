/* ak_stats: what an operator asks of a running akd (akc admin stats, and
 * /metrics, ak_metrics.c): errors answered by code, commits and their
 * latency, actions per second over the last minute, pushes sent,
 * connections refused.
 *
 * Counters only, updated on the loop where the events happen (a reply, a
 * finished group commit): no locks, nothing stored. Latency percentiles
 * come from the last LATENCY_KEEP commits (a ring), not from all time, so
 * they say how akd is doing now; the cumulative histogram beside them is
 * what a Prometheus scrape wants. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ak_server.h"

#define ERROR_CODES 48
#define LATENCY_KEEP 1024
#define WINDOW 60           /* seconds of actions per second */

static struct {
    struct { char code[32]; uint64_t n; } errors[ERROR_CODES];
    int nerrors;
    uint64_t commits, actions, pushes, refused, logins_throttled, logins, registrations, finished[3];
    uint64_t latency_ns[LATENCY_KEEP];
    double latency_sum_ms;
    int nlatency, next_latency;
    uint64_t histogram[AK_STATS_BUCKETS + 1];  /* commits at or under each bound, +Inf last */
    uint64_t per_second[WINDOW];
    int64_t second[WINDOW];                   /* the second each slot counts */
    int64_t started;
} st;

const double ak_stats_bucket_ms[AK_STATS_BUCKETS] = {1, 2, 5, 10, 20, 50, 100, 250, 500, 1000};

void ak_stats_start(void)
{
    memset(&st, 0, sizeof st);
    st.started = ak_now();
}

void ak_stats_error(const char *code)
{
    for (int i = 0; i < st.nerrors; i++)
        if (strcmp(st.errors[i].code, code) == 0) {
            st.errors[i].n++;
            return;
        }
    /* Codes are the protocol's fixed words; the table only fills if new
     * ones are added without growing it: they then count as "other". */
    int i = st.nerrors < ERROR_CODES ? st.nerrors++ : ERROR_CODES - 1;
    if (i == ERROR_CODES - 1 && st.errors[i].code[0] && strcmp(st.errors[i].code, "other") != 0)
        return;
    snprintf(st.errors[i].code, sizeof st.errors[i].code, "%s", i == ERROR_CODES - 1 ? "other" : code);
    st.errors[i].n++;
}

void ak_stats_push(int watchers) { st.pushes += (uint64_t)watchers; }
void ak_stats_refused(void) { st.refused++; }
void ak_stats_login_throttled(void) { st.logins_throttled++; }
void ak_stats_signed_in(bool registration) { registration ? st.registrations++ : st.logins++; }

void ak_stats_game_finished(int result)
{
    if (result == AK_RESULT_AXIS_WINS || result == AK_RESULT_ALLIED_WINS || result == AK_RESULT_DRAW)
        st.finished[result == AK_RESULT_AXIS_WINS ? 0 : result == AK_RESULT_ALLIED_WINS ? 1 : 2]++;
}

void ak_stats_commit(uint64_t ns, int actions)
{
    int64_t now = ak_now();
    int slot = (int)(now % WINDOW);
    if (st.second[slot] != now) {
        st.second[slot] = now;
        st.per_second[slot] = 0;
    }
    st.per_second[slot] += (uint64_t)actions;
    st.commits++;
    st.actions += (uint64_t)actions;
    st.latency_sum_ms += (double)ns / 1e6;
    st.latency_ns[st.next_latency] = ns;
    st.next_latency = (st.next_latency + 1) % LATENCY_KEEP;
    if (st.nlatency < LATENCY_KEEP)
        st.nlatency++;
    int b = 0;
    while (b < AK_STATS_BUCKETS && (double)ns / 1e6 > ak_stats_bucket_ms[b])
        b++;
    st.histogram[b]++;
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

void ak_stats_read(struct ak_stats *out)
{
    memset(out, 0, sizeof *out);
    int64_t now = ak_now();
    if (!st.started)
        st.started = now;       /* a server that never called ak_stats_start (the fuzzer's) */
    uint64_t recent = 0;
    for (int i = 0; i < WINDOW; i++)
        if (st.second[i] > now - WINDOW && st.second[i] <= now)
            recent += st.per_second[i];
    int64_t span = now - st.started < WINDOW ? now - st.started : WINDOW;
    out->actions_per_second = (double)recent / (double)(span > 0 ? span : 1);
    out->commits = st.commits;
    out->actions = st.actions;
    out->pushes = st.pushes;
    out->latency_sum_ms = st.latency_sum_ms;
    out->refused = st.refused;
    out->logins_throttled = st.logins_throttled;
    out->logins = st.logins;
    out->registrations = st.registrations;
    memcpy(out->finished, st.finished, sizeof out->finished);
    out->started = st.started;
    out->uptime = now - st.started;
    static uint64_t sorted[LATENCY_KEEP];
    memcpy(sorted, st.latency_ns, sizeof sorted[0] * (size_t)st.nlatency);
    qsort(sorted, (size_t)st.nlatency, sizeof sorted[0], by_value);
    static const double pct[4] = {0.50, 0.90, 0.99, 1.0};
    for (int i = 0; i < 4 && st.nlatency; i++) {
        int at = (int)(pct[i] * (st.nlatency - 1) + 0.5);
        out->latency_ms[i] = (double)sorted[at] / 1e6;
    }
    out->latency_samples = st.nlatency;
    uint64_t cum = 0;
    for (int b = 0; b <= AK_STATS_BUCKETS; b++)
        out->histogram[b] = cum += st.histogram[b];
    out->nerrors = st.nerrors;
    for (int i = 0; i < st.nerrors; i++) {
        snprintf(out->error_code[i], sizeof out->error_code[i], "%s", st.errors[i].code);
        out->error_count[i] = st.errors[i].n;
    }
}
