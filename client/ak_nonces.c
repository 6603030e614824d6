/* ak_nonces: the player's own dice nonces (issue 27).
 *
 * A keyed dice roll (proto/ak_dice.h, scheme 2) depends on the game's
 * secret, which the operator knows, and the nonce sent with the action.
 * Were the nonce whatever the server says it got, an operator could try
 * nonces until a roll suited him and record that one. So the nonce is the
 * player's: akc derives it from a key of its own ($XDG_STATE_HOME/akc/
 * nonce_key, 32 random bytes, mode 0600), the server, the game and the
 * action's number (ak_nonce_derive: a retry of the same action sends the
 * same nonce), keeps each one the server accepted in
 * $XDG_STATE_HOME/akc/nonces ("SERVER GAME SEQ NONCE" lines), and
 * `akc verify` checks every kept nonce against the game's record, naming
 * the first action whose recorded nonce is not the one akc sent (the
 * replay then proves the recorded rolls follow from the recorded nonces).
 */
#include <errno.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ak_client.h"
#include "ak_dice.h"

/* akc's nonce key: read, or made once. A new key is written whole to a
 * file of its own and linked into place, so that a crash leaves no short
 * key and two akc starting at once end up with the same one (the second
 * link fails, and it reads the first's). */
static bool read_key(const char *path, uint8_t key[32])
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    bool ok = fread(key, 1, 32, f) == 32;
    fclose(f);
    return ok;
}

static bool nonce_key(uint8_t key[32])
{
    char path[1024], tmp[1100];
    if (ak_xdg_path("XDG_STATE_HOME", ".local/state", "nonce_key", path, sizeof path, true) != 0)
        return false;
    if (read_key(path, key))
        return true;
    randombytes_buf(key, 32);
    snprintf(tmp, sizeof tmp, "%s.%u", path, (unsigned)randombytes_random());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    bool ok = write(fd, key, 32) == 32 && fsync(fd) == 0;
    ok = close(fd) == 0 && ok;
    /* a link that fails because another akc linked first is no error:
     * its key is read below */
    if (ok && link(tmp, path) != 0 && errno != EEXIST)
        ok = false;
    unlink(tmp);
    return ok && read_key(path, key);
}

bool ak_nonce_for(const char *server, long long game, uint32_t seq, char out[AK_NONCE_MAX + 1])
{
    uint8_t key[32];
    if (!nonce_key(key))
        return false;
    ak_nonce_derive(key, server, game, seq, out);
    sodium_memzero(key, sizeof key);
    return true;
}

void ak_nonce_keep(const char *server, long long game, uint32_t seq, const char *nonce)
{
    char path[1024];
    if (ak_xdg_path("XDG_STATE_HOME", ".local/state", "nonces", path, sizeof path, true) != 0)
        return;
    mode_t old = umask(077);
    FILE *f = fopen(path, "a");
    umask(old);
    if (!f)
        return;
    fprintf(f, "%s %lld %u %s\n", server, game, seq, nonce);
    fclose(f);
}

void ak_nonce_check_reply(const char *server, long long game, uint32_t seq, const char *nonce, const json_t *reply)
{
    const json_t *got = json_object_get(reply, "seq");
    if (!json_is_integer(got) || json_integer_value(got) != (json_int_t)seq)
        fprintf(stderr, "akc: warning: the server took the action as number %lld, not %u, the one its dice nonce "
                "was made for; akc verify will check the record\n", json_is_integer(got) ? (long long)json_integer_value(got) : -1LL, seq);
    /* kept under the number the nonce was made for: the record must carry
     * it there */
    ak_nonce_keep(server, game, seq, nonce);
}

/* The record's nonce of action seq, or NULL. */
static const char *recorded_nonce(const json_t *record, uint32_t seq)
{
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(record, "actions"), i, x)
        if (json_integer_value(json_object_get(x, "seq")) == (json_int_t)seq)
            return json_string_value(json_object_get(x, "nonce"));
    return NULL;
}

int ak_nonces_check(const json_t *record, const char *server, int *checked, char *why, size_t cap)
{
    char path[1024], line[512];
    long long game = (long long)json_integer_value(json_object_get(record, "game"));
    *checked = 0;
    why[0] = '\0';
    if (ak_xdg_path("XDG_STATE_HOME", ".local/state", "nonces", path, sizeof path, false) != 0)
        return 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    long first_bad = -1;
    while (fgets(line, sizeof line, f)) {
        char srv[300], nonce[AK_NONCE_MAX + 2];
        long long g;
        unsigned seq;
        if (sscanf(line, "%299s %lld %u %65s", srv, &g, &seq, nonce) != 4 || g != game || strcmp(srv, server) != 0)
            continue;
        const char *rec = recorded_nonce(record, seq);
        (*checked)++;
        if ((!rec || strcmp(rec, nonce) != 0) && (first_bad < 0 || (long)seq < first_bad)) {
            first_bad = (long)seq;
            snprintf(why, cap, "action %u: the record's nonce (%.16s...) is not the one akc sent (%.16s...): the "
                     "server did not roll the dice of the nonce it was given", seq, rec ? rec : "none", nonce);
        }
    }
    fclose(f);
    return first_bad >= 0 ? -1 : 0;
}
