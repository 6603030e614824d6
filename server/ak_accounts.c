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
 * A new session (login, registration, reset) is stored through the group
 * commit (session_job: the account too, for a registration), not with a
 * sync of its own on the loop; the connection is signed in and answered
 * once it is stored; so are a logout, a new password and a reset
 * (change_jobs): nothing here writes on the loop.
 *
 * A forgotten password: an admin issues a one-time reset token
 * (ak_account_reset_token, akc admin reset-password) and hands it to the
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
#include <strings.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ak_server.h"

#define SESSION_SECONDS (30 * 24 * 3600)
#define FAILURE_SLOTS 512
#define RESET_SECONDS (48 * 3600)

enum pw_mode { PW_REGISTER, PW_LOGIN, PW_CHANGE, PW_RESET, PW_CONFIRM };

struct pw_work {
    uv_work_t req;
    struct pw_work *next;       /* in the hash queue */
    struct ak_conn *conn;
    json_t *id;
    enum pw_mode mode;
    char name[64];
    char password[1024];
    char new_password[1024];
    char hash[crypto_pwhash_STRBYTES];
    char reset_hash[65];        /* PW_RESET: the hash of the token used */
    int64_t wait;               /* ms before the hash runs (login_allowed) */
    uv_timer_t delay;
    int64_t user;
    bool ok;
    void (*confirmed)(struct ak_conn *c, const json_t *id);   /* PW_CONFIRM: the password was right */
};

/* The keys of ak_throttle.c for a guess at name from c: "p:name|addr"
 * (this name from this address), "a:addr" (any name from this address),
 * "n:name" (this name from anywhere); the name in lower case (VICTIM and
 * victim are one account: the store's names are COLLATE NOCASE), the
 * address as counted (an IPv6 /64 as one). */
struct guess_keys {
    char pair[160], addr[80], name[80], slot[80];
};

static void guess_keys(const struct ak_conn *c, const char *name, struct guess_keys *k)
{
    char lower[64], addr[64];
    size_t n = 0;
    for (const char *p = name; *p && n + 1 < sizeof lower; p++)
        lower[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    lower[n] = '\0';
    ak_throttle_address(c->peer, addr, sizeof addr);
    snprintf(k->pair, sizeof k->pair, "p:%s|%s", lower, addr);
    snprintf(k->addr, sizeof k->addr, "a:%s", addr);
    snprintf(k->name, sizeof k->name, "n:%s", lower);
    snprintf(k->slot, sizeof k->slot, "s:%s", lower);
}

/* A good password takes its guess back: the pair's count is forgotten,
 * the address and the name get this one back. */
static void good_guess(const struct ak_conn *c, const char *name)
{
    struct guess_keys k;
    int64_t now = ak_now();
    guess_keys(c, name, &k);
    ak_throttle_forget(k.pair, now);
    ak_throttle_refund(k.addr, now);
    ak_throttle_refund(k.name, now);
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

/* The hash queue (issue 28). An argon2id hash holds 64 MiB and a core for
 * tens of milliseconds: libuv's four worker threads hashing at once for a
 * flood of logins or registrations took 260 MiB and both cores of a
 * 2-core machine, and the players' actions waited (p99 66 ms). So hashes
 * run one at a time per core but one (the loop and the writer keep it),
 * at most HASHES_MAX, the rest wait in line (one per connection at most:
 * a connection's later requests wait for its hash), and the worker that
 * hashes runs at a lower priority. A connection that closed while in line
 * is dropped without hashing. */
#define HASHES_MAX 4
#define HASH_NICE 10

static struct pw_work *hash_head, **hash_tail = &hash_head;
static int hashing;

static int hashes_at_once(void)
{
    int cores = (int)uv_available_parallelism() - 1;
    return cores < 1 ? 1 : cores > HASHES_MAX ? HASHES_MAX : cores;
}

static void pw_work(uv_work_t *req)
{
    static _Thread_local bool niced;
    struct pw_work *w = req->data;
    char spent[crypto_pwhash_STRBYTES];
    if (!niced) {       /* this worker, not the process: the loop keeps its priority */
        setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), HASH_NICE);
        niced = true;
    }
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

/* May user sign in on c: not banned, and under max_per_user connections
 * (false after an error reply). */
static bool may_sign_in(struct ak_conn *c, const json_t *id, int64_t user, const char *name)
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
    return true;
}

/* The connection acts for user from now on, under the session token_hash
 * valid until expires. */
/* What a client learns on signing in: the name, the session's token
 * (when a new one was made) and whether the account is an admin, so that
 * the page offers the admin screens (akd checks the role on every admin
 * request all the same). */
static json_t *signed_in_json(struct ak_conn *c, const char *name, const char *token)
{
    bool admin = false;
    if (ak_store_is_admin(c->srv->store, c->user, &admin, NULL, 0) != AK_STORE_OK)
        admin = false;
    return json_pack("{s:s,s:s*,s:b}", "user", name, "token", token, "admin", admin);
}

static void sign_in(struct ak_conn *c, int64_t user, const char *name, const char *token_hash, int64_t expires)
{
    c->user = user;
    snprintf(c->user_name, sizeof c->user_name, "%s", name);
    memcpy(c->token_hash, token_hash, sizeof c->token_hash);
    c->session_expires = expires;
    ak_conn_authenticated(c);
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

/* A session (and for a registration the account first) stored in the
 * next group commit, not with a sync of its own on the loop; the
 * connection is signed in and answered once it is stored. The writer
 * finds a name taken meanwhile (two registrations at once). */
struct session_start {
    int64_t user;           /* 0: a registration (the writer makes the account) */
    char name[64];
    char pw_hash[crypto_pwhash_STRBYTES];
    char token[65], hashed[65];
    int64_t expires, when;
    bool registration;      /* counted apart from logins (/metrics) */
    bool taken;             /* the writer's finding: the name is taken */
};

static int session_write(struct ak_store *st, const struct ak_commit *k)
{
    struct session_start *ss = k->data;
    if (!ss->user) {
        int rc = ak_store_user_create(st, ss->name, ss->pw_hash, ss->when, &ss->user);
        ss->taken = rc == AK_STORE_EXISTS;
        if (rc != AK_STORE_OK)
            return ss->taken ? AK_STORE_OK : rc;
    }
    return ak_store_session_create(st, ss->hashed, ss->user, ss->expires);
}

static void session_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct session_start *ss = k->data;
    struct ak_conn *c = k->conn;
    (void)srv;
    if (!c || c->closing)
        return;     /* the session stays stored, unused, until it expires */
    if (ss->taken) {
        ak_conn_reply_error(c, k->id, "user_exists", "the name '%s' is taken", ss->name);
        return;
    }
    sign_in(c, ss->user, ss->name, ss->hashed, ss->expires);
    ak_stats_signed_in(ss->registration);
    ak_log_with(AK_LOG_INFO, AK_LOG_CONN(c, 0), "%s logged in from %s", ss->name, c->peer);
    ak_conn_reply_ok(c, k->id, signed_in_json(c, ss->name, ss->token));
}

static void session_release(void *data)
{
    sodium_memzero(data, sizeof(struct session_start));     /* the token */
    free(data);
}

static const struct ak_job session_job = {session_write, session_answer, NULL, session_release, NULL};

/* user 0: register name with pw_hash first. */
static void start_session(struct ak_conn *c, const json_t *id, int64_t user, const char *name, const char *pw_hash)
{
    if (user && !may_sign_in(c, id, user, name))
        return;
    struct session_start *ss = calloc(1, sizeof *ss);
    if (!ss) {
        ak_conn_reply_error(c, id, "internal", "out of memory");
        return;
    }
    ss->user = user;
    ss->registration = !user;
    snprintf(ss->name, sizeof ss->name, "%s", name);
    if (pw_hash)
        snprintf(ss->pw_hash, sizeof ss->pw_hash, "%s", pw_hash);
    ss->expires = new_token(ss->token, ss->hashed);
    ss->when = ak_now();
    ak_batch_job(c->srv, c, id, &session_job, NULL, ss);
}

static void finish_register(struct ak_conn *c, struct pw_work *w)
{
    start_session(c, w->id, 0, w->name, w->hash);
}

/* The guess was counted when it was made (password_command). */
static void finish_login(struct ak_conn *c, struct pw_work *w)
{
    if (!w->ok) {
        /* one wrong password is routine (info); the throttle's lines are the warnings */
        ak_log_with(AK_LOG_INFO, &(struct ak_log_ctx){c->id, w->name, 0, NULL}, "failed login for %s from %s", w->name,
                    c->peer);
        ak_conn_reply_error(c, w->id, "auth_failed", "wrong user name or password");
        return;
    }
    good_guess(c, w->name);
    start_session(c, w->id, w->user, w->name, NULL);
}

/* A logout, a new password and a reset are stored through the group
 * commit too (issue 28): the connection is held, and changed and answered
 * only once the change is stored; other connections of the account end
 * then. */
enum change_kind { CHANGE_LOGOUT, CHANGE_PASSWORD, CHANGE_RESET };

struct account_change {
    enum change_kind kind;
    int64_t user;
    char name[64];
    char pw_hash[crypto_pwhash_STRBYTES];
    char reset_hash[65];        /* CHANGE_RESET: the token used */
    char revoked[65];           /* CHANGE_LOGOUT: the session's token hash */
    char token[65], hashed[65]; /* the new session (password, reset) */
    int64_t expires;
    bool not_found;             /* the writer's finding: the reset token was used meanwhile */
};

static int change_write(struct ak_store *st, const struct ak_commit *k)
{
    struct account_change *ch = k->data;
    int rc;
    if (ch->kind == CHANGE_LOGOUT)
        return ak_store_session_delete(st, ch->revoked);
    if (ch->kind == CHANGE_PASSWORD)
        rc = ak_store_user_set_password_rows(st, ch->user, ch->pw_hash, NULL);
    else if ((rc = ak_store_reset_finish_rows(st, ch->user, ch->reset_hash, ch->pw_hash)) == AK_STORE_NOT_FOUND)
        return ch->not_found = true, AK_STORE_OK;       /* nothing changed */
    return rc == AK_STORE_OK ? ak_store_session_create(st, ch->hashed, ch->user, ch->expires) : rc;
}

static void logout_answer(struct ak_conn *c, const json_t *id, const struct account_change *ch)
{
    if (!c->closing && strcmp(c->token_hash, ch->revoked) == 0) {
        c->user = 0;
        c->user_name[0] = c->token_hash[0] = '\0';
        ak_conn_signed_out(c);
    }
    if (!c->closing)
        ak_conn_reply_ok(c, id, NULL);
    /* Other connections that used the same token end with it. */
    ak_conn_end_sessions(c->srv, 0, ch->revoked, NULL, "the session was logged out");
}

/* A new password is often the answer to a stolen one (or a stolen
 * token): every session of the account ends, this connection's too, and
 * this connection goes on under a new token, returned. */
static void password_answer(struct ak_conn *c, const json_t *id, const struct account_change *ch)
{
    if (!c->closing) {
        memcpy(c->token_hash, ch->hashed, sizeof c->token_hash);
        c->session_expires = ch->expires;
        ak_conn_reply_ok(c, id, json_pack("{s:s,s:s,s:b}", "user", ch->name, "token", ch->token,
                                          "other_sessions_ended", 1));
    }
    ak_conn_end_sessions(c->srv, ch->user, NULL, ch->hashed, "the account's password was changed");
}

static void reset_answer(struct ak_conn *c, const json_t *id, const struct account_change *ch)
{
    if (ch->not_found) {
        ak_conn_reply_error(c, id, "auth_failed", "the reset token is wrong, used or expired; ask an admin for another");
        return;
    }
    good_guess(c, ch->name);
    /* This connection may have resumed the old session (akc does): it
     * goes on under the new one rather than being ended with the rest. */
    c->user = 0;
    c->user_name[0] = c->token_hash[0] = '\0';
    ak_conn_end_sessions(c->srv, ch->user, NULL, NULL, "the account's password was reset");
    ak_log_with(AK_LOG_WARN, AK_LOG_CONN(c, 0), "%s's password was reset with a reset token from %s", ch->name, c->peer);
    sign_in(c, ch->user, ch->name, ch->hashed, ch->expires);
    ak_conn_reply_ok(c, id, signed_in_json(c, ch->name, ch->token));
}

static void change_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct account_change *ch = k->data;
    if (!k->conn)
        return;
    if (ch->kind == CHANGE_LOGOUT)
        logout_answer(k->conn, k->id, ch);
    else if (ch->kind == CHANGE_PASSWORD)
        password_answer(k->conn, k->id, ch);
    else if (!k->conn->closing)
        reset_answer(k->conn, k->id, ch);
    else if (!ch->not_found)    /* stored though its sender left: the old sessions end all the same */
        ak_conn_end_sessions(srv, ch->user, NULL, NULL, "the account's password was reset");
}

static void change_release(void *data)
{
    sodium_memzero(data, sizeof(struct account_change));     /* the token */
    free(data);
}

static const struct ak_job change_jobs[] = {
    [CHANGE_LOGOUT] = {change_write, change_answer, NULL, change_release, "the session is still valid"},
    [CHANGE_PASSWORD] = {change_write, change_answer, NULL, change_release, "the old password still holds"},
    [CHANGE_RESET] = {change_write, change_answer, NULL, change_release, "the reset token still holds"},
};

/* A change of user's account (name) into the next group commit, with a
 * new session when it makes one (password, reset). */
static void change_account(struct ak_conn *c, const json_t *id, enum change_kind kind, int64_t user,
                           const char *name, const char *pw_hash, const char *reset_hash)
{
    struct account_change *ch = calloc(1, sizeof *ch);
    if (!ch) {
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing changed");
        return;
    }
    ch->kind = kind;
    ch->user = user;
    snprintf(ch->name, sizeof ch->name, "%s", name);
    if (pw_hash)
        snprintf(ch->pw_hash, sizeof ch->pw_hash, "%s", pw_hash);
    if (reset_hash)
        snprintf(ch->reset_hash, sizeof ch->reset_hash, "%s", reset_hash);
    if (kind == CHANGE_LOGOUT)
        memcpy(ch->revoked, c->token_hash, sizeof ch->revoked);
    else
        ch->expires = new_token(ch->token, ch->hashed);
    ak_batch_job(c->srv, c, id, &change_jobs[kind], NULL, ch);
}

static void finish_change(struct ak_conn *c, struct pw_work *w)
{
    if (!w->ok) {
        ak_conn_reply_error(c, w->id, "auth_failed", "the current password is wrong");
        return;
    }
    good_guess(c, w->name);
    change_account(c, w->id, CHANGE_PASSWORD, w->user, w->name, w->hash, NULL);
}

static void finish_confirm(struct ak_conn *c, struct pw_work *w)
{
    if (!w->ok) {
        ak_conn_reply_error(c, w->id, "auth_failed", "the password is wrong; nothing was done");
        return;
    }
    good_guess(c, w->name);
    w->confirmed(c, w->id);
}

static void finish_reset(struct ak_conn *c, struct pw_work *w)
{
    if (!w->ok) {
        ak_conn_reply_error(c, w->id, "internal", "could not hash the password");
        return;
    }
    change_account(c, w->id, CHANGE_RESET, w->user, w->name, w->hash, w->reset_hash);
}

static void pump_hashes(uv_loop_t *loop);

static void pw_done(uv_work_t *req, int status)
{
    struct pw_work *w = req->data;
    struct ak_conn *c = w->conn;
    hashing--;
    pump_hashes(c->srv->loop);
    /* The hash's hold ends here; a session on its way to the store holds
     * the connection again until it is answered (replies in order). */
    c->busy = false;
    if (!c->closing && status == 0) {
        if (w->mode == PW_REGISTER && !w->ok)
            ak_conn_reply_error(c, w->id, "internal", "could not hash the password");
        else if (w->mode == PW_REGISTER)
            finish_register(c, w);
        else if (w->mode == PW_LOGIN)
            finish_login(c, w);
        else if (w->mode == PW_RESET)
            finish_reset(c, w);
        else if (w->mode == PW_CONFIRM)
            finish_confirm(c, w);
        else
            finish_change(c, w);
    }
    json_decref(w->id);
    if (!c->closing && !c->busy)
        ak_conn_resume(c);
    ak_conn_unref(c);
    free(w);
}

static void drop_password_work(struct pw_work *w, const char *why)
{
    struct ak_conn *c = w->conn;
    if (!c->closing) {
        ak_conn_reply_error(c, w->id, "internal", "%s", why);
        c->busy = false;
        ak_conn_resume(c);
    }
    sodium_memzero(w->password, sizeof w->password);
    sodium_memzero(w->new_password, sizeof w->new_password);
    json_decref(w->id);
    ak_conn_unref(c);
    free(w);
}

/* The next hashes in line, as many as may run. */
static void pump_hashes(uv_loop_t *loop)
{
    while (hash_head && hashing < hashes_at_once()) {
        struct pw_work *w = hash_head;
        hash_head = w->next;
        if (!hash_head)
            hash_tail = &hash_head;
        if (w->conn->closing) {
            drop_password_work(w, "closed");
            continue;
        }
        hashing++;
        if (uv_queue_work(loop, &w->req, pw_work, pw_done) != 0) {
            hashing--;
            drop_password_work(w, "could not queue the password check");
        }
    }
}

static void start_password_work(struct pw_work *w)
{
    w->next = NULL;
    *hash_tail = w;
    hash_tail = &w->next;
    pump_hashes(w->conn->srv->loop);
}

/* At shutdown: the hashes still in line are dropped (their connections
 * are closing). */
void ak_accounts_stop(struct ak_server *srv)
{
    (void)srv;
    while (hash_head) {
        struct pw_work *w = hash_head;
        hash_head = w->next;
        drop_password_work(w, "the server is shutting down");
    }
    hash_tail = &hash_head;
}

static void delay_over(uv_handle_t *h)
{
    start_password_work(h->data);
}

static void on_delay(uv_timer_t *t)
{
    uv_close((uv_handle_t *)t, delay_over);
}

/* Run the password work for w off the loop, after delay_ms (a name being
 * guessed at from many addresses, login_allowed); later requests wait. */
static void queue_password_work(struct ak_conn *c, const json_t *id, struct pw_work *w, int64_t delay_ms)
{
    w->conn = c;
    w->id = json_deep_copy(id);
    w->req.data = w;
    c->refs++;
    ak_conn_hold(c);
    if (delay_ms <= 0) {
        start_password_work(w);
        return;
    }
    uv_timer_init(c->srv->loop, &w->delay);
    w->delay.data = w;
    uv_timer_start(&w->delay, on_delay, (uint64_t)delay_ms, 0);
}

/* How long a guess at a name under attack waits for its turn at most:
 * past it the guess is refused (the owner's own, too, while the name is
 * guessed at from over NAME_TURNS_MAX addresses at once). */
#define NAME_TURN_MS 1000
#define NAME_TURNS_MAX 30

static void throttle_started(const struct ak_conn *c, const char *what, const char *key, int window)
{
    ak_log(AK_LOG_WARN, "throttle: %s (%s) has no guesses left for %d s", what, key + 2, window);
    (void)c;
}

/* Counts the guess now, before its hash runs. Refused (-1, after an error
 * reply) when this name has had login_failures wrong guesses from this
 * address, or the address ten times that for any names (a club behind one
 * address), within login_window. A name guessed at login_failures times
 * from anywhere is not locked, which would let anyone lock its owner out:
 * its guesses from other addresses are slowed instead, one turn every
 * NAME_TURN_MS (the wait in ms is returned), and a correct password from
 * an address with no failures is never refused but in that flood. */
static int64_t login_allowed(struct ak_conn *c, const json_t *id, const char *name)
{
    const struct ak_config *cfg = &c->srv->cfg;
    int limit = cfg->login_failures, window = cfg->login_window;
    int64_t now = ak_now();
    struct guess_keys k;
    guess_keys(c, name, &k);
    int pair = ak_throttle_count(k.pair, now), addr = ak_throttle_count(k.addr, now);
    if (pair >= limit || addr >= limit * 10) {
        ak_stats_login_throttled();
        ak_conn_reply_error(c, id, "rate_limited", "too many failed logins from your address; wait %lld seconds and try again",
                            (long long)(ak_throttle_ends(pair >= limit ? k.pair : k.addr, now) - now));
        return -1;
    }
    int64_t wait = 0;
    if (ak_throttle_count(k.name, now) >= limit) {
        uv_update_time(c->srv->loop);
        wait = ak_throttle_slot(k.slot, window, now, (int64_t)uv_now(c->srv->loop), NAME_TURN_MS,
                                (int64_t)NAME_TURN_MS * NAME_TURNS_MAX);
        if (wait < 0) {
            ak_stats_login_throttled();
            ak_conn_reply_error(c, id, "rate_limited", "%s is being guessed at from many addresses; try again in a minute", name);
            return -1;
        }
    }
    if (!ak_throttle_charge(k.pair, window, now) || !ak_throttle_charge(k.addr, window, now) ||
        !ak_throttle_charge(k.name, window, now)) {
        ak_log(AK_LOG_WARN, "throttle: the table of login counts is full; refusing new guessers");
        ak_stats_login_throttled();
        ak_conn_reply_error(c, id, "rate_limited", "the server is refusing new login attempts for a while; try again later");
        return -1;
    }
    if (ak_throttle_count(k.pair, now) == limit)
        throttle_started(c, "a name from an address", k.pair, window);
    if (ak_throttle_count(k.addr, now) == limit * 10)
        throttle_started(c, "an address", k.addr, window);
    if (ak_throttle_count(k.name, now) == limit)
        ak_log(AK_LOG_WARN, "throttle: %s has had %d wrong guesses; guesses from other addresses are slowed for %d s",
               name, limit, window);
    return wait;
}

/* Registrations per address (its /64), charged before the hash and the
 * account row: refused past registrations_per_address in the hour. */
static bool register_allowed(struct ak_conn *c, const json_t *id)
{
    const struct ak_config *cfg = &c->srv->cfg;
    char addr[64], key[96];
    int64_t now = ak_now();
    ak_throttle_address(c->peer, addr, sizeof addr);
    snprintf(key, sizeof key, "r:%s", addr);
    if (cfg->registrations_per_address && ak_throttle_count(key, now) >= cfg->registrations_per_address) {
        ak_stats_login_throttled();
        ak_conn_reply_error(c, id, "rate_limited", "%d accounts were made from your address within the hour "
                            "(the limit); try again later", cfg->registrations_per_address);
        return false;
    }
    if (!ak_throttle_charge(key, 3600, now)) {
        ak_stats_login_throttled();
        ak_conn_reply_error(c, id, "rate_limited", "the server is refusing new accounts for a while; try again later");
        return false;
    }
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
    /* deleted-N is what a deleted account is called (ak_personal.c): never
     * a new one's, so that no name can stand in the way of an erasure */
    if (mode == PW_REGISTER && strncasecmp(name, "deleted-", 8) == 0) {
        ak_conn_reply_error(c, id, "bad_request", "names beginning with \"deleted-\" are kept for deleted accounts");
        return;
    }
    if (!password[0] || strlen(password) > 1023) {
        ak_conn_reply_error(c, id, "bad_request", "a password is 1 to 255 characters");
        return;
    }
    int64_t wait = mode == PW_LOGIN ? login_allowed(c, id, name) : 0;
    if (wait < 0)
        return;
    if (mode == PW_REGISTER && !register_allowed(c, id))
        return;
    struct pw_work *w = calloc(1, sizeof *w);
    if (!w) {
        ak_conn_reply_error(c, id, "internal", "out of memory");
        return;
    }
    w->mode = mode;
    w->wait = wait;
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
    queue_password_work(c, id, w, w->wait);
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
    int64_t wait = login_allowed(c, id, c->user_name);
    if (wait < 0) {
        free(w);
        return;
    }
    if (ak_store_user_find(c->srv->store, c->user_name, &found, w->hash, sizeof w->hash) != AK_STORE_OK ||
        found != c->user) {
        free(w);
        ak_conn_reply_error(c, id, "internal", "the account is gone");
        return;
    }
    queue_password_work(c, id, w, wait);
}

void ak_account_confirm(struct ak_conn *c, const json_t *id, const char *password,
                        void (*confirmed)(struct ak_conn *c, const json_t *id))
{
    if (!password || !password[0] || strlen(password) > 1023) {
        ak_conn_reply_error(c, id, "bad_request", "\"password\" (the account's) is needed");
        return;
    }
    struct pw_work *w = calloc(1, sizeof *w);
    if (!w) {
        ak_conn_reply_error(c, id, "internal", "out of memory");
        return;
    }
    w->mode = PW_CONFIRM;
    w->user = c->user;
    w->confirmed = confirmed;
    snprintf(w->name, sizeof w->name, "%s", c->user_name);
    snprintf(w->password, sizeof w->password, "%s", password);
    int64_t found, wait = login_allowed(c, id, c->user_name);     /* a guess like a login's */
    if (wait < 0) {
        sodium_memzero(w->password, sizeof w->password);
        free(w);
        return;
    }
    if (ak_store_user_find(c->srv->store, c->user_name, &found, w->hash, sizeof w->hash) != AK_STORE_OK ||
        found != c->user) {
        sodium_memzero(w->password, sizeof w->password);
        free(w);
        ak_conn_reply_error(c, id, "internal", "the account is gone");
        return;
    }
    queue_password_work(c, id, w, wait);
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
    if (!may_sign_in(c, id, user, name))
        return;
    sign_in(c, user, name, hashed, expires);
    ak_conn_reply_ok(c, id, signed_in_json(c, name, NULL));
}

void ak_cmd_logout(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    (void)msg;
    change_account(c, id, CHANGE_LOGOUT, c->user, c->user_name, NULL, NULL);
}

void ak_account_reset_token(char token[33], char hashed[65], int64_t *expires)
{
    unsigned char raw[16];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(token, 33, raw, sizeof raw);
    hash_token(token, hashed);
    *expires = ak_now() + RESET_SECONDS;
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
    int64_t wait = login_allowed(c, id, name);
    if (wait < 0)
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
    queue_password_work(c, id, w, wait);
}
