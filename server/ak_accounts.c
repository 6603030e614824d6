/* ak_accounts: register, login, passwd, resume and logout.
 *
 * Passwords are kept only as libsodium argon2id strings. Hashing and
 * verifying take tens of milliseconds on purpose, so they run on the libuv
 * work queue; the connection is kept alive by a reference and its later
 * requests wait, in order, until the result comes back. Session tokens are
 * 32 random bytes, given to the client in hex and stored only as their
 * BLAKE2b hash; they expire after 30 days and logout revokes them. Failed
 * logins are counted per account and per address: past login_failures in
 * login_window seconds, further logins are refused until the window ends.
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_server.h"

#define SESSION_SECONDS (30 * 24 * 3600)
#define FAILURE_SLOTS 512

enum pw_mode { PW_REGISTER, PW_LOGIN, PW_CHANGE };

struct pw_work {
    uv_work_t req;
    struct ak_conn *conn;
    json_t *id;
    enum pw_mode mode;
    char name[64];
    char password[256];
    char new_password[256];
    char hash[crypto_pwhash_STRBYTES];
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

static bool too_many_failures(const struct ak_config *cfg, const char *key)
{
    int i = failure_slot(key, false);
    if (i < 0)
        return false;
    if (ak_now() - failures[i].since >= cfg->login_window) {
        failures[i].key[0] = '\0';
        return false;
    }
    return failures[i].count >= cfg->login_failures;
}

static void count_failure(const char *key)
{
    int i = failure_slot(key, true);
    failures[i].count++;
}

static void forget_failures(const char *key)
{
    int i = failure_slot(key, false);
    if (i >= 0)
        failures[i].key[0] = '\0';
}

static bool valid_name(const char *name)
{
    size_t n = strlen(name);
    if (n < 2 || n > 32)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(name[i] == '_' || name[i] == '-' || (name[i] >= '0' && name[i] <= '9') ||
              (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z')))
            return false;
    return true;
}

static bool valid_password(const char *password)
{
    return password && strlen(password) >= 4 && strlen(password) < 256;
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

/* The connection acts for user from now on, under the session token_hash. */
static void sign_in(struct ak_conn *c, int64_t user, const char *name, const char *token_hash)
{
    c->user = user;
    snprintf(c->user_name, sizeof c->user_name, "%s", name);
    memcpy(c->token_hash, token_hash, sizeof c->token_hash);
    ak_conn_authenticated(c);
}

static void start_session(struct ak_conn *c, const json_t *id, int64_t user, const char *name)
{
    unsigned char raw[32];
    char token[65], hashed[65];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(token, sizeof token, raw, sizeof raw);
    hash_token(token, hashed);
    if (ak_store_session_create(c->srv->store, hashed, user, ak_now() + SESSION_SECONDS) != AK_STORE_OK) {
        ak_conn_reply_error(c, id, "internal", "could not store the session");
        return;
    }
    sign_in(c, user, name, hashed);
    ak_log(AK_LOG_INFO, "%s logged in from %s", name, c->peer);
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

static void finish_login(struct ak_conn *c, struct pw_work *w)
{
    char key[96];
    snprintf(key, sizeof key, "user:%s", w->name);
    if (!w->ok) {
        count_failure(key);
        snprintf(key, sizeof key, "addr:%s", c->peer);
        count_failure(key);
        ak_log(AK_LOG_WARN, "failed login for %s from %s", w->name, c->peer);
        ak_conn_reply_error(c, w->id, "auth_failed", "wrong user name or password");
        return;
    }
    forget_failures(key);
    start_session(c, w->id, w->user, w->name);
}

static void finish_change(struct ak_conn *c, struct pw_work *w)
{
    if (!w->ok)
        ak_conn_reply_error(c, w->id, "auth_failed", "the current password is wrong");
    else if (ak_store_user_set_password(c->srv->store, w->user, w->hash) != AK_STORE_OK)
        ak_conn_reply_error(c, w->id, "internal", "could not store the new password");
    else
        ak_conn_reply_ok(c, w->id, json_pack("{s:s}", "user", w->name));
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

static bool login_allowed(struct ak_conn *c, const json_t *id, const char *name)
{
    char user_key[96], addr_key[96];
    snprintf(user_key, sizeof user_key, "user:%s", name);
    snprintf(addr_key, sizeof addr_key, "addr:%s", c->peer);
    if (!too_many_failures(&c->srv->cfg, user_key) && !too_many_failures(&c->srv->cfg, addr_key))
        return true;
    ak_conn_reply_error(c, id, "rate_limited",
                        "too many failed logins; wait up to %d seconds and try again",
                        c->srv->cfg.login_window);
    return false;
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
        ak_conn_reply_error(c, id, "bad_request", "user names are 2 to 32 letters, digits, '-' or '_'");
        return;
    }
    if (!valid_password(password)) {
        ak_conn_reply_error(c, id, "bad_request", "passwords are 4 to 255 characters");
        return;
    }
    if (mode == PW_LOGIN && !login_allowed(c, id, name))
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
    if (!valid_password(old) || !valid_password(new)) {
        ak_conn_reply_error(c, id, "bad_request",
                            "\"password\" (the current one) and \"new_password\" are 4 to 255 characters");
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
    int64_t user;
    if (!token) {
        ak_conn_reply_error(c, id, "bad_request", "\"token\" must be a string");
        return;
    }
    hash_token(token, hashed);
    if (ak_store_session_find(c->srv->store, hashed, ak_now(), &user) != AK_STORE_OK ||
        ak_store_user_name(c->srv->store, user, name, sizeof name) != AK_STORE_OK) {
        ak_conn_reply_error(c, id, "auth_failed", "the session is unknown or expired; log in again");
        return;
    }
    sign_in(c, user, name, hashed);
    ak_conn_reply_ok(c, id, json_pack("{s:s}", "user", name));
}

void ak_cmd_logout(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    (void)msg;
    ak_store_session_delete(c->srv->store, c->token_hash);
    c->user = 0;
    c->user_name[0] = '\0';
    ak_conn_reply_ok(c, id, NULL);
}
