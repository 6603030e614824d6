/* ak_accounts: register, login, resume and logout.
 *
 * Passwords are kept only as libsodium argon2id strings. Hashing and
 * verifying take tens of milliseconds on purpose, so they run on the libuv
 * work queue; the connection is kept alive by a reference until the result
 * comes back. Session tokens are 32 random bytes, given to the client in hex
 * and stored only as their BLAKE2b hash.
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_server.h"

#define SESSION_SECONDS (30 * 24 * 3600)

struct pw_work {
    uv_work_t req;
    struct ak_conn *conn;
    json_t *id;
    bool is_register;
    char name[64];
    char password[256];
    char hash[crypto_pwhash_STRBYTES];
    int64_t user;
    bool ok;
};

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

static void hash_token(const char *token, char out[65])
{
    unsigned char h[32];
    crypto_generichash(h, sizeof h, (const unsigned char *)token, strlen(token), NULL, 0);
    sodium_bin2hex(out, 65, h, sizeof h);
}

static void pw_work(uv_work_t *req)
{
    struct pw_work *w = req->data;
    if (w->is_register)
        w->ok = crypto_pwhash_str(w->hash, w->password, strlen(w->password),
                                  crypto_pwhash_OPSLIMIT_INTERACTIVE,
                                  crypto_pwhash_MEMLIMIT_INTERACTIVE) == 0;
    else
        w->ok = crypto_pwhash_str_verify(w->hash, w->password, strlen(w->password)) == 0;
    sodium_memzero(w->password, sizeof w->password);
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
    c->user = user;
    snprintf(c->user_name, sizeof c->user_name, "%s", name);
    memcpy(c->token_hash, hashed, sizeof c->token_hash);
    ak_log(AK_LOG_INFO, "%s logged in from %s", name, c->peer);
    ak_conn_reply_ok(c, id, json_pack("{s:s,s:s}", "user", name, "token", token));
}

static void pw_done(uv_work_t *req, int status)
{
    struct pw_work *w = req->data;
    struct ak_conn *c = w->conn;
    if (!c->closing && status == 0) {
        if (!w->ok) {
            ak_conn_reply_error(c, w->id, w->is_register ? "internal" : "auth_failed",
                                w->is_register ? "could not hash the password"
                                               : "wrong user name or password");
        } else if (w->is_register) {
            int64_t user;
            int rc = ak_store_user_create(c->srv->store, w->name, w->hash, ak_now(), &user);
            if (rc == AK_STORE_EXISTS)
                ak_conn_reply_error(c, w->id, "user_exists", "the name '%s' is taken", w->name);
            else if (rc != AK_STORE_OK)
                ak_conn_reply_error(c, w->id, "internal", "could not store the account");
            else
                start_session(c, w->id, user, w->name);
        } else {
            start_session(c, w->id, w->user, w->name);
        }
    }
    json_decref(w->id);
    if (!c->closing)
        ak_conn_resume(c);
    ak_conn_unref(c);
    free(w);
}

static void password_command(struct ak_conn *c, const json_t *id, const json_t *msg, bool reg)
{
    const char *name = json_string_value(json_object_get(msg, "user"));
    const char *password = json_string_value(json_object_get(msg, "password"));
    if (!name || !password)
        {
        ak_conn_reply_error(c, id, "bad_request", "\"user\" and \"password\" must be strings");
        return;
    }
    if (!valid_name(name))
        {
        ak_conn_reply_error(c, id, "bad_request",
                                   "user names are 2 to 32 letters, digits, '-' or '_'");
        return;
    }
    if (strlen(password) < 4 || strlen(password) >= sizeof ((struct pw_work *)0)->password)
        {
        ak_conn_reply_error(c, id, "bad_request", "passwords are 4 to 255 characters");
        return;
    }
    struct pw_work *w = calloc(1, sizeof *w);
    if (!w)
        {
        ak_conn_reply_error(c, id, "internal", "out of memory");
        return;
    }
    w->is_register = reg;
    snprintf(w->name, sizeof w->name, "%s", name);
    snprintf(w->password, sizeof w->password, "%s", password);
    if (!reg) {
        int rc = ak_store_user_find(c->srv->store, name, &w->user, w->hash, sizeof w->hash);
        if (rc != AK_STORE_OK) {
            free(w);
            {
        ak_conn_reply_error(c, id, "auth_failed", "wrong user name or password");
        return;
    }
        }
        ak_store_user_name(c->srv->store, w->user, w->name, sizeof w->name);
    }
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

void ak_cmd_register(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    password_command(c, id, msg, true);
}

void ak_cmd_login(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    password_command(c, id, msg, false);
}

void ak_cmd_resume(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    const char *token = json_string_value(json_object_get(msg, "token"));
    char hashed[65], name[64];
    int64_t user;
    if (!token)
        {
        ak_conn_reply_error(c, id, "bad_request", "\"token\" must be a string");
        return;
    }
    hash_token(token, hashed);
    if (ak_store_session_find(c->srv->store, hashed, ak_now(), &user) != AK_STORE_OK ||
        ak_store_user_name(c->srv->store, user, name, sizeof name) != AK_STORE_OK)
        {
        ak_conn_reply_error(c, id, "auth_failed", "the session is unknown or expired; log in again");
        return;
    }
    c->user = user;
    snprintf(c->user_name, sizeof c->user_name, "%s", name);
    memcpy(c->token_hash, hashed, sizeof c->token_hash);
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
