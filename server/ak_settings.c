/* ak_settings: a player's own settings.
 *
 *   {"cmd":"settings"}                      what they are
 *   {"cmd":"settings","chat":"on"|"off"}    chat pushes (ak_chat.c)
 *   {"cmd":"settings","notify":"each"|"digest"}
 *                                           one notification per move, or
 *                                           a daily digest (ak_notify.c)
 *   {"cmd":"settings","email":ADDRESS}      an address for notifications:
 *                                           kept unverified, and the notify
 *                                           command is run (verify_email)
 *                                           with a token to send back; ""
 *                                           removes it
 *   {"cmd":"settings","verify_email":TOKEN} the token back: verified
 *
 * Only a verified address is passed to the notification command (AK_EMAIL),
 * and an account may have a verification sent once every VERIFY_EVERY
 * seconds, so that akd mails a stranger at most that often. */
#include <sodium.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_server.h"

#define VERIFY_EVERY 600

static json_t *settings_json(const struct ak_store_prefs *p)
{
    json_t *j = json_pack("{s:s,s:s,s:s,s:b,s:b}", "chat", p->chat_muted ? "off" : "on", "notify",
                          p->notify_mode[0] ? p->notify_mode : "each", "email", p->email, "email_verified",
                          p->email_verified, "email_pending", p->email_token_hash[0] != '\0');
    json_object_set_new(j, "vacation_until", json_integer((json_int_t)(p->vacation_until > ak_now() ? p->vacation_until : 0)));
    return j;
}

static void token_hash(const char *token, char out[65])
{
    unsigned char h[32];
    crypto_generichash(h, sizeof h, (const unsigned char *)token, strlen(token), NULL, 0);
    sodium_bin2hex(out, 65, h, sizeof h);
}

/* A change of settings, checked on the loop against what was stored then,
 * applied by the writer to what is stored when it writes (another change
 * of the same account may have been committed in between: only the
 * fields asked for are set), checked there again where that matters. */
struct settings_change {
    int chat_muted;             /* -1: unchanged */
    char notify_mode[8];        /* "": unchanged */
    bool set_email;
    char email[128];
    int64_t email_sent;         /* when this one's mail goes (0: none) */
    char email_token_hash[65];
    char token[33];             /* the token mailed, kept for the answer */
    bool verify;
    char verify_hash[65];
    /* the writer's findings */
    const char *refused;        /* an error code, or NULL */
    struct ak_store_prefs after;
};

static const char *apply_change(struct settings_change *ch, struct ak_store_prefs *p)
{
    if (ch->set_email && ch->email_sent && p->email_sent && ch->email_sent - p->email_sent < VERIFY_EVERY)
        return "rate_limited";
    if (ch->verify && (!p->email_token_hash[0] || sodium_memcmp(ch->verify_hash, p->email_token_hash, 64) != 0))
        return "auth_failed";
    if (ch->chat_muted >= 0)
        p->chat_muted = ch->chat_muted;
    if (ch->notify_mode[0])
        snprintf(p->notify_mode, sizeof p->notify_mode, "%s", ch->notify_mode);
    if (ch->set_email) {
        snprintf(p->email, sizeof p->email, "%s", ch->email);
        p->email_verified = 0;
        snprintf(p->email_token_hash, sizeof p->email_token_hash, "%s", ch->email_token_hash);
        if (ch->email_sent)
            p->email_sent = ch->email_sent;
    }
    if (ch->verify) {
        p->email_verified = 1;
        p->email_token_hash[0] = '\0';
    }
    return NULL;
}

static int settings_write(struct ak_store *st, const struct ak_commit *k)
{
    struct settings_change *ch = k->data;
    struct ak_store_prefs p;
    if (ak_store_prefs_get(st, k->user, &p) != AK_STORE_OK)
        return AK_STORE_ERROR;
    ch->refused = apply_change(ch, &p);
    ch->after = p;
    return ch->refused ? AK_STORE_OK : ak_store_prefs_put(st, k->user, &p);
}

static void settings_answer(struct ak_server *srv, struct ak_commit *k)
{
    struct settings_change *ch = k->data;
    if (ch->refused && strcmp(ch->refused, "auth_failed") == 0)
        ak_conn_reply_error(k->conn, k->id, "auth_failed", "that is not the token sent to your address");
    else if (ch->refused)
        ak_conn_reply_error(k->conn, k->id, "rate_limited", "a verification was sent less than %d s ago; "
                            "ask again later", VERIFY_EVERY);
    else if (k->conn)
        ak_conn_reply_ok(k->conn, k->id, settings_json(&ch->after));
    if (!ch->refused && ch->token[0])
        ak_notify_verify_email(srv, k->user, ch->after.email, ch->token);
}

static const struct ak_job settings_job = {settings_write, settings_answer, NULL, NULL, NULL};

/* What the request asks for, checked against p (the stored settings);
 * NULL with the reply sent when it cannot be done. */
static struct settings_change *change_of(struct ak_conn *c, const json_t *id, const json_t *msg,
                                         const struct ak_store_prefs *p)
{
    const json_t *chat = json_object_get(msg, "chat"), *notify = json_object_get(msg, "notify");
    const json_t *email = json_object_get(msg, "email"), *verify = json_object_get(msg, "verify_email");
    const char *cs = json_string_value(chat), *ns = json_string_value(notify), *es = json_string_value(email);
    if ((chat && (!cs || (strcmp(cs, "on") != 0 && strcmp(cs, "off") != 0))) ||
        (notify && (!ns || (strcmp(ns, "each") != 0 && strcmp(ns, "digest") != 0))) ||
        (email && (!es || (*es && !ak_email_plain(es)))) || (verify && !json_is_string(verify))) {
        ak_conn_reply_error(c, id, "bad_request", "chat is on or off, notify is each or digest, email a plain address "
                            "like name@example.org (letters, digits and . _ %% + - before the @; \"\" to remove it), "
                            "verify_email the token sent to it");
        return NULL;
    }
    /* Each address given sends a mail: one every VERIFY_EVERY seconds per
     * account at most, so that nobody can use akd to flood a mailbox (or
     * the notification queue). */
    int64_t now = ak_now();
    if (es && *es && p->email_sent && now - p->email_sent < VERIFY_EVERY) {
        ak_conn_reply_error(c, id, "rate_limited", "a verification was sent %lld s ago; another may be asked for "
                            "in %lld s", (long long)(now - p->email_sent), (long long)(VERIFY_EVERY - (now - p->email_sent)));
        return NULL;
    }
    struct settings_change *ch = calloc(1, sizeof *ch);
    if (!ch) {
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing changed");
        return NULL;
    }
    ch->chat_muted = cs ? strcmp(cs, "off") == 0 : -1;
    if (ns)
        snprintf(ch->notify_mode, sizeof ch->notify_mode, "%s", ns);
    if (es) {
        ch->set_email = true;
        snprintf(ch->email, sizeof ch->email, "%s", es);
        if (*es) {
            unsigned char raw[16];
            ch->email_sent = now;
            randombytes_buf(raw, sizeof raw);
            sodium_bin2hex(ch->token, sizeof ch->token, raw, sizeof raw);
            token_hash(ch->token, ch->email_token_hash);
        }
    }
    if (verify) {
        ch->verify = true;
        token_hash(json_string_value(verify), ch->verify_hash);
    }
    return ch;
}

void ak_cmd_settings(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_store_prefs p;
    if (ak_store_prefs_get(c->srv->store, c->user, &p) != AK_STORE_OK) {
        ak_conn_reply_error(c, id, "internal", "the database could not be read");
        return;
    }
    if (json_object_size(msg) <= 2) {   /* cmd and id: a reading */
        ak_conn_reply_ok(c, id, settings_json(&p));
        return;
    }
    struct settings_change *ch = change_of(c, id, msg, &p);
    if (ch)
        ak_batch_job(c->srv, c, id, &settings_job, NULL, ch);
}
