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
 * NOTIFY_RUNNING run at a time and up to NOTIFY_QUEUED more wait in order;
 * beyond that a notification is dropped with a warning. What the program
 * prints (standard output and error) goes to akd's log, line by line, and
 * so does a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_notation.h"
#include "ak_server.h"

#define NOTIFY_RUNNING 4
#define NOTIFY_QUEUED 1000
#define NOTIFY_VARS 10
#define NOTIFY_OUTPUT_MAX 4096      /* bytes of a program's output logged */

extern char **environ;

struct notify_job {
    char event[32];
    char vars[NOTIFY_VARS][256];
    struct notify_job *next;
};

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
    if (q.queued >= NOTIFY_QUEUED) {
        ak_log(AK_LOG_WARN, "notify: %d notifications wait already; %s for %s dropped", q.queued, event,
               user_name);
        return NULL;
    }
    struct notify_job *job = calloc(1, sizeof *job);
    if (!job)
        return NULL;
    /* an address stored before addresses were checked is not used */
    snprintf(email, cap, "%s", have && p.email_verified && ak_email_plain(p.email) ? p.email : "");
    snprintf(job->event, sizeof job->event, "%s", event);
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

static void enqueue(struct notify_job *job)
{
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
    enqueue(job);
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

/* The games waiting for user, "12 15 31"; how many. */
static int games_waiting(struct ak_server *srv, int64_t user, char *out, size_t cap)
{
    int n = 0;
    size_t len = 0;
    out[0] = '\0';
    for (int64_t id = 1; id < srv->next_game_id; id++) {     /* by number: the list reads in order */
        const struct ak_game *g = ak_game_find(srv, id);
        if (!g)
            continue;
        int w = ak_game_waiting(g);
        if (w < AK_SIDES && !ak_game_open(g) && g->player[w] == user && len + 24 < cap) {
            len += (size_t)snprintf(out + len, cap - len, "%s%lld", n ? " " : "", (long long)g->id);
            n++;
        }
    }
    return n;
}

void ak_notify_digest(struct ak_server *srv)
{
    static int last_day = -1;
    int64_t now = ak_now();
    int day = (int)(now / 86400), hour = (int)(now % 86400 / 3600);
    if (!srv->cfg.notify_command[0] || day == last_day || hour < srv->cfg.digest_hour)
        return;
    last_day = day;
    static int64_t users[4096];
    int n = ak_store_digest_users(srv->store, users, 4096);
    for (int i = 0; i < n; i++) {
        char list[200], email[128];
        struct ak_store_prefs p;
        /* once a day, a restart included: the day is stored first */
        if (ak_store_prefs_get(srv->store, users[i], &p) != AK_STORE_OK || p.digest_day == day)
            continue;
        p.digest_day = day;
        int waiting = games_waiting(srv, users[i], list, sizeof list);
        if (!waiting || ak_store_prefs_put(srv->store, users[i], &p) != AK_STORE_OK)
            continue;
        struct notify_job *job = new_job(srv, "digest", users[i], email, sizeof email);
        if (!job)
            continue;
        snprintf(job->vars[9], sizeof job->vars[9], "AK_GAMES=%s", list);
        enqueue(job);
    }
}
