/* ak_clock: time controls and deadlines.
 *
 * A game may have a time control: so many seconds for each action of the
 * awaited player, or for each of his player turns. After every action the
 * deadline is set again (ak_clock_next in ak_games.c, stored with the action); the
 * clock tick (ak_cron.c) checks every clock_tick_ms. When 80% of the time is used the player is notified
 * once ("deadline_near"); when it runs out, on_expiry "lose" makes the late
 * side lose on time (a TIMEOUT action in the game's log, so the record
 * replays), "wait" marks the game overdue for an operator and notifies.
 * Both notices are told once per deadline, restarts included: that one
 * was sent is stored (games.near_told, passed_told) in the next group
 * commit, and the notice goes out once it is stored.
 * Time is read only through ak_now(), the server's one clock.
 */
#include <stdlib.h>
#include <string.h>

#include "ak_engine.h"
#include "ak_server.h"

/* More time (give_time, an admin's extend): the deadline moves in memory
 * at once and is stored in the next group commit (no sync of its own on
 * the loop), the deadline alone, so that nothing else of the game's is
 * put back as it was; the job's answer (the caller's) tells, once stored.
 * A failed commit takes the time back, unless the deadline was set again
 * since by someone else. */
int ak_clock_deadline_write(struct ak_store *st, const struct ak_commit *k)
{
    const struct ak_deadline_change *d = k->data;
    int rc = ak_store_game_set_deadline(st, k->game_id, d->after);
    if (rc == AK_STORE_OK && d->audit_by[0])
        rc = ak_store_audit(st, d->when, d->audit_by, "extend", d->audit_target, d->audit_detail);
    return rc;
}

void ak_clock_deadline_undo(struct ak_server *srv, struct ak_commit *k)
{
    const struct ak_deadline_change *d = k->data;
    (void)srv;
    if (k->g->meta.deadline != d->after)
        return;
    k->g->meta.deadline = d->before;
    k->g->warned = d->warned;
    k->g->overdue = d->overdue;
}

bool ak_clock_give(struct ak_server *srv, struct ak_conn *c, const json_t *id, struct ak_game *g,
                   int64_t seconds, const struct ak_job *job, struct ak_deadline_change *d)
{
    int64_t from = g->meta.deadline > ak_now() ? g->meta.deadline : ak_now();
    d->before = g->meta.deadline;
    d->warned = g->warned;
    d->overdue = g->overdue;
    d->seconds = seconds;
    d->when = ak_now();
    g->meta.deadline = d->after = from + seconds;
    g->overdue = g->warned = false;
    return ak_batch_job(srv, c, id, job, g, d);
}

/* A notice of deadline for side: stored as told, then sent. */
#define TOLD_ADMINS 16      /* admins told of one overdue game, at most */

struct told {
    int64_t deadline;
    bool near;              /* deadline_near; else deadline_passed */
    bool admins_too;        /* deadline_passed: the admins are told (game_overdue) */
    int side;
    int nadmins;            /* read by the writer with the rest */
    int64_t admin[TOLD_ADMINS];
};

static int told_write(struct ak_store *st, const struct ak_commit *k)
{
    struct told *t = k->data;
    int rc = ak_store_game_told(st, k->game_id, t->near, t->deadline);
    if (rc == AK_STORE_OK && t->admins_too) {
        t->nadmins = ak_store_admin_ids(st, t->admin, TOLD_ADMINS);
        t->nadmins = t->nadmins < 0 ? 0 : t->nadmins;
    }
    return rc;
}

static void told_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct told *t = k->data;
    struct ak_game *g = k->g;
    if (g->meta.deadline != t->deadline)    /* moved meanwhile: that one is past telling */
        return;
    ak_notify(srv, t->near ? "deadline_near" : "deadline_passed", g, g->player[t->side], t->side);
    for (int i = 0; i < t->nadmins; i++)    /* one each per overdue game: bounded by the games */
        if (t->admin[i] != g->player[t->side])
            ak_notify(srv, "game_overdue", g, t->admin[i], t->side);
}

/* Not stored: the next tick tries again. */
static void told_undo(struct ak_server *srv, struct ak_commit *k)
{
    const struct told *t = k->data;
    (void)srv;
    if (k->g->meta.deadline != t->deadline)
        return;
    if (t->near)
        k->g->warned = false;
    else
        k->g->overdue = false;
}

static const struct ak_job told_job = {told_write, told_answer, told_undo, NULL, NULL};

static void tell(struct ak_server *srv, struct ak_game *g, int side, bool near)
{
    struct told *t = malloc(sizeof *t);
    if (!t) {
        near ? (g->warned = false) : (g->overdue = false);
        return;
    }
    *t = (struct told){.deadline = g->meta.deadline, .near = near, .side = side,
                       .admins_too = !near && srv->cfg.notify_admins_overdue};
    ak_batch_job(srv, NULL, NULL, &told_job, g, t);
}

static void expire(struct ak_server *srv, struct ak_game *g, int late)
{
    if (strcmp(g->meta.tc_expiry, "wait") == 0) {
        if (!g->overdue) {
            g->overdue = true;
            ak_log_with(AK_LOG_WARN, AK_LOG_GAME(g->id), "game %lld: the %s player's time ran out; it waits for an operator",
                   (long long)g->id, ak_side_name(late));
            tell(srv, g, late, false);
        }
        return;
    }
    struct ak_action a = {.kind = AK_ACT_TIMEOUT, .side = (uint8_t)late, .hex = AK_HEX_NONE,
                          .supply = AK_UNIT_NONE};
    static struct ak_state next;
    struct ak_events ev = {0};
    struct ak_reject rej;
    if (!ak_game_try(g, &a, NULL, &next, &ev, &rej))
        return;
    ak_log_with(AK_LOG_INFO, AK_LOG_GAME(g->id), "game %lld: the %s player lost on time", (long long)g->id, ak_side_name(late));
    ak_game_commit(srv, g, &a, NULL, &next, &ev, "server", NULL, NULL);
}

void ak_clock_tick(struct ak_server *srv)
{
    int64_t now = ak_now();
    for (struct ak_game *g = srv->listed; g; g = g->listed_next) {      /* not the called-off ones */
        int late = ak_game_waiting(g);
        if (!g->meta.deadline || late >= AK_SIDES || !ak_game_listed(g) || ak_bid_open(g))
            continue;       /* (an auction has no clock: a deadline left from before is not its) */
        int64_t left = g->meta.deadline - now;
        if (ak_vacation_pauses(g))
            continue;       /* away: his clock stands still (ak_vacation.c) */
        if (left <= 0)
            expire(srv, g, late);
        /* 80% used; whole seconds, rounded so that a short clock warns too */
        else if (!g->warned && left * 5 <= g->meta.tc_seconds + 4) {
            g->warned = true;
            tell(srv, g, late, true);
        }
    }
}
