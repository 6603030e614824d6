/* ak_notify: telling players when something needs them.
 *
 * akd runs the operator's notify_command (a program, started with uv_spawn,
 * never through a shell) with the event as its one argument and the details
 * in the environment, added to akd's own (PATH, HOME, LANG and the rest,
 * whole, so the program finds what it calls): AK_EVENT (your_turn,
 * challenge, deadline_near, deadline_passed, game_over, digest,
 * verify_email), AK_GAME, AK_USER (the player to tell), AK_SIDE,
 * AK_OPPONENT, AK_DEADLINE (seconds since the epoch, or 0), AK_RESULT,
 * AK_EMAIL (the player's verified address, or the one to verify for
 * verify_email; else empty), AK_TOKEN (verify_email: what the player sends
 * back), AK_GAMES (digest: the games waiting for him, "12 15 31"). A mail
 * relay is one such program.
 *
 * A player who chose the daily digest (settings notify = digest) gets no
 * your_turn notification: once a day, at digest_hour (UTC), one digest
 * lists the games waiting for him, if any (ak_notify_digest, from the
 * clock tick). Everything else (challenges, deadlines, results) is told
 * as it happens.
 *
 * akd does not wait for it, and a burst of events (a tournament round
 * starting, say) must not start hundreds of processes at once: at most
 * NOTIFY_RUNNING run at a time and the rest wait in order (issue 28):
 *  - coalesced: a challenge or a your_turn for a player who has one of
 *    the same kind waiting already joins it (AK_COUNT says how many,
 *    AK_GAMES lists their games, AK_GAME and the details are the newest's),
 *    so a round robin's start is one challenge and one your_turn per
 *    player, not sixty-three of each (the other kinds each say something
 *    of their own game: deadlines, results, and are never merged);
 *  - a fair share: a player has at most NOTIFY_PER_PLAYER notifications
 *    waiting, and all of them together at most NOTIFY_QUEUED, so that
 *    nobody's flood pushes others' out (a verify_email, which its player
 *    asked for and is told was sent, is not counted against his share);
 *  - from others: a challenge notifies its player only within its
 *    sender's notify_per_hour (ak_budget.c), so that nobody can use akd
 *    to bomb a mailbox by challenging and calling off in a loop.
 * What is dropped for these limits is counted (/metrics) and logged once
 * a minute, never silently. What the program prints (standard output and
 * error) goes to akd's log, line by line, and so does a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_notation.h"
#include "ak_server.h"

#define NOTIFY_RUNNING 4
#define NOTIFY_QUEUED 1000
#define NOTIFY_PER_PLAYER 8
#define NOTIFY_VARS 11
#define NOTIFY_GAMES 200           /* bytes of AK_GAMES' list */
#define NOTIFY_OUTPUT_MAX 4096      /* bytes of a program's output logged */

extern char **environ;

struct notify_job {
    char event[32];
    int64_t user;
    int count;                  /* events coalesced into it */
    char games[NOTIFY_GAMES];   /* their games, "12 15 31" */
    char vars[NOTIFY_VARS][256];
    struct notify_job *next;
};

static uint64_t dropped, dropped_logged;

struct notify_proc {
    uv_process_t proc;
    uv_pipe_t out, err;
    struct notify_job *job;
    char line[512];
    size_t len, logged;
    int open;                   /* handles not yet closed */
};

static struct {
    struct notify_job *head, **tail;
    int queued, running;
} q = {NULL, &q.head, 0, 0};

static struct ak_server *server;
static void start_next(void);

static void proc_closed(uv_handle_t *h)
{
    struct notify_proc *np = h->data;
    if (--np->open > 0)
        return;
    free(np->job);
    free(np);
}

/* The program is done (or never started): its slot is free for the next.
 * Its pipes close at their end of file, when what it printed has been
 * read: a child it left running in the background may hold them open
 * longer, but no longer holds a slot. */
static void release_slot(void)
{
    q.running--;
    start_next();
}

static void log_line(struct notify_proc *np)
{
    np->line[np->len] = '\0';
    if (np->len && np->logged < NOTIFY_OUTPUT_MAX)
        ak_log(AK_LOG_INFO, "notify %s for %s: %s", np->job->event, np->job->vars[2] + 8, np->line);
    np->logged += np->len;
    np->len = 0;
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    static char space[4096];
    (void)h;
    (void)suggested;
    *buf = uv_buf_init(space, sizeof space);
}

static void on_output(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    struct notify_proc *np = s->data;
    for (ssize_t i = 0; i < n; i++) {
        char ch = buf->base[i];
        if (ch == '\n' || np->len == sizeof np->line - 1)
            log_line(np);
        if (ch != '\n')
            np->line[np->len++] = ch;
    }
    if (n < 0) {
        log_line(np);
        if (!uv_is_closing((uv_handle_t *)s))
            uv_close((uv_handle_t *)s, proc_closed);
    }
}

static void on_exit_proc(uv_process_t *p, int64_t status, int signal)
{
    struct notify_proc *np = p->data;
    if (status != 0 || signal != 0)
        ak_log(AK_LOG_WARN, "notify command for %s (%s) exited with status %lld (signal %d)",
               np->job->vars[2] + 8, np->job->event, (long long)status, signal);
    uv_close((uv_handle_t *)p, proc_closed);
    release_slot();
}

/* akd's environment with the AK_ variables of the job (replacing any of
 * the same name); freed by the caller (the strings are not copied). */
static char **job_environment(struct notify_job *job)
{
    size_t n = 0;
    while (environ && environ[n])
        n++;
    char **envp = calloc(n + NOTIFY_VARS + 1, sizeof *envp);
    if (!envp)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "AK_", 3) != 0)
            envp[k++] = environ[i];
    for (int i = 0; i < NOTIFY_VARS; i++)
        envp[k++] = job->vars[i];
    return envp;
}

static void run(struct notify_job *job)
{
    struct notify_proc *np = calloc(1, sizeof *np);
    char **envp = job_environment(job);
    if (!np || !envp) {
        free(np);
        free(envp);
        free(job);
        ak_log(AK_LOG_WARN, "notify: out of memory");
        return;
    }
    np->job = job;
    np->proc.data = np->out.data = np->err.data = np;
    uv_pipe_init(server->loop, &np->out, 0);
    uv_pipe_init(server->loop, &np->err, 0);
    uv_stdio_container_t stdio[3] = {
        {.flags = UV_IGNORE},
        {.flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE, .data.stream = (uv_stream_t *)&np->out},
        {.flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE, .data.stream = (uv_stream_t *)&np->err},
    };
    char *args[3] = {server->cfg.notify_command, job->event, NULL};
    uv_process_options_t o = {0};
    o.file = server->cfg.notify_command;
    o.args = args;
    o.env = envp;
    o.exit_cb = on_exit_proc;
    o.stdio = stdio;
    o.stdio_count = 3;
    o.flags = UV_PROCESS_WINDOWS_HIDE;
    q.running++;
    np->open = 3;
    int rc = uv_spawn(server->loop, &np->proc, &o);
    free(envp);
    if (rc != 0) {
        ak_log(AK_LOG_WARN, "cannot run the notify command %s: %s", o.file, uv_strerror(rc));
        uv_close((uv_handle_t *)&np->proc, proc_closed);
        uv_close((uv_handle_t *)&np->out, proc_closed);
        uv_close((uv_handle_t *)&np->err, proc_closed);
        release_slot();
        return;
    }
    uv_read_start((uv_stream_t *)&np->out, on_alloc, on_output);
    uv_read_start((uv_stream_t *)&np->err, on_alloc, on_output);
}

static void start_next(void)
{
    while (q.running < NOTIFY_RUNNING && q.head && !server->stopping) {
        struct notify_job *job = q.head;
        q.head = job->next;
        if (!q.head)
            q.tail = &q.head;
        q.queued--;
        run(job);
    }
}

void ak_notify_stop(void)
{
    while (q.head) {
        struct notify_job *job = q.head;
        q.head = job->next;
        free(job);
    }
    q.tail = &q.head;
    q.queued = 0;
}

/* A job for user with the common variables set (the game's left empty);
 * NULL if there is nothing to do or no room. */
static struct notify_job *new_job(struct ak_server *srv, const char *event, int64_t user, char *email, size_t cap)
{
    struct ak_store_prefs p;
    char user_name[64] = "";
    if (!srv->cfg.notify_command[0] || !user ||
        ak_store_user_name(srv->store, user, user_name, sizeof user_name) != AK_STORE_OK)
        return NULL;
    server = srv;
    bool have = ak_store_prefs_get(srv->store, user, &p) == AK_STORE_OK;
    if (have && strcmp(event, "your_turn") == 0 && strcmp(p.notify_mode, "digest") == 0)
        return NULL;        /* the digest will list the game */
    struct notify_job *job = calloc(1, sizeof *job);
    if (!job)
        return NULL;
    /* an address stored before addresses were checked is not used */
    snprintf(email, cap, "%s", have && p.email_verified && ak_email_plain(p.email) ? p.email : "");
    snprintf(job->event, sizeof job->event, "%s", event);
    job->user = user;
    job->count = 1;
    snprintf(job->vars[10], sizeof job->vars[10], "AK_COUNT=1");
    snprintf(job->vars[0], sizeof job->vars[0], "AK_EVENT=%s", event);
    snprintf(job->vars[1], sizeof job->vars[1], "AK_GAME=");
    snprintf(job->vars[2], sizeof job->vars[2], "AK_USER=%s", user_name);
    snprintf(job->vars[3], sizeof job->vars[3], "AK_SIDE=");
    snprintf(job->vars[4], sizeof job->vars[4], "AK_OPPONENT=");
    snprintf(job->vars[5], sizeof job->vars[5], "AK_DEADLINE=0");
    snprintf(job->vars[6], sizeof job->vars[6], "AK_RESULT=");
    snprintf(job->vars[7], sizeof job->vars[7], "AK_EMAIL=%s", email);
    snprintf(job->vars[8], sizeof job->vars[8], "AK_TOKEN=");
    snprintf(job->vars[9], sizeof job->vars[9], "AK_GAMES=");
    return job;
}

uint64_t ak_notify_dropped(void)
{
    return dropped;
}

int ak_notify_waiting(void)
{
    return q.queued + q.running;
}

/* Dropped for the limits above: counted, and said once a minute. */
static void drop(struct notify_job *job, const char *why)
{
    static int64_t said;
    dropped++;
    if (ak_now() - said >= 60) {
        ak_log(AK_LOG_WARN, "notify: %s for %s dropped (%s); %llu dropped since the last warning", job->event,
               job->vars[2] + 8, why, (unsigned long long)(dropped - dropped_logged));
        said = ak_now();
        dropped_logged = dropped;
    }
    free(job);
}

static bool mergeable(const char *event)
{
    return strcmp(event, "challenge") == 0 || strcmp(event, "your_turn") == 0;
}

/* Is game (a number) in list ("12 15 31")? Whole numbers only. */
static bool listed(const char *list, const char *game)
{
    size_t n = strlen(game);
    for (const char *p = list; (p = strstr(p, game)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

/* A waiting job of the same player and (mergeable) event takes job in;
 * *of_player: how many of his are waiting. */
static bool coalesce(struct notify_job *job, int *of_player)
{
    *of_player = 0;
    for (struct notify_job *w = q.head; w; w = w->next) {
        if (w->user != job->user)
            continue;
        ++*of_player;
        if (strcmp(w->event, job->event) != 0 || !mergeable(job->event))
            continue;
        w->count++;
        size_t len = strlen(w->games);
        if (len + strlen(job->games) + 2 < sizeof w->games && !listed(w->games, job->games))
            snprintf(w->games + len, sizeof w->games - len, "%s%s", len ? " " : "", job->games);
        memcpy(w->vars[1], job->vars[1], sizeof w->vars[1]);     /* the newest game, */
        memcpy(w->vars[3], job->vars[3], sizeof w->vars[0] * 4);  /* side, opponent, deadline, result */
        snprintf(w->vars[9], sizeof w->vars[9], "AK_GAMES=%s", w->games);
        snprintf(w->vars[10], sizeof w->vars[10], "AK_COUNT=%d", w->count);
        free(job);
        return true;
    }
    return false;
}

static void enqueue(struct notify_job *job)
{
    int of_player;
    if (coalesce(job, &of_player))
        return;
    if (of_player >= NOTIFY_PER_PLAYER && strcmp(job->event, "verify_email") != 0) {
        drop(job, "the player has as many waiting as one may");
        return;
    }
    if (q.queued >= NOTIFY_QUEUED) {
        drop(job, "the queue is full");
        return;
    }
    *q.tail = job;
    q.tail = &job->next;
    q.queued++;
    start_next();
    ak_log(AK_LOG_DEBUG, "notifying %s of %s", job->vars[2] + 8, job->event);
}

void ak_notify(struct ak_server *srv, const char *event, const struct ak_game *g, int64_t user,
               int side)
{
    char email[128];
    struct notify_job *job = new_job(srv, event, user, email, sizeof email);
    if (!job)
        return;
    snprintf(job->vars[1], sizeof job->vars[1], "AK_GAME=%lld", (long long)g->id);
    snprintf(job->vars[3], sizeof job->vars[3], "AK_SIDE=%s", side == AK_AXIS ? "axis" : "allied");
    snprintf(job->vars[4], sizeof job->vars[4], "AK_OPPONENT=%s",
             side >= 0 && side < AK_SIDES && g->player[!side] ? g->player_name[!side] : "");
    snprintf(job->vars[5], sizeof job->vars[5], "AK_DEADLINE=%lld", (long long)g->meta.deadline);
    snprintf(job->vars[6], sizeof job->vars[6], "AK_RESULT=%s", ak_result_name(ak_game_brief_of(g).result));
    snprintf(job->games, sizeof job->games, "%lld", (long long)g->id);
    snprintf(job->vars[9], sizeof job->vars[9], "AK_GAMES=%s", job->games);
    enqueue(job);
}

void ak_notify_from(struct ak_server *srv, int64_t sender, const char *event, const struct ak_game *g,
                    int64_t user, int side)
{
    if (sender && sender != user && srv->loop && srv->cfg.notify_command[0] &&
        !ak_budget_charge(&srv->cfg, AK_BUDGET_NOTIFY, ak_budget_user_key(sender), 1, uv_now(srv->loop))) {
        struct notify_job *job = calloc(1, sizeof *job);
        if (job) {
            snprintf(job->event, sizeof job->event, "%s", event);
            snprintf(job->vars[2], sizeof job->vars[2], "AK_USER=%lld", (long long)user);
            drop(job, "its sender caused more than notify_per_hour");
        }
        return;
    }
    ak_notify(srv, event, g, user, side);
}

void ak_notify_verify_email(struct ak_server *srv, int64_t user, const char *address, const char *token)
{
    char email[128];
    struct notify_job *job = new_job(srv, "verify_email", user, email, sizeof email);
    if (!job)
        return;
    snprintf(job->vars[7], sizeof job->vars[7], "AK_EMAIL=%s", address);
    snprintf(job->vars[8], sizeof job->vars[8], "AK_TOKEN=%s", token);
    enqueue(job);
}

/* The daily digest, in slices (issue 28): from digest_hour on, each clock
 * tick takes the next DIGEST_SLICE accounts in digest mode (by number),
 * finds the games waiting for each in one pass over the games, and hands
 * one job to the group commit that stores the day of their digest (once a
 * day, a restart included: the writer skips an account whose day is
 * stored already); once it is stored their digests are queued. Nothing
 * in one loop turn walks all accounts, nor all games more than once. */
#define DIGEST_SLICE 64
#define DIGEST_LIST 200

struct digest_slice {
    int64_t day;
    int n;
    int64_t users[DIGEST_SLICE];
    char lists[DIGEST_SLICE][DIGEST_LIST];  /* "12 15 31": the games waiting for each */
    bool due[DIGEST_SLICE];                 /* the writer's finding: not sent today yet */
};

static int user_index(const struct digest_slice *d, int64_t user)
{
    int lo = 0, hi = d->n - 1;      /* users are in order */
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (d->users[mid] == user)
            return mid;
        if (d->users[mid] < user)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* Each user's waiting games, in the order of their numbers. */
static void waiting_lists(struct ak_server *srv, struct digest_slice *d)
{
    for (int64_t id = 1; id < srv->next_game_id; id++) {
        const struct ak_game *g = ak_game_find(srv, id);
        int w = g ? ak_game_waiting(g) : AK_SIDES;
        int64_t bidder = g ? ak_bid_to_move(g) : 0;     /* a side auction waits for its bidder */
        int i = bidder ? user_index(d, bidder) : w < AK_SIDES && !ak_game_open(g) ? user_index(d, g->player[w]) : -1;
        size_t len = i >= 0 ? strlen(d->lists[i]) : 0;
        if (i >= 0 && len + 24 < DIGEST_LIST)
            snprintf(d->lists[i] + len, DIGEST_LIST - len, "%s%lld", len ? " " : "", (long long)id);
    }
}

static int digest_write(struct ak_store *st, const struct ak_commit *k)
{
    struct digest_slice *d = k->data;
    for (int i = 0; i < d->n; i++) {
        struct ak_store_prefs p;
        if (!d->lists[i][0])
            continue;
        if (ak_store_prefs_get(st, d->users[i], &p) != AK_STORE_OK)
            return AK_STORE_ERROR;
        if (p.digest_day == d->day)
            continue;
        p.digest_day = d->day;
        if (ak_store_prefs_put(st, d->users[i], &p) != AK_STORE_OK)
            return AK_STORE_ERROR;
        d->due[i] = true;
    }
    return AK_STORE_OK;
}

static void digest_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct digest_slice *d = k->data;
    for (int i = 0; i < d->n; i++) {
        char email[128];
        struct notify_job *job = d->due[i] ? new_job(srv, "digest", d->users[i], email, sizeof email) : NULL;
        if (!job)
            continue;
        snprintf(job->vars[9], sizeof job->vars[9], "AK_GAMES=%s", d->lists[i]);
        enqueue(job);
    }
}

static const struct ak_job digest_job = {digest_write, digest_answer, NULL, NULL, NULL};

void ak_notify_digest(struct ak_server *srv)
{
    static int64_t day_done = -1, after;     /* the day whose digests are all handed over; where its run is */
    int64_t now = ak_now(), day = now / 86400;
    int hour = (int)(now % 86400 / 3600);
    if (!srv->cfg.notify_command[0] || day == day_done || hour < srv->cfg.digest_hour)
        return;
    struct digest_slice *d = calloc(1, sizeof *d);
    if (!d)
        return;
    d->day = day;
    d->n = ak_store_digest_users(srv->store, after, d->users, DIGEST_SLICE);
    if (d->n <= 0) {        /* the run is over (or the store failed: tomorrow again) */
        free(d);
        day_done = day;
        after = 0;
        return;
    }
    after = d->users[d->n - 1];
    waiting_lists(srv, d);
    ak_batch_job(srv, NULL, NULL, &digest_job, NULL, d);
}
