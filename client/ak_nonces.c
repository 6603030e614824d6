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
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "ak_client.h"
#include "ak_dice.h"

static bool nonce_key(uint8_t key[32])
{
    char path[1024];
    if (ak_xdg_path("XDG_STATE_HOME", ".local/state", "nonce_key", path, sizeof path, true) != 0)
        return false;
    FILE *f = fopen(path, "rb");
    if (f) {
        bool ok = fread(key, 1, 32, f) == 32;
        fclose(f);
        return ok;
    }
    randombytes_buf(key, 32);
    mode_t old = umask(077);
    f = fopen(path, "wb");
    umask(old);
    if (!f)
        return false;
    bool ok = fwrite(key, 1, 32, f) == 32;
    return fclose(f) == 0 && ok;
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
    int first_bad = 0;
    while (fgets(line, sizeof line, f)) {
        char srv[300], nonce[AK_NONCE_MAX + 2];
        long long g;
        unsigned seq;
        if (sscanf(line, "%299s %lld %u %65s", srv, &g, &seq, nonce) != 4 || g != game || strcmp(srv, server) != 0)
            continue;
        const char *rec = recorded_nonce(record, seq);
        (*checked)++;
        if ((!rec || strcmp(rec, nonce) != 0) && (!first_bad || (int)seq < first_bad)) {
            first_bad = (int)seq;
            snprintf(why, cap, "action %u: the record's nonce (%.16s...) is not the one akc sent (%.16s...): the "
                     "server did not roll the dice of the nonce it was given", seq, rec ? rec : "none", nonce);
        }
    }
    fclose(f);
    return first_bad ? -1 : 0;
}
