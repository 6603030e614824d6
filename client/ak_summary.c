/* ak_summary: a game summary (PROTOCOL.md SUMMARY) as people read it:
 * the clock, the status and the opponent, the same words in `games`,
 * `show` and `play`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ak_client.h"
#include "ak_crt_table.h"
#include "ak_engine.h"

/* "2d 4h", "3h 10m", "5m 20s". */
static void span(long long t, char *buf, size_t cap)
{
    if (t >= 86400)
        snprintf(buf, cap, "%lldd %lldh", t / 86400, t % 86400 / 3600);
    else if (t >= 3600)
        snprintf(buf, cap, "%lldh %lldm", t / 3600, t % 3600 / 60);
    else
        snprintf(buf, cap, "%lldm %llds", t / 60, t % 60);
}

void ak_summary_clock(const json_t *g, char *buf, size_t cap)
{
    const json_t *tc = json_object_get(g, "time_control");
    if (!json_is_object(tc)) {
        snprintf(buf, cap, "-");
        return;
    }
    char per[32], left[32];
    span((long long)json_integer_value(json_object_get(tc, "seconds")), per, sizeof per);
    const char *unit = json_string_value(json_object_get(tc, "per"));
    const json_t *tl = json_object_get(g, "time_left");
    if (json_is_true(json_object_get(g, "overdue")))
        snprintf(buf, cap, "OVERDUE (%s/%s)", per, unit ? unit : "?");
    else if (json_is_integer(tl) && json_string_value(json_object_get(g, "waiting_for"))) {
        span((long long)json_integer_value(tl), left, sizeof left);
        snprintf(buf, cap, "%s left (%s/%s)", left, per, unit ? unit : "?");
    } else
        snprintf(buf, cap, "%s/%s", per, unit ? unit : "?");
}

/* The seat's player, "(computer)" after a computer's name. */
static const char *seat_name(const json_t *g, const char *side, const char *name, char *buf, size_t cap)
{
    if (name && json_is_true(json_object_get(json_object_get(g, "computer"), side))) {
        snprintf(buf, cap, "%s (computer)", name);
        return buf;
    }
    return name;
}

const char *ak_summary_opponent(const json_t *g, const char *me)
{
    static char both[200], axb[90], alb[90], chb[90];
    const json_t *p = json_object_get(g, "players");
    const char *you = json_string_value(json_object_get(g, "you"));
    const char *ax = seat_name(g, "axis", json_string_value(json_object_get(p, "axis")), axb, sizeof axb);
    const char *al = seat_name(g, "allied", json_string_value(json_object_get(p, "allied")), alb, sizeof alb);
    const char *challenge = json_string_value(json_object_get(g, "challenge"));
    if (challenge && json_is_true(json_object_get(g, "challenge_computer"))) {
        snprintf(chb, sizeof chb, "%s (computer)", challenge);
        challenge = chb;
    }
    if (!you && challenge && me && strncasecmp(challenge, me, strlen(me)) == 0 &&
        (!challenge[strlen(me)] || challenge[strlen(me)] == ' '))
        return ax ? ax : al ? al : "?";         /* a challenge to me: from its sender */
    if (!you) {                                 /* a game to watch: who plays it */
        snprintf(both, sizeof both, "%s v %s", ax ? ax : "(open)", al ? al : challenge ? challenge : "(open)");
        return both;
    }
    const char *other = strcmp(you, "axis") == 0 ? al : ax;
    return other ? other : challenge ? challenge : "(open)";
}

void ak_summary_result(const json_t *g, char *buf, size_t cap)
{
    const char *result = json_string_value(json_object_get(g, "result"));
    const char *reason = json_string_value(json_object_get(g, "reason"));
    const char *who = !result ? "?" : strcmp(result, "axis_wins") == 0 ? "Axis won"
                    : strcmp(result, "allied_wins") == 0 ? "Allied won" : strcmp(result, "draw") == 0 ? "drawn"
                    : "over";
    /* reasons are words already, but for their underscores */
    char why[48];
    snprintf(why, sizeof why, "%s", reason ? reason : "");
    for (char *p = why; *p; p++)
        if (*p == '_')
            *p = ' ';
    snprintf(buf, cap, "%s%s%s", who, why[0] && strcmp(why, "none") ? " by " : "",
             why[0] && strcmp(why, "none") ? why : "");
}

static const char *side_title(const char *side)
{
    return side && strcmp(side, "axis") == 0 ? "Axis" : "Allied";
}

bool ak_summary_bid(const json_t *g, const char *me, char *buf, size_t cap)
{
    const json_t *b = json_object_get(g, "bid");
    if (!json_is_object(b))
        return false;
    const char *status = json_string_value(json_object_get(b, "status"));
    const char *side = json_string_value(json_object_get(b, "side"));
    const char *by = json_string_value(json_object_get(b, "by"));
    const char *next = json_string_value(json_object_get(b, "to_bid"));
    long long n = json_integer_value(json_object_get(b, "supply"));
    const char *units = n == 1 ? "supply unit" : "supply units";
    bool mine = next && me && strcasecmp(next, me) == 0;
    if (status && strcmp(status, "closed") == 0)
        snprintf(buf, cap, "Side auction: closed without an accepted bid (the game ended first)");
    else if (status && strcmp(status, "settled") == 0)
        snprintf(buf, cap, "Side bid: %s plays the %s side for %lld %s; the %s side started with them", by ? by : "?",
                 side_title(side), n, units, side_title(json_string_value(json_object_get(b, "receives"))));
    else if (!side)
        snprintf(buf, cap, "Side auction: %s to open it (akc bid GAME N axis|allied)", mine ? "you" : next ? next : "?");
    else if (mine)
        snprintf(buf, cap, "Side auction: %s bids %lld %s to play the %s side; your bid (akc bid GAME accept, or "
                 "more than %lld)", by ? by : "the creator", n, units, side_title(side), n);
    else
        snprintf(buf, cap, "Side auction: %s bids %lld %s to play the %s side; %s", by ? by : "the creator", n, units,
                 side_title(side), next ? next : "an opponent joins, then bids");
    if (next && !mine && side && status && strcmp(status, "open") == 0)
        snprintf(buf + strlen(buf), cap - strlen(buf), " to bid");
    return true;
}

void ak_summary_status(const json_t *g, const char *me, char *buf, size_t cap)
{
    const json_t *p = json_object_get(g, "players");
    const char *challenge = json_string_value(json_object_get(g, "challenge"));
    const char *ax = json_string_value(json_object_get(p, "axis"));
    const char *al = json_string_value(json_object_get(p, "allied"));
    const char *wait = json_string_value(json_object_get(g, "waiting_for"));
    if (json_is_true(json_object_get(g, "open"))) {
        if (challenge && me && strcasecmp(challenge, me) == 0)
            snprintf(buf, cap, "CHALLENGE from %s", ax ? ax : al ? al : "?");
        else if (challenge)
            snprintf(buf, cap, "challenge to %s", challenge);
        else if (json_is_array(json_object_get(g, "rating_range")))
            snprintf(buf, cap, "open seek, rated %lld-%lld",
                     (long long)json_integer_value(json_array_get(json_object_get(g, "rating_range"), 0)),
                     (long long)json_integer_value(json_array_get(json_object_get(g, "rating_range"), 1)));
        else
            snprintf(buf, cap, "open seek");
        const json_t *b = json_object_get(g, "bid");
        if (json_is_object(b) && json_string_value(json_object_get(b, "side")))
            snprintf(buf + strlen(buf), cap - strlen(buf), ", bid %lld for %s",
                     (long long)json_integer_value(json_object_get(b, "supply")),
                     json_string_value(json_object_get(b, "side")));
    } else if (json_string_value(json_object_get(json_object_get(g, "bid"), "status")) &&
               strcmp(json_string_value(json_object_get(json_object_get(g, "bid"), "status")), "open") == 0) {
        const char *next = json_string_value(json_object_get(json_object_get(g, "bid"), "to_bid"));
        if (json_is_true(json_object_get(g, "your_turn")))
            snprintf(buf, cap, "YOUR BID");
        else
            snprintf(buf, cap, "side auction: %s to bid", next ? next : "?");
    } else if (json_is_true(json_object_get(g, "overdue"))) {
        snprintf(buf, cap, "%s (OVERDUE: an operator may decide the game)",
                 json_is_true(json_object_get(g, "your_turn")) ? "YOUR MOVE" : wait ? wait : "?");
        if (!json_is_true(json_object_get(g, "your_turn")) && wait)
            snprintf(buf, cap, "OVERDUE: %s to move, waiting for an operator", wait);
    } else if (json_is_true(json_object_get(g, "your_turn"))) {
        snprintf(buf, cap, "YOUR MOVE");
    } else if (wait) {
        snprintf(buf, cap, "%s to move", wait);
    } else {
        ak_summary_result(g, buf, cap);
    }
}

bool ak_summary_matches(const json_t *g, const char *me, unsigned filters)
{
    const char *challenge = json_string_value(json_object_get(g, "challenge"));
    bool mine = json_string_value(json_object_get(g, "you")) != NULL ||
                (challenge && me && strcasecmp(challenge, me) == 0);
    const char *phase = json_string_value(json_object_get(g, "phase"));
    bool over = phase && strcmp(phase, "over") == 0;
    bool open = json_is_true(json_object_get(g, "open"));
    if ((filters & AK_GAMES_MINE) && !mine)
        return false;
    if ((filters & AK_GAMES_WAITING) && !json_is_true(json_object_get(g, "your_turn")))
        return false;
    /* Open: a seat I could take (an open seek, or a challenge to me). */
    if ((filters & AK_GAMES_OPEN) && !(open && json_string_value(json_object_get(g, "you")) == NULL &&
                                       (!challenge || (me && strcasecmp(challenge, me) == 0))))
        return false;
    if ((filters & AK_GAMES_FINISHED) && !over)
        return false;
    return true;
}

void ak_summary_chat(const json_t *m, char *buf, size_t cap)
{
    const char *channel = json_string_value(json_object_get(m, "channel"));
    char num[24] = "";
    if (json_integer_value(json_object_get(m, "id")))      /* what akc report names */
        snprintf(num, sizeof num, "[%lld] ", (long long)json_integer_value(json_object_get(m, "id")));
    snprintf(buf, cap, "%s%s%s: %s", num, channel && strcmp(channel, "spectators") == 0 ? "(spectator) " : "",
             json_string_value(json_object_get(m, "user")),
             json_is_true(json_object_get(m, "removed")) ? "(removed by an admin)"
                                                         : json_string_value(json_object_get(m, "text")));
}

void ak_summary_attach_crt(const json_t *g, struct ak_state *s)
{
    /* One game at a time: the table of the last game shown, parsed again
     * only when another game's table comes. */
    static struct ak_crt_table table;
    static char *text;
    const char *now = json_string_value(json_object_get(g, "crt_table"));
    char err[200];
    if (now && (!text || strcmp(text, now) != 0)) {
        free(text);
        text = ak_crt_table_parse(&table, now, err, sizeof err) ? NULL : strdup(now);
    }
    ak_crt_attach(s, now && text && strcmp(text, now) == 0 ? &table : NULL);
}
