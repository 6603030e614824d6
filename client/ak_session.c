/* ak_session: the login kept between akc runs, in
 * $XDG_CONFIG_HOME/akc/session (or ~/.config/akc/session), mode 0600:
 * three lines, server, user, token. */
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

static int session_path(char *out, size_t cap, bool make_dir)
{
    return ak_xdg_path("XDG_CONFIG_HOME", ".config", "session", out, cap, make_dir);
}

static void chomp(char *s) { s[strcspn(s, "\r\n")] = '\0'; }

bool ak_session_load(struct ak_session *s)
{
    char path[600];
    memset(s, 0, sizeof *s);
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
