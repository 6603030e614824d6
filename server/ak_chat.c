/* ak_chat: short messages about a game, kept with it but outside its
 * record (the rules never see them; a record verifies without them).
 *
 *   {"cmd":"chat","game":N,"text":T}   say T
 *   {"cmd":"chat","game":N}            the newest CHAT_PAGE messages the
 *                                      caller may read ("more": older ones
 *   {"cmd":"chat","game":N,"before":M} exist; the page before message M)
 *
 * Two channels: the players' (its two players, who see each other's
 * messages) and the spectators' (anyone else logged in). During the game
 * neither side reads the other channel, so spectators' remarks cannot
 * help a player; once it is over both are open to all. A player who has
 * muted chat (settings) gets no chat pushes; he can still read the
 * history when he wants. A message is 1 to CHAT_MAX bytes of text without
 * control characters; each account may send CHAT_BURST messages at once
 * and one more every CHAT_EVERY seconds after (a token bucket per account,
 * in memory). Each channel of a game keeps at most CHAT_PER_CHANNEL
 * messages (a chat is for a game, not a forum), so spectators can never
 * use up the players' room; in it each player has half, and a spectator
 * CHAT_PER_SPECTATOR. The command is queued behind actions like the
 * costly queries (ak_dispatch.c), a reading returns one page, and a
 * message is stored in the next group commit (the writer counts and
 * inserts it, so the limits hold across a batch), its push sent once it
 * is stored. An account an admin muted (ak_moderation.c) may not send
 * until then; a message an admin removed is read as removed, without its
 * text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_server.h"

#define CHAT_MAX 500
#define CHAT_BURST 5
#define CHAT_EVERY 3
#define CHAT_PER_CHANNEL 500
#define CHAT_PER_SPECTATOR 50
#define CHAT_PAGE 100
#define BUCKETS 4096
#define PROBES 64

/* The buckets of the accounts that chatted lately, by open addressing: a
 * slot is an account's while its bucket is not full again, after which
 * anyone may take it (a full bucket is what a new account starts with). */
static struct {
    int64_t user;
    double tokens;
    int64_t at;
} buckets[BUCKETS];

static double refilled(int slot, int64_t now)
{
    double tokens = buckets[slot].tokens + (double)(now - buckets[slot].at) / CHAT_EVERY;
    return tokens > CHAT_BURST ? CHAT_BURST : tokens;
}

/* One message more for user now? No when over his rate, and no when the
 * table holds PROBES busy accounts where his would go (a flood of
 * accounts is refused rather than given fresh buckets). */
static bool chat_allowed(int64_t user, int64_t now)
{
    int slot = -1, start = (int)(((uint64_t)user * 0x9e3779b97f4a7c15ull) >> 52) % BUCKETS;
    for (int i = 0; i < PROBES && slot < 0; i++) {
        int s = (start + i) % BUCKETS;
        if (buckets[s].user == user)
            slot = s;
    }
    for (int i = 0; i < PROBES && slot < 0; i++) {
        int s = (start + i) % BUCKETS;
        if (!buckets[s].user || refilled(s, now) >= CHAT_BURST) {
            slot = s;
            buckets[s].user = user;
            buckets[s].tokens = CHAT_BURST;
            buckets[s].at = now;
        }
    }
    if (slot < 0)
        return false;
    buckets[slot].tokens = refilled(slot, now);
    buckets[slot].at = now;
    if (buckets[slot].tokens < 1)
        return false;
    buckets[slot].tokens -= 1;
    return true;
}

static bool plain_text(const char *t)
{
    for (const unsigned char *p = (const unsigned char *)t; *p; p++)
        if (*p < ' ' || *p == 0x7f)
            return false;
    return true;
}

static bool is_player(const struct ak_game *g, int64_t user)
{
    return user && (g->player[AK_AXIS] == user || g->player[AK_ALLIED] == user);
}

/* May a reader see a channel of g now? */
bool ak_chat_can_read(const struct ak_game *g, int64_t reader, const char *channel)
{
    if (ak_game_brief_of(g).phase == AK_PHASE_OVER || strcmp(g->meta.status, "active") != 0)
        return true;
    return is_player(g, reader) == (strcmp(channel, "players") == 0);
}

void ak_chat_push(struct ak_server *srv, const struct ak_game *g, json_t *msg, const char *channel)
{
    for (int i = g->nwatchers - 1; i >= 0; i--) {     /* last first: a send may close a watcher (ak_watch.c) */
        if (i >= g->nwatchers)
            continue;
        struct ak_conn *w = g->watchers[i];
        struct ak_store_prefs p;
        if (!w->user || !ak_chat_can_read(g, w->user, channel))
            continue;
        if (ak_store_prefs_get(srv->store, w->user, &p) == AK_STORE_OK && p.chat_muted)
            continue;
        ak_conn_send(w, msg);
    }
}

struct history {
    json_t *list;       /* newest first, as read */
    int64_t oldest;
};

static void one_message(void *ud, int64_t num, int64_t at, const char *user, const char *channel, const char *text,
                        bool removed)
{
    struct history *h = ud;
    h->oldest = num;
    json_t *m = json_pack("{s:I,s:I,s:s,s:s,s:s}", "id", (json_int_t)num, "at", (json_int_t)at, "user", user, "channel",
                          channel, "text", text);
    if (removed)
        json_object_set_new(m, "removed", json_true());
    json_array_append_new(h->list, m);
}

/* The page of messages before `before` (0: the newest) the caller may read. */
static void read_history(struct ak_conn *c, const json_t *id, const struct ak_game *g, const json_t *before)
{
    if (before && (!json_is_integer(before) || json_integer_value(before) < 1)) {
        ak_conn_reply_error(c, id, "bad_request", "before is the number of a message (its \"id\")");
        return;
    }
    const char *only = ak_chat_can_read(g, c->user, "players") && ak_chat_can_read(g, c->user, "spectators") ? NULL
                       : is_player(g, c->user) ? "players" : "spectators";
    struct history h = {json_array(), 0};
    if (ak_store_chat_page(c->srv->store, g->id, only, before ? json_integer_value(before) : 0, CHAT_PAGE + 1,
                           one_message, &h) != AK_STORE_OK) {
        json_decref(h.list);
        ak_conn_reply_error(c, id, "internal", "the database could not be read");
        return;
    }
    bool more = json_array_size(h.list) > CHAT_PAGE;
    if (more)
        json_array_remove(h.list, CHAT_PAGE);
    json_t *oldest_first = json_array();
    for (size_t i = json_array_size(h.list); i-- > 0;)
        json_array_append(oldest_first, json_array_get(h.list, i));
    json_decref(h.list);
    ak_conn_reply_ok(c, id, json_pack("{s:I,s:o,s:b}", "game", (json_int_t)g->id, "messages", oldest_first,
                                      "more", more));
}

/* A message on its way to the store (chat_write on the writer thread). */
struct chat_post {
    char channel[12];
    char author[64];
    int64_t at;
    int64_t id;             /* its number, once stored */
    bool full;              /* the writer found no room: not stored */
    char text[];
};

static int chat_write(struct ak_store *st, const struct ak_commit *k)
{
    struct chat_post *p = k->data;
    bool players = strcmp(p->channel, "players") == 0;
    int64_t in_channel, by_author;
    if (ak_store_chat_count(st, k->game_id, p->channel, 0, &in_channel) != AK_STORE_OK ||
        ak_store_chat_count(st, k->game_id, p->channel, k->user, &by_author) != AK_STORE_OK)
        return AK_STORE_ERROR;
    p->full = in_channel >= CHAT_PER_CHANNEL || by_author >= (players ? CHAT_PER_CHANNEL / 2 : CHAT_PER_SPECTATOR);
    if (p->full)
        return AK_STORE_OK;
    int rc = ak_store_chat_add(st, k->game_id, p->at, k->user, p->channel, p->text);
    p->id = rc == AK_STORE_OK ? ak_store_last_id(st) : 0;
    return rc;
}

static void chat_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct chat_post *p = k->data;
    if (p->full) {
        ak_conn_reply_error(k->conn, k->id, "chat_full", "game %lld keeps at most %d messages in the %s' channel, "
                            "%d of them yours; this one was not kept", (long long)k->game_id, CHAT_PER_CHANNEL,
                            p->channel, strcmp(p->channel, "players") == 0 ? CHAT_PER_CHANNEL / 2 : CHAT_PER_SPECTATOR);
        return;
    }
    json_t *push = json_pack("{s:s,s:I,s:s,s:s,s:s,s:I,s:I}", "push", "chat", "game", (json_int_t)k->game_id, "channel",
                             p->channel, "user", p->author, "text", p->text, "at", (json_int_t)p->at, "id",
                             (json_int_t)p->id);
    ak_chat_push(srv, k->g, push, p->channel);
    json_decref(push);
    if (k->conn)
        ak_conn_reply_ok(k->conn, k->id, json_pack("{s:I,s:s}", "game", (json_int_t)k->game_id, "channel", p->channel));
}

static const struct ak_job chat_job = {chat_write, chat_answer, NULL, NULL, NULL};

void ak_cmd_chat(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = ak_game_arg(c, id, msg);
    if (!g)
        return;
    const json_t *tj = json_object_get(msg, "text");
    if (!tj) {
        read_history(c, id, g, json_object_get(msg, "before"));
        return;
    }
    const char *text = json_string_value(tj);
    if (!text || !*text || strlen(text) > CHAT_MAX || !plain_text(text)) {
        ak_conn_reply_error(c, id, "bad_request", "a chat message is 1 to %d bytes of text, on one line", CHAT_MAX);
        return;
    }
    int64_t now = ak_now(), muted = 0;
    if (ak_store_chat_muted_until(c->srv->store, c->user, &muted) == AK_STORE_OK && muted > now) {
        ak_conn_reply_error(c, id, "chat_muted", "the server's admins muted your chat for %lld more minutes",
                            (long long)((muted - now + 59) / 60));
        return;
    }
    if (!chat_allowed(c->user, now)) {
        ak_conn_reply_error(c, id, "rate_limited", "too many chat messages; one more every %d seconds", CHAT_EVERY);
        return;
    }
    struct chat_post *p = malloc(sizeof *p + strlen(text) + 1);
    if (!p) {
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing was sent");
        return;
    }
    snprintf(p->channel, sizeof p->channel, "%s", is_player(g, c->user) ? "players" : "spectators");
    snprintf(p->author, sizeof p->author, "%s", c->user_name);
    p->at = now;
    p->full = false;
    p->id = 0;
    memcpy(p->text, text, strlen(text) + 1);
    ak_batch_job(c->srv, c, id, &chat_job, g, p);
}
