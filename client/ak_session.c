/* ak_session: the login kept between akc runs. It is state, not
 * configuration: $XDG_STATE_HOME/akc/session (or ~/.local/state/akc/),
 * session.NAME for a profile (--profile NAME), mode 0600, three lines:
 * server, user, token. A session left by an older akc in
 * $XDG_CONFIG_HOME/akc/session is moved there on first use. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ak_client.h"

int ak_xdg_path(const char *env, const char *fallback, const char *file, char *out, size_t cap,
                bool make_dir)
{
    const char *xdg = getenv(env);
    const char *home = getenv("HOME");
    char dir[512];
    if (xdg && *xdg)
        snprintf(dir, sizeof dir, "%s/akc", xdg);
    else if (home && *home)
        snprintf(dir, sizeof dir, "%s/%s/akc", home, fallback);
    else
        return -1;
    if (make_dir) {
        for (char *p = dir + 1; *p; p++)    /* mkdir -p, private */
            if (*p == '/') {
                *p = '\0';
                mkdir(dir, 0700);
                *p = '/';
            }
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            return -1;
    }
    snprintf(out, cap, "%s/%s", dir, file);
    return 0;
}

static char profile[40];

void ak_session_profile(const char *name)
{
    snprintf(profile, sizeof profile, "%s", name ? name : "");
}

static int session_path(char *out, size_t cap, bool make_dir)
{
    char file[64];
    snprintf(file, sizeof file, "session%s%s", profile[0] ? "." : "", profile);
    return ak_xdg_path("XDG_STATE_HOME", ".local/state", file, out, cap, make_dir);
}

/* An older akc kept the (default) session with the configuration. */
static void move_old_session(void)
{
    char old[600], path[600];
    if (profile[0] || ak_xdg_path("XDG_CONFIG_HOME", ".config", "session", old, sizeof old, false) != 0 ||
        access(old, F_OK) != 0 || session_path(path, sizeof path, true) != 0 || access(path, F_OK) == 0)
        return;
    if (rename(old, path) != 0)
        fprintf(stderr, "akc: warning: could not move the session from %s to %s\n", old, path);
}

static void chomp(char *s) { s[strcspn(s, "\r\n")] = '\0'; }

bool ak_session_load(struct ak_session *s)
{
    char path[600];
    memset(s, 0, sizeof *s);
    move_old_session();
    if (session_path(path, sizeof path, false) != 0)
        return false;
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool ok = fgets(s->server, sizeof s->server, f) && fgets(s->user, sizeof s->user, f) &&
              fgets(s->token, sizeof s->token, f);
    fclose(f);
    chomp(s->server);
    chomp(s->user);
    chomp(s->token);
    return ok;
}

int ak_session_save(const struct ak_session *s)
{
    char path[600];
    if (session_path(path, sizeof path, true) != 0)
        return -1;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return -1;
    fchmod(fd, 0600);
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        return -1;
    }
    fprintf(f, "%s\n%s\n%s\n", s->server, s->user, s->token);
    return fclose(f) == 0 ? 0 : -1;
}

int ak_session_clear(void)
{
    char path[600];
    if (session_path(path, sizeof path, false) != 0)
        return -1;
    return unlink(path) == 0 || errno == ENOENT ? 0 : -1;
}
