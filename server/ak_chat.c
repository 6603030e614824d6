/* ak_chat: short messages about a game, kept with it but outside its
 * record (the rules never see them; a record verifies without them).
 *
 *   {"cmd":"chat","game":N,"text":T}   say T
 *   {"cmd":"chat","game":N}            the messages the caller may read
 *
 * Two channels: the players' (its two players, who see each other's
 * messages) and the spectators' (anyone else logged in). During the game
 * neither side reads the other channel, so spectators' remarks cannot
 * help a player; once it is over both are open to all. A player who has
 * muted chat (settings) gets no chat pushes; he can still read the
 * history when he wants. A message is 1 to CHAT_MAX bytes of text without
 * control characters; each account may send CHAT_BURST messages at once
 * and one more every CHAT_EVERY seconds after (a token bucket per account,
 * in memory), and a game keeps at most CHAT_PER_GAME messages (a chat is
 * for a game, not a forum; it also bounds what a history read costs). */
#include <stdlib.h>
#include <string.h>

#include "ak_server.h"

#define CHAT_MAX 500
#define CHAT_BURST 5
#define CHAT_EVERY 3
#define CHAT_PER_GAME 500
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
static bool can_read(const struct ak_game *g, int64_t reader, const char *channel)
{
    if (ak_game_brief_of(g).phase == AK_PHASE_OVER || strcmp(g->meta.status, "active") != 0)
        return true;
    return is_player(g, reader) == (strcmp(channel, "players") == 0);
}

static void push_chat(struct ak_server *srv, const struct ak_game *g, json_t *msg, const char *channel)
{
    for (int i = 0; i < g->nwatchers; i++) {
        struct ak_conn *w = g->watchers[i];
        struct ak_store_prefs p;
        if (!w->user || !can_read(g, w->user, channel))
            continue;
        if (ak_store_prefs_get(srv->store, w->user, &p) == AK_STORE_OK && p.chat_muted)
            continue;
        ak_conn_send(w, msg);
    }
}

struct history {
    json_t *list;
    const struct ak_game *g;
    int64_t reader;
};

static void one_message(void *ud, int64_t at, const char *user, const char *channel, const char *text)
{
    struct history *h = ud;
    if (can_read(h->g, h->reader, channel))
        json_array_append_new(h->list, json_pack("{s:I,s:s,s:s,s:s}", "at", (json_int_t)at, "user", user,
                                                 "channel", channel, "text", text));
}

void ak_cmd_chat(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = ak_game_arg(c, id, msg);
    if (!g)
        return;
    const json_t *tj = json_object_get(msg, "text");
    if (!tj) {
        struct history h = {json_array(), g, c->user};
        if (ak_store_chat_each(c->srv->store, g->id, one_message, &h) != AK_STORE_OK) {
            json_decref(h.list);
            ak_conn_reply_error(c, id, "internal", "the database could not be read");
            return;
        }
        ak_conn_reply_ok(c, id, json_pack("{s:I,s:o}", "game", (json_int_t)g->id, "messages", h.list));
        return;
    }
    const char *text = json_string_value(tj);
    if (!text || !*text || strlen(text) > CHAT_MAX || !plain_text(text)) {
        ak_conn_reply_error(c, id, "bad_request", "a chat message is 1 to %d bytes of text, on one line", CHAT_MAX);
        return;
    }
    int64_t now = ak_now();
    if (!chat_allowed(c->user, now)) {
        ak_conn_reply_error(c, id, "rate_limited", "too many chat messages; one more every %d seconds", CHAT_EVERY);
        return;
    }
    const char *channel = is_player(g, c->user) ? "players" : "spectators";
    int64_t count;
    if (ak_store_chat_count(c->srv->store, g->id, &count) != AK_STORE_OK || count >= CHAT_PER_GAME) {
        ak_conn_reply_error(c, id, "chat_full", "game %lld has %d chat messages, the most it keeps",
                            (long long)g->id, CHAT_PER_GAME);
        return;
    }
    if (ak_store_chat_add(c->srv->store, g->id, now, c->user, channel, text) != AK_STORE_OK) {
        ak_conn_reply_error(c, id, "internal", "the database could not store it; nothing was sent");
        return;
    }
    json_t *push = json_pack("{s:s,s:I,s:s,s:s,s:s,s:I}", "push", "chat", "game", (json_int_t)g->id, "channel",
                             channel, "user", c->user_name, "text", text, "at", (json_int_t)now);
    push_chat(c->srv, g, push, channel);
    json_decref(push);
    ak_conn_reply_ok(c, id, json_pack("{s:I,s:s}", "game", (json_int_t)g->id, "channel", channel));
}
