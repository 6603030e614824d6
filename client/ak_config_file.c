/* ak_config_file: akc's configuration, $XDG_CONFIG_HOME/akc/config (or
 * ~/.config/akc/config).
 *
 *     # the server and how to show things, for every command
 *     server = play.example.org
 *     color = auto            # always, never or auto (a terminal)
 *     tls = auto              # on, off or auto (TLS unless loopback)
 *     ca = /etc/ssl/club.pem
 *     time = 3d               # akc new defaults: time per action or turn,
 *     per = action            # action or turn,
 *     on_expiry = wait        # lose or wait,
 *     rated = yes             # yes or no
 *
 *     [profile club]          # akc --profile club: these override the above
 *     server = club.example.org:7140
 *
 * Lines before any [profile] apply to all; a profile's lines apply when it
 * is chosen. The file is checked whole, every line, whatever the profile:
 * an unknown key, a bad value or a malformed line stops akc with the file
 * and line named (a typo never silently changes where a password goes).
 * Command-line options and AKC_SERVER override the file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ak_client.h"

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *end = s + strlen(s);
    while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
        *--end = '\0';
    return s;
}

bool ak_profile_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 32)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
              (name[i] >= '0' && name[i] <= '9') || name[i] == '-' || name[i] == '_'))
            return false;
    return true;
}

/* One key = value into c; NULL or why not. */
static const char *set_key(struct ak_client_config *c, const char *key, const char *value)
{
    if (strlen(value) >= sizeof c->server)
        return "the value is too long";
    if (strcmp(key, "server") == 0) {
        char host[256], port[16];
        if (ak_net_split(value, host, sizeof host, port, sizeof port) != 0)
            return "server is HOST, HOST:PORT or [IPv6]:PORT (ports 1 to 65535)";
        snprintf(c->server, sizeof c->server, "%s", value);
    } else if (strcmp(key, "ca") == 0) {
        snprintf(c->ca, sizeof c->ca, "%s", value);
    } else if (strcmp(key, "color") == 0 || strcmp(key, "colour") == 0) {
        if (strcmp(value, "always") && strcmp(value, "never") && strcmp(value, "auto"))
            return "color is always, never or auto";
        c->color = value[0] == 'a' && value[1] == 'l' ? 1 : value[0] == 'n' ? 0 : -1;
    } else if (strcmp(key, "tls") == 0) {
        if (strcmp(value, "on") && strcmp(value, "off") && strcmp(value, "auto"))
            return "tls is on, off or auto";
        c->tls = strcmp(value, "on") == 0 ? AK_TLS_ON : strcmp(value, "off") == 0 ? AK_TLS_OFF : AK_TLS_AUTO;
    } else if (strcmp(key, "time") == 0) {
        char *end;
        long v = strtol(value, &end, 10);
        long unit = !*end ? 1 : !strcmp(end, "s") ? 1 : !strcmp(end, "m") ? 60 : !strcmp(end, "h") ? 3600
                  : !strcmp(end, "d") ? 86400 : -1;
        if (unit < 0 || v <= 0 || v > 90L * 86400 / unit)
            return "time is a duration: 90s, 30m, 12h, 3d (at most 90 days)";
        c->time = v * unit;
    } else if (strcmp(key, "per") == 0) {
        if (strcmp(value, "action") && strcmp(value, "turn"))
            return "per is action or turn";
        snprintf(c->per, sizeof c->per, "%s", value[0] == 'a' ? "action" : "turn");
    } else if (strcmp(key, "on_expiry") == 0) {
        if (strcmp(value, "lose") && strcmp(value, "wait"))
            return "on_expiry is lose or wait";
        snprintf(c->on_expiry, sizeof c->on_expiry, "%s", value[0] == 'l' ? "lose" : "wait");
    } else if (strcmp(key, "rated") == 0) {
        if (strcmp(value, "yes") && strcmp(value, "no"))
            return "rated is yes or no";
        c->rated = value[0] == 'y';
    } else {
        return "unknown key (server, color, tls, ca, time, per, on_expiry, rated)";
    }
    return NULL;
}

int ak_client_config_load(const char *profile, struct ak_client_config *c, char *err, size_t errlen)
{
    char path[600], line[1024];
    memset(c, 0, sizeof *c);
    c->color = -1;
    c->tls = AK_TLS_AUTO;
    if (ak_xdg_path("XDG_CONFIG_HOME", ".config", "config", path, sizeof path, false) != 0)
        return 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT ? 0 : (snprintf(err, errlen, "%s: %s", path, strerror(errno)), -1);
    /* Lines before any section go into top; each section starts from top
     * (all of whose lines come first) and only the chosen one is kept. */
    static struct ak_client_config top, section, chosen;
    top = *c;
    struct ak_client_config *into = &top;
    bool found = false;
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        n++;
        if (!strchr(line, '\n') && !feof(f)) {
            snprintf(err, errlen, "%s:%d: the line is too long", path, n);
            fclose(f);
            return -1;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *t = trim(line);
        if (!*t)
            continue;
        if (*t == '[') {
            char name[64];
            if (sscanf(t, "[profile %63[^]]]", name) != 1 || !ak_profile_name_ok(name)) {
                snprintf(err, errlen, "%s:%d: expected [profile NAME] (letters, digits, - and _)", path, n);
                fclose(f);
                return -1;
            }
            bool is_chosen = profile && strcmp(name, profile) == 0;
            section = chosen = top;     /* a repeated section starts over */
            into = is_chosen ? &chosen : &section;
            found = found || is_chosen;
            continue;
        }
        char *eq = strchr(t, '=');
        if (!eq) {
            snprintf(err, errlen, "%s:%d: expected KEY = VALUE", path, n);
            fclose(f);
            return -1;
        }
        *eq = '\0';
        const char *why = set_key(into, trim(t), trim(eq + 1));
        if (why) {
            snprintf(err, errlen, "%s:%d: %s: %s", path, n, trim(t), why);
            fclose(f);
            return -1;
        }
    }
    fclose(f);
    *c = found ? chosen : top;
    return 0;
}
