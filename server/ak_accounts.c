/* ak_accounts: register, login, passwd, resume and logout.
 *
 * Passwords are kept only as libsodium argon2id strings. Hashing and
 * verifying take tens of milliseconds on purpose, so they run on the libuv
 * work queue; the connection is kept alive by a reference and its later
 * requests wait, in order, until the result comes back. Session tokens are
 * 32 random bytes, given to the client in hex and stored only as their
 * BLAKE2b hash; they expire after 30 days and logout revokes them (the
 * connections that used one end with it; a new password ends every other
 * session of the account). Login guesses are counted per account (its
 * name case-folded, as the store compares names) and per address when
 * they are made, before the hash runs, so parallel guesses cannot
 * outnumber the limit: past login_failures in login_window seconds,
 * further logins are refused until the window ends; a good password takes
 * its own guess back. Registrations are counted per address the same way.
 *
 * A forgotten password: an admin issues a one-time reset token
 * (ak_account_reset_issue, akc admin reset-password) and hands it to the
 * player out of band; {"cmd":"reset_password","user","token",
 * "new_password"} sets the new password with it, ends every session of the
 * account and logs the connection in. The token is kept only as its hash,
 * expires after RESET_SECONDS, is used up by its first success, and a
 * wrong one counts as a failed login (the same limits).
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_server.h"

#define SESSION_SECONDS (30 * 24 * 3600)
#define FAILURE_SLOTS 512
#define RESET_SECONDS (48 * 3600)

enum pw_mode { PW_REGISTER, PW_LOGIN, PW_CHANGE, PW_RESET };

struct pw_work {
    uv_work_t req;
    struct ak_conn *conn;
    json_t *id;
    enum pw_mode mode;
    char name[64];
    char password[1024];
    char new_password[1024];
    char hash[crypto_pwhash_STRBYTES];
    char reset_hash[65];        /* PW_RESET: the hash of the token used */
    int64_t user;
    bool ok;
};

/* Recent failed logins, by "user:NAME" and "addr:PEER". */
static struct {
    char key[96];
    int count;
    int64_t since;
} failures[FAILURE_SLOTS];

static int failure_slot(const char *key, bool create)
{
    int free_slot = -1, oldest = 0;
    for (int i = 0; i < FAILURE_SLOTS; i++) {
        if (strcmp(failures[i].key, key) == 0)
            return i;
        if (!failures[i].key[0] && free_slot < 0)
            free_slot = i;
        if (failures[i].since < failures[oldest].since)
            oldest = i;
    }
    if (!create)
        return -1;
    int i = free_slot >= 0 ? free_slot : oldest;
    snprintf(failures[i].key, sizeof failures[i].key, "%s", key);
    failures[i].count = 0;
    failures[i].since = ak_now();
    return i;
}

static bool too_many(const char *key, int limit, int window)
{
    int i = failure_slot(key, false);
    if (i < 0)
        return false;
    if (ak_now() - failures[i].since >= window) {
        failures[i].key[0] = '\0';
        return false;
    }
    return failures[i].count >= limit;
}

static void count_failure(const char *key)
{
    int i = failure_slot(key, true);
    failures[i].count++;
}

static void uncount_failure(const char *key)
{
    int i = failure_slot(key, false);
    if (i >= 0 && failures[i].count > 0)
        failures[i].count--;
}

/* "user:name" with the name in lower case: VICTIM and victim are one
 * account (the store's names are COLLATE NOCASE), so one count. */
static void user_key(char *out, size_t cap, const char *name)
{
    int n = snprintf(out, cap, "user:");
    for (const char *p = name; *p && (size_t)n + 1 < cap; p++)
        out[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    out[n] = '\0';
}

static void forget_failures(const char *key)
{
    int i = failure_slot(key, false);
    if (i >= 0)
        failures[i].key[0] = '\0';
}

/* Names are passed to the notification command as arguments: one that
 * begins with '-' could pass for an option there. */
static bool valid_name(const char *name)
{
    size_t n = strlen(name);
    if (n < 2 || n > 32 || name[0] == '-')
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(name[i] == '_' || name[i] == '-' || (name[i] >= '0' && name[i] <= '9') ||
              (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z')))
            return false;
    return true;
}

/* 8 to 255 characters (UTF-8: continuation bytes are not counted), at
 * most 1023 bytes. */
static bool valid_password(const char *password)
{
    if (!password || strlen(password) > 1023)
        return false;
    size_t chars = 0;
    for (const unsigned char *p = (const unsigned char *)password; *p; p++)
        chars += (*p & 0xc0) != 0x80;
    return chars >= AK_PASSWORD_MIN && chars <= 255;
}

static void hash_token(const char *token, char out[65])
{
    unsigned char h[32];
    crypto_generichash(h, sizeof h, (const unsigned char *)token, strlen(token), NULL, 0);
    sodium_bin2hex(out, 65, h, sizeof h);
}

static bool hash_password(const char *password, char *out)
{
    return crypto_pwhash_str(out, password, strlen(password), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                             crypto_pwhash_MEMLIMIT_INTERACTIVE) == 0;
}

static void pw_work(uv_work_t *req)
{
    struct pw_work *w = req->data;
    char spent[crypto_pwhash_STRBYTES];
    if (w->mode == PW_REGISTER)
        w->ok = hash_password(w->password, w->hash);
    else if (w->mode == PW_RESET)
        w->ok = hash_password(w->new_password, w->hash);    /* the token was checked on the loop */
    else if (w->mode == PW_LOGIN && !w->user) {
        hash_password(w->password, spent);     /* an unknown name: the same cost, then no */
        w->ok = false;
    } else
        w->ok = crypto_pwhash_str_verify(w->hash, w->password, strlen(w->password)) == 0;
    if (w->ok && w->mode == PW_CHANGE)
        w->ok = hash_password(w->new_password, w->hash);
    sodium_memzero(w->password, sizeof w->password);
    sodium_memzero(w->new_password, sizeof w->new_password);
}

/* The connection acts for user from now on, under the session token_hash
 * valid until expires; false (after an error reply) if the account already
 * has as many connections as allowed. */
static bool sign_in(struct ak_conn *c, const json_t *id, int64_t user, const char *name,
                    const char *token_hash, int64_t expires)
{
    int max = c->srv->cfg.max_per_user, n = 0;
    bool banned = false;
    if (ak_store_user_banned(c->srv->store, user, &banned) != AK_STORE_OK || banned) {
        ak_conn_reply_error(c, id, "banned", "the account %s is banned by the server's operators", name);
        return false;
    }
    for (const struct ak_conn *k = c->srv->conns; k; k = k->next)
        n += k != c && k->user == user;
    if (max && n >= max) {
        ak_conn_reply_error(c, id, "too_many_connections",
                            "%s already has %d connections (the limit); close one first", name, n);
        return false;
    }
    c->user = user;
    snprintf(c->user_name, sizeof c->user_name, "%s", name);
    memcpy(c->token_hash, token_hash, sizeof c->token_hash);
    c->session_expires = expires;
    ak_conn_authenticated(c);
    return true;
}

/* A fresh session token (hex, for the client) and its hash (stored);
 * returns when it expires. */
static int64_t new_token(char token[65], char hashed[65])
{
    unsigned char raw[32];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(token, 65, raw, sizeof raw);
    hash_token(token, hashed);
    return ak_now() + SESSION_SECONDS;
}

static void start_session(struct ak_conn *c, const json_t *id, int64_t user, const char *name)
{
    char token[65], hashed[65];
    int64_t expires = new_token(token, hashed);
    if (ak_store_session_create(c->srv->store, hashed, user, expires) != AK_STORE_OK) {
        ak_conn_reply_error(c, id, "internal", "could not store the session (%s)", ak_store_error(c->srv->store));
        ak_log(AK_LOG_ERROR, "could not store a session for %s: %s", name, ak_store_error(c->srv->store));
        return;
    }
    if (!sign_in(c, id, user, name, hashed, expires)) {
        ak_store_session_delete(c->srv->store, hashed);
        return;
    }
    ak_log_with(AK_LOG_INFO, AK_LOG_CONN(c, 0), "%s logged in from %s", name, c->peer);
    ak_conn_reply_ok(c, id, json_pack("{s:s,s:s}", "user", name, "token", token));
}

static void finish_register(struct ak_conn *c, struct pw_work *w)
{
    int64_t user;
    int rc = ak_store_user_create(c->srv->store, w->name, w->hash, ak_now(), &user);
    if (rc == AK_STORE_EXISTS)
        ak_conn_reply_error(c, w->id, "user_exists", "the name '%s' is taken", w->name);
    else if (rc != AK_STORE_OK)
        ak_conn_reply_error(c, w->id, "internal", "could not store the account");
    else
        start_session(c, w->id, user, w->name);
}

/* The guess was counted when it was made (password_command). */
static void finish_login(struct ak_conn *c, struct pw_work *w)
{
    char key[96];
    if (!w->ok) {
        ak_log(AK_LOG_WARN, "failed login for %s from %s", w->name, c->peer);
        ak_conn_reply_error(c, w->id, "auth_failed", "wrong user name or password");
        return;
    }
    user_key(key, sizeof key, w->name);
    forget_failures(key);
    snprintf(key, sizeof key, "addr:%s", c->peer);
    uncount_failure(key);
    start_session(c, w->id, w->user, w->name);
}

/* A new password is often the answer to a stolen one (or a stolen
 * token): every session of the account ends, this connection's too, and
 * this connection goes on under a new token, returned. */
static void finish_change(struct ak_conn *c, struct pw_work *w)
{
    char key[96];
    if (!w->ok) {
        ak_conn_reply_error(c, w->id, "auth_failed", "the current password is wrong");
        return;
    }
    user_key(key, sizeof key, w->name);
    forget_failures(key);
    snprintf(key, sizeof key, "addr:%s", c->peer);
    uncount_failure(key);
    char token[65], hashed[65];
    int64_t expires = new_token(token, hashed);
    if (ak_store_user_set_password(c->srv->store, w->user, w->hash, NULL) != AK_STORE_OK ||
        ak_store_session_create(c->srv->store, hashed, w->user, expires) != AK_STORE_OK) {
        ak_conn_reply_error(c, w->id, "internal", "could not store the new password (%s); log in again",
                            ak_store_error(c->srv->store));
        return;
    }
    memcpy(c->token_hash, hashed, sizeof c->token_hash);
    c->session_expires = expires;
    ak_conn_reply_ok(c, w->id, json_pack("{s:s,s:s,s:b}", "user", w->name, "token", token,
                                         "other_sessions_ended", 1));
    ak_conn_end_sessions(c->srv, w->user, NULL, c->token_hash, "the account's password was changed");
}

static void finish_reset(struct ak_conn *c, struct pw_work *w)
{
    char key[96];
    if (!w->ok) {
        ak_conn_reply_error(c, w->id, "internal", "could not hash the password");
        return;
    }
    int rc = ak_store_reset_finish(c->srv->store, w->user, w->reset_hash, w->hash);
    if (rc == AK_STORE_NOT_FOUND) {
        ak_conn_reply_error(c, w->id, "auth_failed", "the reset token is wrong, used or expired; ask an admin for another");
        return;
    }
    if (rc != AK_STORE_OK) {
        ak_conn_reply_error(c, w->id, "internal", "could not store the new password (%s); nothing changed",
                            ak_store_error(c->srv->store));
        return;
    }
    user_key(key, sizeof key, w->name);
    forget_failures(key);
    /* This connection may have resumed the old session (akc does): it
     * goes on under the new one rather than being ended with the rest. */
    c->user = 0;
    c->user_name[0] = c->token_hash[0] = '\0';
    ak_conn_end_sessions(c->srv, w->user, NULL, NULL, "the account's password was reset");
    ak_log_with(AK_LOG_WARN, AK_LOG_CONN(c, 0), "%s's password was reset with a reset token from %s", w->name, c->peer);
    start_session(c, w->id, w->user, w->name);
}

static void pw_done(uv_work_t *req, int status)
{
    struct pw_work *w = req->data;
    struct ak_conn *c = w->conn;
    if (!c->closing && status == 0) {
        if (w->mode == PW_REGISTER && !w->ok)
            ak_conn_reply_error(c, w->id, "internal", "could not hash the password");
        else if (w->mode == PW_REGISTER)
            finish_register(c, w);
        else if (w->mode == PW_LOGIN)
            finish_login(c, w);
        else if (w->mode == PW_RESET)
            finish_reset(c, w);
        else
            finish_change(c, w);
    }
    json_decref(w->id);
    if (!c->closing)
        ak_conn_resume(c);
    ak_conn_unref(c);
    free(w);
}

/* Run the password work for w off the loop; later requests wait. */
static void queue_password_work(struct ak_conn *c, const json_t *id, struct pw_work *w)
{
    w->conn = c;
    w->id = json_deep_copy(id);
    w->req.data = w;
    c->refs++;
    ak_conn_hold(c);
    if (uv_queue_work(c->srv->loop, &w->req, pw_work, pw_done) != 0) {
        c->refs--;
        json_decref(w->id);
        free(w);
        ak_conn_reply_error(c, id, "internal", "could not queue the password check");
        ak_conn_resume(c);
    }
}

/* Counts the guess now, before its hash runs; false (after an error
 * reply) if the account or the address has no guesses left. */
static bool login_allowed(struct ak_conn *c, const json_t *id, const char *name)
{
    const struct ak_config *cfg = &c->srv->cfg;
    char ukey[96], akey[96];
    user_key(ukey, sizeof ukey, name);
    snprintf(akey, sizeof akey, "addr:%s", c->peer);
    if (too_many(ukey, cfg->login_failures, cfg->login_window) ||
        too_many(akey, cfg->login_failures, cfg->login_window)) {
        ak_conn_reply_error(c, id, "rate_limited", "too many failed logins; wait up to %d seconds and try again",
                            cfg->login_window);
        return false;
    }
    count_failure(ukey);
    count_failure(akey);
    return true;
}

static bool register_allowed(struct ak_conn *c, const json_t *id)
{
    const struct ak_config *cfg = &c->srv->cfg;
    char key[96];
    snprintf(key, sizeof key, "reg:%s", c->peer);
    if (cfg->registrations_per_address && too_many(key, cfg->registrations_per_address, 3600)) {
        ak_conn_reply_error(c, id, "rate_limited", "%d accounts were made from your address within the hour "
                            "(the limit); try again later", cfg->registrations_per_address);
        return false;
    }
    count_failure(key);
    return true;
}

static void password_command(struct ak_conn *c, const json_t *id, const json_t *msg, enum pw_mode mode)
{
    const char *name = json_string_value(json_object_get(msg, "user"));
    const char *password = json_string_value(json_object_get(msg, "password"));
    if (!name || !password) {
        ak_conn_reply_error(c, id, "bad_request", "\"user\" and \"password\" must be strings");
        return;
    }
    if (!valid_name(name)) {
        ak_conn_reply_error(c, id, "bad_request",
                            "user names are 2 to 32 letters, digits, '-' or '_', not beginning with '-'");
        return;
    }
    if (!valid_password(password) && mode == PW_REGISTER) {
        ak_conn_reply_error(c, id, "bad_request", "passwords are %d to 255 characters", AK_PASSWORD_MIN);
        return;
    }
    if (!password[0] || strlen(password) > 1023) {
        ak_conn_reply_error(c, id, "bad_request", "a password is 1 to 255 characters");
        return;
    }
    if (mode == PW_LOGIN && !login_allowed(c, id, name))
        return;
    if (mode == PW_REGISTER && !register_allowed(c, id))
        return;
    struct pw_work *w = calloc(1, sizeof *w);
    if (!w) {
        ak_conn_reply_error(c, id, "internal", "out of memory");
        return;
    }
    w->mode = mode;
    snprintf(w->name, sizeof w->name, "%s", name);
    snprintf(w->password, sizeof w->password, "%s", password);
    if (mode == PW_LOGIN) {
        /* An unknown name costs a hash all the same (pw_work), so that
         * timing does not tell which names exist. */
        if (ak_store_user_find(c->srv->store, name, &w->user, w->hash, sizeof w->hash) == AK_STORE_OK)
            ak_store_user_name(c->srv->store, w->user, w->name, sizeof w->name);
        else
            w->user = 0;
    }
    queue_password_work(c, id, w);
}

void ak_cmd_register(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    password_command(c, id, msg, PW_REGISTER);
}

void ak_cmd_login(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    password_command(c, id, msg, PW_LOGIN);
}

/* {"cmd":"passwd","password":OLD,"new_password":NEW} for the logged-in user. */
void ak_cmd_passwd(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    const char *old = json_string_value(json_object_get(msg, "password"));
    const char *new = json_string_value(json_object_get(msg, "new_password"));
    if (!old || !old[0] || strlen(old) > 1023 || !valid_password(new)) {
        ak_conn_reply_error(c, id, "bad_request",
                            "\"password\" (the current one) and \"new_password\" (%d to 255 characters) are needed",
                            AK_PASSWORD_MIN);
        return;
    }
    struct pw_work *w = calloc(1, sizeof *w);
    if (!w) {
        ak_conn_reply_error(c, id, "internal", "out of memory");
        return;
    }
    w->mode = PW_CHANGE;
    w->user = c->user;
    snprintf(w->name, sizeof w->name, "%s", c->user_name);
    snprintf(w->password, sizeof w->password, "%s", old);
    snprintf(w->new_password, sizeof w->new_password, "%s", new);
    int64_t found;
    /* The current password is a guess like a login's: a stolen session
     * must not try passwords faster than a login may. */
    if (!login_allowed(c, id, c->user_name)) {
        free(w);
        return;
    }
    if (ak_store_user_find(c->srv->store, c->user_name, &found, w->hash, sizeof w->hash) != AK_STORE_OK ||
        found != c->user) {
        free(w);
        ak_conn_reply_error(c, id, "internal", "the account is gone");
        return;
    }
    queue_password_work(c, id, w);
}

void ak_cmd_resume(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    const char *token = json_string_value(json_object_get(msg, "token"));
    char hashed[65], name[64];
    int64_t user, expires;
    if (!token) {
        ak_conn_reply_error(c, id, "bad_request", "\"token\" must be a string");
        return;
    }
    hash_token(token, hashed);
    if (ak_store_session_find(c->srv->store, hashed, ak_now(), &user, &expires) != AK_STORE_OK ||
        ak_store_user_name(c->srv->store, user, name, sizeof name) != AK_STORE_OK) {
        ak_conn_reply_error(c, id, "auth_failed", "the session is unknown or expired; log in again");
        return;
    }
    if (sign_in(c, id, user, name, hashed, expires))
        ak_conn_reply_ok(c, id, json_pack("{s:s}", "user", name));
}

void ak_cmd_logout(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    (void)msg;
    char token_hash[65];
    memcpy(token_hash, c->token_hash, sizeof token_hash);
    if (ak_store_session_delete(c->srv->store, token_hash) != AK_STORE_OK) {
        ak_conn_reply_error(c, id, "internal", "the database could not revoke the session (%s); "
                            "it is still valid", ak_store_error(c->srv->store));
        return;
    }
    c->user = 0;
    c->user_name[0] = '\0';
    c->token_hash[0] = '\0';
    ak_conn_signed_out(c);
    ak_conn_reply_ok(c, id, NULL);
    /* Other connections that used the same token end with it. */
    ak_conn_end_sessions(c->srv, 0, token_hash, NULL, "the session was logged out");
}

int ak_account_reset_issue(struct ak_server *srv, int64_t user, char token[33], int64_t *expires)
{
    unsigned char raw[16];
    char hashed[65];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(token, 33, raw, sizeof raw);
    hash_token(token, hashed);
    *expires = ak_now() + RESET_SECONDS;
    return ak_store_reset_put(srv->store, user, hashed, *expires) == AK_STORE_OK ? 0 : -1;
}

/* {"cmd":"reset_password","user":NAME,"token":T,"new_password":P}: no
 * login needed (the token is the proof); the guess is counted first. */
void ak_cmd_reset_password(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    const char *name = json_string_value(json_object_get(msg, "user"));
    const char *token = json_string_value(json_object_get(msg, "token"));
    const char *new = json_string_value(json_object_get(msg, "new_password"));
    if (!name || !valid_name(name) || !token || strlen(token) > 64 || !valid_password(new)) {
        ak_conn_reply_error(c, id, "bad_request", "\"user\", \"token\" (from an admin) and \"new_password\" "
                            "(%d to 255 characters) are needed", AK_PASSWORD_MIN);
        return;
    }
    if (!login_allowed(c, id, name))
        return;
    struct pw_work *w = calloc(1, sizeof *w);
    if (!w) {
        ak_conn_reply_error(c, id, "internal", "out of memory");
        return;
    }
    char stored[65], hashed[65];
    int64_t expires;
    hash_token(token, hashed);
    if (ak_store_user_find(c->srv->store, name, &w->user, w->hash, sizeof w->hash) != AK_STORE_OK ||
        ak_store_reset_get(c->srv->store, w->user, stored, &expires) != AK_STORE_OK || expires < ak_now() ||
        sodium_memcmp(stored, hashed, 64) != 0) {
        free(w);
        ak_conn_reply_error(c, id, "auth_failed", "the reset token is wrong, used or expired; ask an admin for another");
        return;
    }
    bool banned = false;
    if (ak_store_user_banned(c->srv->store, w->user, &banned) != AK_STORE_OK || banned) {
        free(w);
        ak_conn_reply_error(c, id, "banned", "the account %s is banned by the server's operators", name);
        return;
    }
    w->mode = PW_RESET;
    memcpy(w->reset_hash, hashed, sizeof w->reset_hash);
    ak_store_user_name(c->srv->store, w->user, w->name, sizeof w->name);
    snprintf(w->new_password, sizeof w->new_password, "%s", new);
    queue_password_work(c, id, w);
}
