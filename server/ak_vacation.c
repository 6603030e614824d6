/* ak_vacation: a player's clocks stand still while he is away.
 *
 *   {"cmd":"vacation"}                 how many days are left this year
 *   {"cmd":"vacation","days":N}        away for N days from now
 *   {"cmd":"vacation","end":true}      back early
 *
 * A player may take up to vacation_days days a year (UTC years; days taken
 * are counted to the second: a vacation is charged to the year it is
 * taken in, and one ended early uses only its time).
 * Starting one moves the deadline of each of his games that waits for him
 * by the length of the vacation; a game that comes to wait for him while
 * he is away gets its deadline from his return (ak_vacation_shift, from
 * the clock's ak_clock_next); ending early takes the unused time back off
 * those deadlines. Games of a tournament that does not allow vacations
 * keep their clocks (the reply counts them). Who is away is kept in
 * memory (ak_away.c) because the clock asks on every new deadline. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ak_server.h"

static int current_year(int64_t now)
{
    time_t t = (time_t)now;
    struct tm tm;
    gmtime_r(&t, &tm);
    return tm.tm_year + 1900;
}

/* A vacation is charged whole to the year it is taken in, when it is
 * taken (one that runs into January is last year's); ending it early
 * gives the rest back to that year. A vacation that ran out is cleared;
 * with none running, a new year starts afresh. */
static void settle(struct ak_store_prefs *p, int64_t now)
{
    if (p->vacation_until && p->vacation_until <= now)
        p->vacation_start = p->vacation_until = 0;
    if (!p->vacation_until && p->vacation_year != current_year(now)) {
        p->vacation_year = current_year(now);
        p->vacation_used = 0;
    }
}

/* A vacation taken or ended, on its way to the store: the account's
 * vacation fields, and the deadlines of his games that moved with it.
 * Everything changes in memory at once; the writer stores it in the next
 * group commit (no sync of its own on the loop); the reply waits for the
 * commit, and a failed one puts the deadlines and the table back. */
struct moved_game {
    struct ak_game *g;
    int64_t id;
    struct ak_store_game_meta meta;
    int64_t deadline_before;
    bool warned_before;
};

struct vacation_change {
    struct ak_store_prefs p;        /* the vacation fields to store */
    int64_t until_before;           /* the table's entry before */
    int64_t days;                   /* taken (0: ended) */
    int moved, kept;
    json_t *reply;
    struct moved_game games[];
};

/* The games of user that wait for him and have a deadline: into v (NULL:
 * only counted). Returns how many pause and counts in *kept those that
 * keep their clock. */
static int waiting_games(struct ak_server *srv, int64_t user, struct vacation_change *v, int *kept)
{
    struct ak_game *const *games;
    int moved = 0, n = ak_seats_of(user, &games);
    *kept = 0;
    (void)srv;
    for (int i = 0; i < n; i++) {      /* his games alone (ak_seats.c) */
        struct ak_game *g = games[i];
        int w = g->creating ? AK_SIDES : ak_game_waiting(g);     /* creating: not stored yet */
        if (w >= AK_SIDES || g->player[w] != user || !g->meta.deadline)
            continue;
        if (!ak_vacation_clock_stops(g)) {
            (*kept)++;
            continue;
        }
        if (v)
            v->games[moved] = (struct moved_game){.g = g, .id = g->id, .deadline_before = g->meta.deadline,
                                                  .warned_before = g->warned};
        moved++;
    }
    return moved;
}

/* Move the deadlines recorded in v by delta, in memory. */
static void move_deadlines(struct vacation_change *v, int64_t delta)
{
    for (int i = 0; i < v->moved; i++) {
        struct ak_game *g = v->games[i].g;
        g->meta.deadline += delta;
        if (g->meta.deadline < ak_now())
            g->meta.deadline = ak_now();
        g->warned = false;
        v->games[i].meta = g->meta;
    }
}

static int vacation_write(struct ak_store *st, const struct ak_commit *k)
{
    const struct vacation_change *v = k->data;
    struct ak_store_prefs p;
    if (ak_store_prefs_get(st, k->user, &p) != AK_STORE_OK)
        return AK_STORE_ERROR;
    p.vacation_start = v->p.vacation_start;
    p.vacation_until = v->p.vacation_until;
    p.vacation_year = v->p.vacation_year;
    p.vacation_used = v->p.vacation_used;
    if (ak_store_prefs_put(st, k->user, &p) != AK_STORE_OK)
        return AK_STORE_ERROR;
    for (int i = 0; i < v->moved; i++)
        if (ak_store_game_set_deadline(st, v->games[i].id, v->games[i].meta.deadline) != AK_STORE_OK)
            return AK_STORE_ERROR;
    return AK_STORE_OK;
}

static void vacation_answer(struct ak_server *srv, struct ak_commit *k)
{
    struct vacation_change *v = k->data;
    (void)srv;
    if (v->days)
        ak_log(AK_LOG_INFO, "user %lld is on vacation for %lld days", (long long)k->user, (long long)v->days);
    else
        ak_log(AK_LOG_INFO, "user %lld is back from vacation", (long long)k->user);
    if (k->conn) {
        ak_conn_reply_ok(k->conn, k->id, v->reply);
        v->reply = NULL;
    }
}

static void vacation_undo(struct ak_server *srv, struct ak_commit *k)
{
    const struct vacation_change *v = k->data;
    (void)srv;
    for (int i = 0; i < v->moved; i++) {
        if (v->games[i].g->meta.deadline != v->games[i].meta.deadline)
            continue;       /* set since by someone else (an admin): theirs stands */
        v->games[i].g->meta.deadline = v->games[i].deadline_before;
        v->games[i].g->warned = v->games[i].warned_before;
    }
    ak_vacation_set_until(k->user, v->until_before);
}

static void vacation_release(void *data)
{
    struct vacation_change *v = data;
    json_decref(v->reply);
    free(v);
}

static const struct ak_job vacation_job = {vacation_write, vacation_answer, vacation_undo, vacation_release, NULL};

static json_t *status_json(const struct ak_server *srv, const struct ak_store_prefs *p, int64_t now)
{
    int64_t allowed = (int64_t)srv->cfg.vacation_days * 86400, left = allowed - p->vacation_used;
    (void)now;
    return json_pack("{s:b,s:I,s:i,s:f}", "away", p->vacation_until > now, "until",
                     (json_int_t)(p->vacation_until > now ? p->vacation_until : 0), "days_per_year",
                     srv->cfg.vacation_days, "days_left", left > 0 ? (double)left / 86400.0 : 0.0);
}

void ak_cmd_vacation(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_server *srv = c->srv;
    struct ak_store_prefs p;
    int64_t now = ak_now();
    const json_t *days = json_object_get(msg, "days");
    bool end = json_is_true(json_object_get(msg, "end"));
    if (ak_store_prefs_get(srv->store, c->user, &p) != AK_STORE_OK) {
        ak_conn_reply_error(c, id, "internal", "the database could not be read");
        return;
    }
    settle(&p, now);
    struct ak_store_prefs before = p;
    if (days) {
        int64_t left = (int64_t)srv->cfg.vacation_days * 86400 - p.vacation_used;
        if (!json_is_integer(days) || json_integer_value(days) < 1 || json_integer_value(days) > 366) {
            ak_conn_reply_error(c, id, "bad_request", "days is a whole number of days from 1");
            return;
        }
        if (p.vacation_until > now || ak_vacation_until(c->user)) {  /* stored, or on its way */
            ak_conn_reply_error(c, id, "bad_request", "you are on vacation already (end it first)");
            return;
        }
        if (json_integer_value(days) * 86400 > left) {
            ak_conn_reply_error(c, id, "no_vacation_left", "%.1f days of vacation are left this year (of %d)",
                                left > 0 ? (double)left / 86400.0 : 0.0, srv->cfg.vacation_days);
            return;
        }
        p.vacation_start = now;
        p.vacation_until = now + json_integer_value(days) * 86400;
        p.vacation_used += json_integer_value(days) * 86400;
    } else if (end) {
        if (p.vacation_until <= now || !ak_vacation_until(c->user)) {
            ak_conn_reply_error(c, id, "bad_request", "you are not on vacation");
            return;
        }
        if (p.vacation_year == current_year(now))     /* the rest back to the year it was charged to */
            p.vacation_used -= p.vacation_until - now;
        if (p.vacation_used < 0)
            p.vacation_used = 0;
        p.vacation_start = p.vacation_until = 0;
    }
    if (!days && !end) {       /* a reading */
        ak_conn_reply_ok(c, id, status_json(srv, &p, now));
        return;
    }
    int kept, moved = waiting_games(srv, c->user, NULL, &kept);
    struct vacation_change *v = calloc(1, sizeof *v + sizeof v->games[0] * (size_t)moved);
    if (!v) {
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing changed");
        return;
    }
    v->p = p;
    v->moved = waiting_games(srv, c->user, v, &v->kept);
    v->until_before = ak_vacation_until(c->user);
    v->days = days ? json_integer_value(days) : 0;
    move_deadlines(v, days ? p.vacation_until - now : -(before.vacation_until - now));
    ak_vacation_set_until(c->user, p.vacation_until);
    v->reply = status_json(srv, &p, now);
    json_object_set_new(v->reply, "games_paused", json_integer(v->moved));
    json_object_set_new(v->reply, "games_running", json_integer(v->kept));
    ak_batch_job(srv, c, id, &vacation_job, NULL, v);
}
