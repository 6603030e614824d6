/* akc_io: what every command file of akc uses: sending a request and
 * reporting its reply (errors in words, --json documents as they came),
 * password prompts, the session a login leaves, and the words commands
 * take (game numbers, durations). Below the command files: it names none
 * of them. main (akc.c) tells it the server and the output mode. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "ak_notation.h"
#include "akc_cmd.h"

static const char *io_server = "";
static bool io_json, io_hold;

void akc_io_setup(const char *server, bool json)
{
    io_server = server;
    io_json = json;
}

bool akc_json(void) { return io_json; }

void akc_json_hold(bool hold) { io_hold = hold; }

static void print_error(const json_t *reply)
{
    const json_t *e = json_object_get(reply, "error");
    const char *rule = json_string_value(json_object_get(e, "rule"));
    if (rule)
        fprintf(stderr, "illegal: %s [%s, %s]\n", json_string_value(json_object_get(e, "message")),
                rule, json_string_value(json_object_get(e, "section")));
    else if (strcmp(json_string_value(json_object_get(e, "code")) ? json_string_value(json_object_get(e, "code")) : "",
                    "not_logged_in") == 0)
        fprintf(stderr, "error: you are not logged in on %s: akc login USER (or akc register USER)\n", io_server);
    else
        fprintf(stderr, "error: %s (%s)\n", json_string_value(json_object_get(e, "message")),
                json_string_value(json_object_get(e, "code")));
}

/* Send a request and report the reply: result returned (caller decrefs)
 * or NULL after printing the error. *status gets the exit code. */
int akc_game_state(struct ak_net *n, long game, struct ak_state *s)
{
    int status;
    json_t *r = akc_call(n, json_pack("{s:s,s:I}", "cmd", "show", "game", (json_int_t)game), &status);
    if (!r)
        return status;
    char err[200];
    bool read = ak_state_from_json(json_object_get(r, "state"), s, err, sizeof err);
    if (read)
        ak_summary_attach_crt(r, s);
    json_decref(r);
    if (!read) {
        fprintf(stderr, "akc: the server sent a state this client cannot read: %s\n", err);
        return EXIT_REFUSED;
    }
    return 0;
}

json_t *akc_call(struct ak_net *n, json_t *req, int *status)
{
    json_t *reply = ak_net_call(n, req, NULL);
    if (!reply) {
        /* A TLS port closes at once on a plaintext request. */
        fprintf(stderr, "akc: the connection to the server was lost%s\n",
                !n->ssl && !n->heard ? " before any answer (if the server speaks TLS, connect with --tls)" : "");
        *status = EXIT_NET;
        return NULL;
    }
    if (!json_is_true(json_object_get(reply, "ok"))) {
        if (io_json && !io_hold) {
            char *s = json_dumps(reply, JSON_COMPACT);
            puts(s);
            free(s);
        }
        print_error(reply);
        json_decref(reply);
        *status = EXIT_REFUSED;
        return NULL;
    }
    json_t *result = json_incref(json_object_get(reply, "result"));
    json_decref(reply);
    *status = 0;
    if (io_json && !io_hold) {
        char *s = json_dumps(result, JSON_COMPACT);
        puts(s);
        free(s);
    }
    return result;
}

/* The terminal as it was before a password prompt turned echo off: put
 * back if Ctrl-C (or a kill) comes while the prompt waits. */
static struct termios tty_saved;
static volatile sig_atomic_t tty_quiet;

static void restore_tty(int sig)
{
    if (tty_quiet)
        tcsetattr(STDIN_FILENO, TCSANOW, &tty_saved);
    signal(sig, SIG_DFL);
    raise(sig);
}

int akc_read_password(char *buf, size_t cap, const char *prompt)
{
    const char *env = getenv("AKC_PASSWORD");
    if (env) {
        snprintf(buf, cap, "%s", env);
        return 0;
    }
    if (!isatty(STDIN_FILENO)) {
        fprintf(stderr, "akc: no terminal to ask for the password; set AKC_PASSWORD\n");
        return -1;
    }
    struct termios quiet;
    fprintf(stderr, "%s", prompt);
    tcgetattr(STDIN_FILENO, &tty_saved);
    quiet = tty_saved;
    quiet.c_lflag &= ~(tcflag_t)ECHO;
    void (*old_int)(int) = signal(SIGINT, restore_tty);
    void (*old_term)(int) = signal(SIGTERM, restore_tty);
    tty_quiet = 1;
    tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
    char *ok = fgets(buf, (int)cap, stdin);
    tcsetattr(STDIN_FILENO, TCSANOW, &tty_saved);
    tty_quiet = 0;
    signal(SIGINT, old_int);
    signal(SIGTERM, old_term);
    fputc('\n', stderr);
    if (!ok)
        return -1;
    buf[strcspn(buf, "\r\n")] = '\0';
    return 0;
}

/* A new password from a prompt is asked twice (a typo would lock the
 * account's owner out); from AKC_PASSWORD, once. */
int akc_read_new_password(char *buf, size_t cap, const char *prompt)
{
    char again[1024];
    if (akc_read_password(buf, cap, prompt) != 0)
        return -1;
    if (getenv("AKC_PASSWORD"))
        return 0;
    size_t chars = 0;       /* characters, not bytes (UTF-8), as akd counts */
    for (const unsigned char *p = (const unsigned char *)buf; *p; p++)
        chars += (*p & 0xc0) != 0x80;
    if (chars < 8 || chars > 255) {
        fprintf(stderr, "akc: a password is 8 to 255 characters; nothing was sent\n");
        return -1;
    }
    if (akc_read_password(again, sizeof again, "Again: ") != 0)
        return -1;
    bool same = strcmp(buf, again) == 0;
    memset(again, 0, sizeof again);
    if (!same) {
        fprintf(stderr, "akc: the two passwords differ; nothing was sent\n");
        return -1;
    }
    return 0;
}

void akc_save_session(const json_t *result)
{
    struct ak_session s = {0};
    snprintf(s.server, sizeof s.server, "%s", io_server);
    snprintf(s.user, sizeof s.user, "%s", json_string_value(json_object_get(result, "user")));
    snprintf(s.token, sizeof s.token, "%s", json_string_value(json_object_get(result, "token")));
    if (ak_session_save(&s) != 0)
        fprintf(stderr, "akc: warning: could not save the session\n");
}

long akc_game_number(const char *arg)
{
    char *end;
    long g = strtol(arg, &end, 10);
    return (*end || g <= 0) ? -1 : g;
}

/* "90s", "30m", "12h", "3d" or plain seconds; -1 if not a duration. */
long akc_duration(const char *text)
{
    char *end;
    long v = strtol(text, &end, 10);
    long unit = !*end ? 1 : strcmp(end, "s") == 0 ? 1 : strcmp(end, "m") == 0 ? 60
              : strcmp(end, "h") == 0 ? 3600 : strcmp(end, "d") == 0 ? 86400 : -1;
    return unit < 0 || v <= 0 || v > 90L * 86400 / unit ? -1 : v * unit;
}
