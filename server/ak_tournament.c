/* ak_tournament: tournaments an admin runs, round-robin or Swiss.
 *
 * An admin creates one (name, kind, start date, time control, rated or
 * not; a round robin may have each pair play both sides, a Swiss has a
 * number of rounds) and players join it until it starts: at its start date
 * (checked from the clock tick) or when an admin starts it. Each pairing is
 * a game created as a challenge from the Axis player to the Allied one,
 * both seated at once so that the clock runs from the start (a tournament
 * does not wait for a challenge to be accepted); the players are notified
 * as for any challenge and play it like any game.
 *
 * A round robin creates every game at the start (correspondence players
 * play their games side by side); the rounds are the circle method's, for
 * the record. A Swiss pairs one round at a time: the first by rating, each
 * next one when every game of the round before is over, players of equal
 * points together, never the same pair twice while another pairing
 * exists, the player with fewer Axis games on the Axis side; with an odd
 * number one player (the lowest without one yet) has a bye, worth a win.
 *
 * Standings come from the games themselves (they are the results): a win
 * 1, a draw (an adjudication) a half, a loss 0; games lost on time are
 * counted apart as forfeits; ties are broken by Sonneborn-Berger (the
 * points of the opponents beaten, half those of the opponents drawn), then
 * by wins. An aborted pairing counts for nobody. The tournament is
 * finished when its last game ends. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ak_notation.h"
#include "ak_server.h"
#include "ak_victory.h"

#define PLAYERS_MAX 64
#define GAMES_MAX 4096

struct standing {
    int64_t user;
    char name[64];
    double points, sb;
    int wins, draws, losses, forfeits, byes, played, axis_games;
    bool withdrawn;     /* banned, or left a running tournament: paired no more (Swiss) */
    int withdrew_in;    /* left in this round (his byes up to it stand); 0: banned (none count) */
    double rating;
    int seed;           /* join order */
};

/* One pairing as the standings see it. */
struct pairing {
    int64_t game;
    int round;
    int64_t axis, allied;
    int result;         /* AK_RESULT_*, NONE while it runs */
    int reason;
    bool counts;        /* not aborted */
};

struct table {
    struct ak_store_tournament t;
    struct standing p[PLAYERS_MAX];
    int np;
    struct pairing *g;
    int ng;
};

static struct standing *player_of(struct table *tb, int64_t user)
{
    for (int i = 0; i < tb->np; i++)
        if (tb->p[i].user == user)
            return &tb->p[i];
    return NULL;
}

static void score_game(struct table *tb, const struct pairing *g)
{
    struct standing *a = player_of(tb, g->axis), *b = player_of(tb, g->allied);
    if (!a || !b || !g->counts || g->result == AK_RESULT_NONE)
        return;
    a->played++;
    b->played++;
    double pa = g->result == AK_RESULT_AXIS_WINS ? 1 : g->result == AK_RESULT_DRAW ? 0.5 : 0;
    a->points += pa;
    b->points += 1 - pa;
    struct standing *winner = pa == 1 ? a : pa == 0 ? b : NULL, *loser = pa == 1 ? b : pa == 0 ? a : NULL;
    if (winner) {
        winner->wins++;
        loser->losses++;
        loser->forfeits += g->reason == AK_WIN_TIME;
    } else {
        a->draws++;
        b->draws++;
    }
}

/* Sonneborn-Berger needs every player's points first. */
static void score_sb(struct table *tb, const struct pairing *g)
{
    struct standing *a = player_of(tb, g->axis), *b = player_of(tb, g->allied);
    if (!a || !b || !g->counts || g->result == AK_RESULT_NONE)
        return;
    double pa = g->result == AK_RESULT_AXIS_WINS ? 1 : g->result == AK_RESULT_DRAW ? 0.5 : 0;
    a->sb += pa * b->points;
    b->sb += (1 - pa) * a->points;
}

static int by_standing(const void *x, const void *y)
{
    const struct standing *a = x, *b = y;
    if (a->points != b->points)
        return a->points > b->points ? -1 : 1;
    if (a->sb != b->sb)
        return a->sb > b->sb ? -1 : 1;
    if (a->wins != b->wins)
        return b->wins - a->wins;
    return a->seed - b->seed;
}

/* Swiss byes: a player without a pairing (even one aborted since) in a
 * round that has been paired, unless he was withdrawn (banned). */
static bool had_bye(const struct table *tb, int i, int round)
{
    if (strcmp(tb->t.kind, "swiss") != 0 || (tb->p[i].withdrawn && round > tb->p[i].withdrew_in))
        return false;
    for (int k = 0; k < tb->ng; k++)
        if (tb->g[k].round == round && (tb->g[k].axis == tb->p[i].user || tb->g[k].allied == tb->p[i].user))
            return false;
    return true;
}

static void score_byes(struct table *tb)
{
    for (int r = 1; r <= tb->t.round; r++)
        for (int i = 0; i < tb->np; i++)
            if (had_bye(tb, i, r)) {
                tb->p[i].byes++;
                tb->p[i].points += 1;
            }
}

static json_t *byes_json(const struct table *tb)
{
    json_t *list = json_array();
    for (int r = 1; r <= tb->t.round; r++)
        for (int i = 0; i < tb->np; i++)
            if (had_bye(tb, i, r))
                json_array_append_new(list, json_pack("{s:i,s:s}", "round", r, "user", tb->p[i].name));
    return list;
}

static void table_free(struct table *tb) { free(tb->g); }

static int by_round(const void *x, const void *y)
{
    const struct pairing *a = x, *b = y;
    return a->round != b->round ? a->round - b->round : (a->game > b->game) - (a->game < b->game);
}

/* Read a tournament, its players and its games, and score them. -1 with
 * the store's code in *rc. */
static int table_load(struct ak_server *srv, int64_t id, struct table *tb, int *rc)
{
    memset(tb, 0, sizeof *tb);
    int64_t users[PLAYERS_MAX];
    if ((*rc = ak_store_tournament_get(srv->store, id, &tb->t)) != AK_STORE_OK)
        return -1;
    int np = ak_store_tournament_players(srv->store, id, users, PLAYERS_MAX), ng = 0;
    /* Its games from memory, where every pairing is from the moment it is
     * made (the store has it only after the next group commit), aborted
     * ones included: from its own index (ak_seats.c), not every game. */
    struct ak_game *const *games;
    ng = ak_seats_of_tournament(id, &games);
    if (np < 0 || !(tb->g = calloc((size_t)ng + 1, sizeof *tb->g))) {
        *rc = AK_STORE_ERROR;
        return -1;
    }
    for (int i = 0; i < np; i++) {
        struct standing *s = &tb->p[tb->np++];
        struct ak_store_glicko gl;
        s->user = users[i];
        s->seed = i;
        ak_store_user_name(srv->store, users[i], s->name, sizeof s->name);
        s->rating = ak_store_glicko_get(srv->store, users[i], tb->t.ruleset, &gl) == AK_STORE_OK ? gl.rating : 1500;
        bool banned = false;
        int left = 0;
        s->withdrawn = (ak_store_user_banned(srv->store, users[i], &banned) == AK_STORE_OK && banned) ||
                       (ak_store_tournament_withdrawn(srv->store, id, users[i], &left) == AK_STORE_OK && left);
        s->withdrew_in = banned ? 0 : left;
    }
    for (int i = 0; i < ng; i++) {
        const struct ak_game *g = games[i];
        struct ak_game_brief b = ak_game_brief_of(g);
        struct pairing *p = &tb->g[tb->ng++];
        *p = (struct pairing){g->id, g->round, g->player[AK_AXIS], g->player[AK_ALLIED],
                              b.phase == AK_PHASE_OVER ? b.result : AK_RESULT_NONE, b.reason,
                              strcmp(g->meta.status, "active") == 0};
        struct standing *a = player_of(tb, p->axis);
        if (a && p->counts)
            a->axis_games++;
    }
    qsort(tb->g, (size_t)tb->ng, sizeof tb->g[0], by_round);
    for (int i = 0; i < tb->ng; i++)
        score_game(tb, &tb->g[i]);
    score_byes(tb);
    for (int i = 0; i < tb->ng; i++)
        score_sb(tb, &tb->g[i]);
    return 0;
}

static bool met(const struct table *tb, int64_t a, int64_t b)
{
    for (int i = 0; i < tb->ng; i++)
        if ((tb->g[i].axis == a && tb->g[i].allied == b) || (tb->g[i].axis == b && tb->g[i].allied == a))
            return true;
    return false;
}

static const char *name_in(const struct table *tb, int64_t user)
{
    for (int i = 0; i < tb->np; i++)
        if (tb->p[i].user == user)
            return tb->p[i].name;
    return NULL;
}

/* Create the game of one pairing (Axis player challenging the Allied
 * one, both seated, the clock running), its commit kept in held. */
static bool pair(struct ak_server *srv, const struct table *tb, const struct pairing *p, struct ak_held *held)
{
    const struct ak_store_tournament *t = &tb->t;
    struct ak_store_game_meta m = {.challenge = p->allied, .rated = t->rated, .tc_seconds = t->tc_seconds,
                                   .bid = t->bid, .bid_supply = -1};   /* the Axis seat opens the auction */
    struct ak_dice dice;
    int rs = ak_ruleset_find(t->ruleset);
    ak_dice_new(&dice, m.dice_secret, m.dice_commit);
    m.dice_scheme = dice.scheme;
    snprintf(m.tc_per, sizeof m.tc_per, "%s", t->tc_per);
    snprintf(m.tc_expiry, sizeof m.tc_expiry, "%s", t->tc_expiry);
    struct ak_game_setup s = {.ruleset = rs < 0 ? 0 : rs, .side = AK_AXIS, .creator = p->axis, .meta = &m,
                              .dice = &dice, .tournament = t->id, .round = p->round, .seat_other = p->allied,
                              .names = {name_in(tb, p->axis), name_in(tb, p->allied)}, .hold = held};
    /* Every round on the table the tournament was created with, even when
     * the operator has changed or removed it since. */
    if (t->crt_digest[0] && !(s.crt = ak_crt_by_digest(srv, t->crt_digest))) {     /* start() checked it once */
        ak_log(AK_LOG_ERROR, "tournament %s: its combat results table %.16s cannot be read: no game of round %d",
               t->name, t->crt_digest, p->round);
        return false;
    }
    struct ak_game *g = ak_game_create(srv, &s, NULL, NULL);
    if (!g) {
        ak_log(AK_LOG_ERROR, "tournament %s: could not create a game of round %d", t->name, p->round);
        return false;
    }
    ak_log_with(AK_LOG_INFO, &(struct ak_log_ctx){.game = g->id}, "tournament %s, round %d: game %lld, %s (Axis) against %s (Allied)",
                t->name, p->round, (long long)g->id, g->player_name[AK_AXIS], g->player_name[AK_ALLIED]);
    return true;
}

/* The pairings of a round, listed before their games are made. */
struct pairings {
    struct pairing *p;
    int n;
};

static void pairings_add(struct pairings *ps, int round, int64_t axis, int64_t allied)
{
    ps->p[ps->n++] = (struct pairing){.round = round, .axis = axis, .allied = allied, .counts = true};
}

/* The circle method: n players (a dummy makes n even) meet once each in
 * n-1 rounds. Sides are balanced as the pairs are made: the player with
 * fewer Axis games so far (then more Allied ones) takes the Axis, so no
 * one has more than one game more on one side than on the other. With
 * both_sides a second cycle plays every pair again, sides swapped. */
static void pair_round_robin(struct table *tb, struct pairings *ps)
{
    int n = tb->np + (tb->np & 1), rounds = n - 1;
    int seat[PLAYERS_MAX + 1], axis[PLAYERS_MAX] = {0}, allied[PLAYERS_MAX] = {0};
    bool first_axis[PLAYERS_MAX][PLAYERS_MAX];      /* who had the Axis in the first cycle */
    for (int i = 0; i < n; i++)
        seat[i] = i < tb->np ? i : -1;
    for (int cycle = 0; cycle < (tb->t.both_sides ? 2 : 1); cycle++)
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < n / 2; i++) {
                int a = seat[i], b = seat[n - 1 - i];
                if (a < 0 || b < 0)
                    continue;
                bool a_axis = axis[a] != axis[b] ? axis[a] < axis[b]
                            : allied[a] != allied[b] ? allied[a] > allied[b] : ((r + i) & 1) == 0;
                if (cycle == 0)
                    first_axis[a][b] = a_axis, first_axis[b][a] = !a_axis;
                else
                    a_axis = !first_axis[a][b];
                int x = a_axis ? a : b, y = a_axis ? b : a;
                axis[x]++;
                allied[y]++;
                pairings_add(ps, cycle * rounds + r + 1, tb->p[x].user, tb->p[y].user);
            }
            int last = seat[n - 1];     /* rotate all but the first */
            memmove(&seat[2], &seat[1], sizeof seat[0] * (size_t)(n - 2));
            seat[1] = last;
        }
    tb->t.round = rounds * (tb->t.both_sides ? 2 : 1);
}

static int by_points_then_rating(const void *x, const void *y)
{
    const struct standing *a = x, *b = y;
    if (a->points != b->points)
        return a->points > b->points ? -1 : 1;
    if (a->rating != b->rating)
        return a->rating > b->rating ? -1 : 1;
    return a->seed - b->seed;
}

/* Pair the players of order not yet done, best first: each with the next
 * below him he has not met, backing up when the rest cannot be paired
 * (so that no pair meets twice while another pairing exists); with
 * rematches allowed only when there is no such pairing. partner[i] gets
 * i's opponent. The search is bounded (*budget steps); false if it finds
 * nothing within it. */
static bool match(const struct table *tb, const struct standing *order, int n, bool *done, int *partner,
                  bool rematches, long *budget)
{
    int i = 0;
    while (i < n && done[i])
        i++;
    if (i == n)
        return true;
    done[i] = true;
    for (int k = i + 1; k < n && --*budget > 0; k++) {
        if (done[k] || (!rematches && met(tb, order[i].user, order[k].user)))
            continue;
        done[k] = true;
        partner[i] = k;
        partner[k] = i;
        if (match(tb, order, n, done, partner, rematches, budget))
            return true;
        done[k] = false;
    }
    done[i] = false;
    return false;
}

static void pair_swiss_round(struct table *tb, int round, struct pairings *ps)
{
    struct standing order[PLAYERS_MAX];
    bool done[PLAYERS_MAX] = {false}, bye[PLAYERS_MAX] = {false};
    int partner[PLAYERS_MAX], n = 0;
    for (int i = 0; i < tb->np; i++)
        if (!tb->p[i].withdrawn)
            order[n++] = tb->p[i];
    qsort(order, (size_t)n, sizeof order[0], by_points_then_rating);
    if (n & 1)      /* the bye: the lowest-placed player without one yet */
        for (int i = n - 1; i >= 0; i--)
            if (order[i].byes == 0 || i == 0) {
                bye[i] = true;
                break;
            }
    bool found = false;
    for (int pass = 0; pass < 2 && !found; pass++) {
        long budget = 200000;
        memcpy(done, bye, sizeof done);
        found = match(tb, order, n, done, partner, pass == 1, &budget);
    }
    for (int i = 0; found && i < n; i++) {
        int j = partner[i];
        if (bye[i] || j < i)
            continue;
        bool i_axis = order[i].axis_games <= order[j].axis_games;
        pairings_add(ps, round, i_axis ? order[i].user : order[j].user, i_axis ? order[j].user : order[i].user);
    }
}

/* A tournament's new status and round are stored in the same group commit
 * as the games just paired for it (they join the batch in the same loop
 * turn, so they are in the same transaction): a tournament runs, or moves on to its
 * next round, only together with its games, and whoever asked is answered
 * once both are stored. A failed commit undoes the games (their own jobs)
 * and leaves the tournament as it was. Meanwhile the tournament is marked
 * pending, so that the clock's tick or a game that ends cannot pair the
 * same round twice. */
#define PENDING_MAX 256

static json_t *tournament_json(const struct ak_store_tournament *t, int players);

static int64_t pending[PENDING_MAX];
static int npending;
/* Tournaments whose next round was paired but not stored (the commit
 * failed): the clock's tick pairs it again, since no game left to end
 * would. */
static int64_t retry[PENDING_MAX];
static int nretry;

static bool is_pending(int64_t id)
{
    for (int i = 0; i < npending; i++)
        if (pending[i] == id)
            return true;
    return false;
}

static void set_pending(int64_t id, bool on)
{
    for (int i = 0; i < npending; i++)
        if (pending[i] == id) {
            if (!on)
                pending[i] = pending[--npending];
            return;
        }
    if (on && npending < PENDING_MAX)
        pending[npending++] = id;
}

/* Joins of a tournament on their way to the store (op_join): until they
 * are stored it is not started, for its start would read the players
 * without them. */
static struct {
    int64_t id;
    int n;
} joins[PENDING_MAX];

static int *joins_waiting(int64_t id, bool add)
{
    for (int i = 0; i < PENDING_MAX; i++)
        if (joins[i].id == id && joins[i].n > 0)
            return &joins[i].n;
    for (int i = 0; add && i < PENDING_MAX; i++)
        if (joins[i].n == 0) {
            joins[i].id = id;
            return &joins[i].n;
        }
    return NULL;
}

struct round_change {
    int64_t id;
    char name[64], status[16];
    char admin[64];     /* the admin who started it ("": its date came), audited with it */
    int64_t when;
    int round, rounds, players;
    json_t *reply;      /* for who asked, or NULL */
};

static int round_write(struct ak_store *st, const struct ak_commit *k)
{
    const struct round_change *r = k->data;
    int rc = ak_store_tournament_set_round(st, r->id, r->status, r->round, r->rounds);
    if (rc == AK_STORE_OK && r->admin[0])
        rc = ak_store_audit(st, r->when, r->admin, "tournament_start", "tournament", r->name);
    return rc;
}

static void round_answer(struct ak_server *srv, struct ak_commit *k)
{
    struct round_change *r = k->data;
    (void)srv;
    set_pending(r->id, false);
    if (strcmp(r->status, "finished") == 0)
        ak_log(AK_LOG_INFO, "tournament %s finished", r->name);
    else if (r->round == 1 || r->players)
        ak_log(AK_LOG_INFO, "tournament %s started with %d players", r->name, r->players);
    else
        ak_log(AK_LOG_INFO, "tournament %s: round %d paired", r->name, r->round);
    if (r->admin[0])
        ak_log_with(AK_LOG_INFO, AK_LOG_ADMIN(r->admin, r->name, 0), "admin %s: tournament_start tournament %s",
                    r->admin, r->name);
    if (k->conn && r->reply) {
        ak_conn_reply_ok(k->conn, k->id, r->reply);
        r->reply = NULL;
    }
}

static void round_undo(struct ak_server *srv, struct ak_commit *k)
{
    const struct round_change *r = k->data;
    (void)srv;
    set_pending(r->id, false);
    ak_log(AK_LOG_ERROR, "tournament %s: round %d was not stored; it stays as it was%s", r->name, r->round,
           r->players ? "" : " (paired again in a moment)");
    if (!r->players && nretry < PENDING_MAX)
        retry[nretry++] = r->id;
}

static void round_release(void *data)
{
    struct round_change *r = data;
    json_decref(r->reply);
    free(r);
}

static const struct ak_job round_job = {round_write, round_answer, round_undo, round_release, NULL};

/* tb's status and round (as set in tb->t) into the batch, just before
 * its games (work_finish), in r (made before the games are paired, so
 * that pairings never go to the store without their round); c (or NULL)
 * is answered with the tournament once stored. players: how many started
 * it (0: a later round). False: out of memory (its games go back). */
static bool store_round(struct ak_server *srv, const struct table *tb, struct round_change *r, int players,
                        struct ak_conn *c, const json_t *id)
{
    *r = (struct round_change){.id = tb->t.id, .round = tb->t.round, .rounds = tb->t.rounds, .players = players,
                               .when = ak_now(), .reply = c ? tournament_json(&tb->t, tb->np) : NULL};
    snprintf(r->name, sizeof r->name, "%s", tb->t.name);
    snprintf(r->status, sizeof r->status, "%s", tb->t.status);
    if (c)
        snprintf(r->admin, sizeof r->admin, "%s", c->user_name);
    set_pending(tb->t.id, true);
    if (ak_batch_job(srv, c, id, &round_job, NULL, r))
        return true;
    set_pending(tb->t.id, false);
    return false;
}

/* Room to pair a round of tb now; why not in why. */
static struct round_change *round_room(const struct table *tb, char *why, size_t cap)
{
    if (is_pending(tb->t.id))
        return snprintf(why, cap, "tournament %s is starting already", tb->t.name), NULL;
    if (npending >= PENDING_MAX)
        return snprintf(why, cap, "%d tournaments are being paired already; try again in a moment", PENDING_MAX), NULL;
    struct round_change *r = calloc(1, sizeof *r);
    if (!r)
        snprintf(why, cap, "out of memory");
    return r;
}

/* ---- making a round's games, in slices (issue 28) ----
 * A game costs 20 to 30 us to make (its first turn's supply lines, its
 * memory): a 64-player round robin played both ways has 4,032 games, a
 * 100 ms stall if made at once. So a round's pairings are listed first
 * (cheap), and their games made ROUND_SLICE per loop turn from an idle
 * handle, their commits kept out of the batch (ak_held) and unseen (a game
 * being created is found by no command); once the last is made, they and
 * the round join the batch in one loop turn: stored in one transaction
 * before anyone is told, as if made at once. The tournament is pending
 * meanwhile (nothing pairs it twice) and who asked is held (his later
 * requests wait for the answer). Rounds wait in line, the oldest first. */
#define ROUND_SLICE 256

struct round_work {
    struct round_work *next;
    struct table tb;            /* the tournament as it will be stored (g: none) */
    struct round_change *change;
    int players;                /* store_round()'s */
    struct ak_conn *c;          /* who asked (held and referenced), or NULL */
    json_t *id;
    struct pairings ps;
    int made;                   /* ps.p[0..made-1]'s games are made */
    struct ak_held games;       /* their commits */
};

static struct round_work *work_head, **work_tail = &work_head;

static void work_free(struct round_work *w)
{
    if (w->c)
        ak_conn_unref(w->c);
    json_decref(w->id);
    free(w->ps.p);
    free(w);
}

/* w's round, then every game of it, into the batch. */
static void work_finish(struct ak_server *srv, struct round_work *w)
{
    struct ak_conn *c = w->c && !w->c->closing ? w->c : NULL;
    if (c)
        c->busy = false;        /* the batch holds it now, until it is answered */
    /* The round first, then its games, in the same loop turn (one
     * transaction): a round that cannot be queued (out of memory) takes
     * its games back rather than leave them stored without it. */
    if (store_round(srv, &w->tb, w->change, w->players, c, w->id))
        ak_batch_add_held(srv, &w->games);
    else
        ak_batch_drop_held(srv, &w->games);
    if (c && !c->busy)          /* refused at once (out of memory): its next requests run */
        ak_conn_resume(c);
    work_free(w);
}

/* The next slice of the oldest round in line; the round joins the batch
 * once its last game is made. */
static void work_slice(uv_idle_t *h)
{
    struct ak_server *srv = h->data;
    struct round_work *w = work_head;
    if (!w) {
        uv_idle_stop(h);
        return;
    }
    for (int k = 0; k < ROUND_SLICE && w->made < w->ps.n; k++, w->made++)
        pair(srv, &w->tb, &w->ps.p[w->made], &w->games);
    if (w->made < w->ps.n)
        return;
    work_head = w->next;
    if (!work_head)
        work_tail = &work_head;
    work_finish(srv, w);
}

/* tb's round, with the pairings ps (taken), made in slices and stored
 * with change (round_room's); c, or NULL, answered once stored. False
 * (change released, ps freed) if out of memory. */
static bool make_round(struct ak_server *srv, const struct table *tb, struct round_change *change, int players,
                       struct ak_conn *c, const json_t *id, struct pairings *ps)
{
    struct round_work *w = srv->stopping ? NULL : calloc(1, sizeof *w);
    if (!w) {
        free(ps->p);
        round_release(change);
        return false;
    }
    *w = (struct round_work){.tb = *tb, .change = change, .players = players, .c = c,
                             .id = id ? json_deep_copy(id) : NULL, .ps = *ps};
    w->tb.g = NULL;
    w->tb.ng = 0;
    w->games.tail = &w->games.head;
    set_pending(tb->t.id, true);
    if (c) {
        c->refs++;
        ak_conn_hold(c);
    }
    if (!srv->round_idle.data) {
        uv_idle_init(srv->loop, &srv->round_idle);
        srv->round_idle.data = srv;
    }
    *work_tail = w;
    work_tail = &w->next;
    uv_idle_start(&srv->round_idle, work_slice);
    return true;
}

/* At shutdown: rounds not yet made are dropped (nothing of them was
 * stored or told: they are paired again, by an admin or the clock). */
void ak_tournament_stop(struct ak_server *srv)
{
    while (work_head) {
        struct round_work *w = work_head;
        work_head = w->next;
        set_pending(w->tb.t.id, false);
        ak_batch_drop_held(srv, &w->games);
        round_release(w->change);
        work_free(w);
    }
    work_tail = &work_head;
    if (srv->round_idle.data && !uv_is_closing((uv_handle_t *)&srv->round_idle))
        uv_close((uv_handle_t *)&srv->round_idle, NULL);
}

/* A round's pairings: room for every game of the tournament. */
static bool pairings_new(struct pairings *ps, int n)
{
    ps->n = 0;
    ps->p = calloc((size_t)n + 1, sizeof *ps->p);
    return ps->p != NULL;
}

static int start(struct ak_server *srv, struct table *tb, struct ak_conn *c, const json_t *id, char *why, size_t cap)
{
    if (tb->np < 2)
        return snprintf(why, cap, "tournament %s has %d player%s; it needs 2", tb->t.name, tb->np,
                        tb->np == 1 ? "" : "s"), -1;
    bool swiss = strcmp(tb->t.kind, "swiss") == 0;
    int n = tb->np + (tb->np & 1);
    if (swiss && tb->t.rounds <= 0)
        tb->t.rounds = (int)ceil(log2((double)tb->np));
    /* An Updated tournament's games need its table (pair()): without one
     * it stays open rather than running with no games. */
    int r = ak_ruleset_find(tb->t.ruleset);
    if (r >= 0 && ak_ruleset_get(r)->needs_crt_table &&
        !(tb->t.crt_digest[0] ? ak_crt_by_digest(srv, tb->t.crt_digest) : srv->updated_crt))
        return snprintf(why, cap, "tournament %s has no combat results table to pair its games on (the "
                        "operator's updated_crt)", tb->t.name), -1;
    if (joins_waiting(tb->t.id, false))
        return snprintf(why, cap, "players are joining tournament %s this moment; try again", tb->t.name), -1;
    struct round_change *change = round_room(tb, why, cap);
    struct pairings ps;
    if (change && !pairings_new(&ps, n / 2 * (n - 1) * 2)) {
        round_release(change);
        change = NULL;
        snprintf(why, cap, "out of memory");
    }
    if (!change)
        return -1;
    if (swiss)
        pair_swiss_round(tb, 1, &ps);
    else
        pair_round_robin(tb, &ps);
    tb->t.round = swiss ? 1 : (n - 1) * (tb->t.both_sides ? 2 : 1);
    snprintf(tb->t.status, sizeof tb->t.status, "running");
    if (!make_round(srv, tb, change, tb->np, c, id, &ps))
        return snprintf(why, cap, "out of memory, or the server is stopping"), -1;
    return 0;
}

/* ---- commands ---- */

static json_t *tournament_json(const struct ak_store_tournament *t, int players)
{
    return json_pack("{s:I,s:s,s:s,s:s,s:b,s:i,s:i,s:I,s:s,s:{s:i,s:s,s:s},s:b,s:b,s:s,s:i,s:b}", "tournament",
                     (json_int_t)t->id, "name", t->name, "kind", t->kind, "ruleset", t->ruleset, "both_sides",
                     t->both_sides, "rounds", t->rounds, "round", t->round, "starts", (json_int_t)t->starts,
                     "status", t->status, "time_control", "seconds", t->tc_seconds, "per", t->tc_per, "on_expiry",
                     t->tc_expiry, "rated", t->rated, "vacation", t->vacation, "created_by", t->created_by,
                     "players", players, "bid", t->bid);
}

static json_t *standings_json(struct table *tb)
{
    struct standing order[PLAYERS_MAX];
    memcpy(order, tb->p, sizeof order[0] * (size_t)tb->np);
    qsort(order, (size_t)tb->np, sizeof order[0], by_standing);
    json_t *list = json_array();
    for (int i = 0; i < tb->np; i++) {
        const struct standing *s = &order[i];
        json_array_append_new(list, json_pack("{s:i,s:s,s:f,s:f,s:i,s:i,s:i,s:i,s:i,s:i}", "rank", i + 1, "user",
                                              s->name, "points", s->points, "sonneborn_berger", s->sb, "wins",
                                              s->wins, "draws", s->draws, "losses", s->losses, "forfeits",
                                              s->forfeits, "byes", s->byes, "played", s->played));
    }
    return list;
}

static json_t *games_json(struct ak_server *srv, struct table *tb)
{
    json_t *list = json_array();
    for (int i = 0; i < tb->ng; i++) {
        const struct pairing *p = &tb->g[i];
        /* every pairing is in memory, aborted ones too (ak_game_find
         * leaves those out) */
        const struct ak_game *g = srv->game_by_id[p->game];
        json_array_append_new(list, json_pack("{s:I,s:i,s:s,s:s,s:s,s:s,s:s}", "game", (json_int_t)p->game, "round",
                                              p->round, "axis", g->player_name[AK_AXIS], "allied",
                                              g->player_name[AK_ALLIED], "status", g->meta.status, "result",
                                              ak_result_name(p->result), "reason", ak_win_reason_name(p->reason)));
    }
    return list;
}

static int64_t tournament_arg(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    const json_t *t = json_object_get(msg, "tournament");
    if (!json_is_integer(t) || json_integer_value(t) <= 0) {
        ak_conn_reply_error(c, id, "bad_request", "tournament is a tournament's number");
        return 0;
    }
    return (int64_t)json_integer_value(t);
}

/* The table of tournament number in msg; false after an error reply. */
static bool table_arg(struct ak_conn *c, const json_t *id, const json_t *msg, struct table *tb)
{
    int rc;
    int64_t t = tournament_arg(c, id, msg);
    if (!t)
        return false;
    if (table_load(c->srv, t, tb, &rc) == 0)
        return true;
    table_free(tb);
    if (rc == AK_STORE_NOT_FOUND)
        ak_conn_reply_error(c, id, "no_such_tournament", "there is no tournament %lld", (long long)t);
    else
        ak_conn_reply_error(c, id, "internal", "the database could not be read");
    return false;
}

static void op_list(struct ak_conn *c, const json_t *id)
{
    static struct ak_store_tournament list[100];
    int64_t users[PLAYERS_MAX];
    int n = ak_store_tournament_list(c->srv->store, list, 100);
    if (n < 0) {
        ak_conn_reply_error(c, id, "internal", "the database could not be read");
        return;
    }
    json_t *out = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(out, tournament_json(&list[i], ak_store_tournament_players(c->srv->store, list[i].id,
                                                                                         users, PLAYERS_MAX)));
    ak_conn_reply_ok(c, id, json_pack("{s:o}", "tournaments", out));
}

static void op_show(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct table tb;
    if (!table_arg(c, id, msg, &tb))
        return;
    json_t *r = tournament_json(&tb.t, tb.np);
    json_object_set_new(r, "standings", standings_json(&tb));
    json_object_set_new(r, "games", games_json(c->srv, &tb));
    json_object_set_new(r, "byes", byes_json(&tb));
    table_free(&tb);
    ak_conn_reply_ok(c, id, r);
}

/* A player joining, stored in the next group commit (no sync of its own
 * on the loop); the writer finds a second join of the same player (two
 * connections at once) and it is answered already_joined. Until it is
 * stored the tournament is not started (joins_waiting counts them). */
struct joining {
    struct ak_store_tournament t;
    int players;        /* with him */
    int64_t when;
    bool already;       /* the writer's finding */
};

static int join_write(struct ak_store *st, const struct ak_commit *k)
{
    struct joining *j = k->data;
    int rc = ak_store_tournament_join(st, j->t.id, k->user, j->when);
    j->already = rc == AK_STORE_EXISTS;
    return j->already ? AK_STORE_OK : rc;
}

static void join_done(struct ak_server *srv, struct ak_commit *k)
{
    const struct joining *j = k->data;
    int *n = joins_waiting(j->t.id, false);
    (void)srv;
    if (n)
        --*n;
}

static void join_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct joining *j = k->data;
    join_done(srv, k);
    if (j->already)
        ak_conn_reply_error(k->conn, k->id, "already_joined", "you are in tournament %s already", j->t.name);
    else if (k->conn)
        ak_conn_reply_ok(k->conn, k->id, tournament_json(&j->t, j->players));
}

static const struct ak_job join_job = {join_write, join_answer, join_done, NULL, NULL};

static void op_join(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct table tb;
    if (!table_arg(c, id, msg, &tb))
        return;
    if (strcmp(tb.t.status, "open") != 0 || is_pending(tb.t.id))
        ak_conn_reply_error(c, id, "tournament_closed", "tournament %s has started; joining is over", tb.t.name);
    else if (tb.np >= PLAYERS_MAX)
        ak_conn_reply_error(c, id, "tournament_full", "tournament %s has %d players (the most)", tb.t.name, tb.np);
    else if (player_of(&tb, c->user))
        ak_conn_reply_error(c, id, "already_joined", "you are in tournament %s already", tb.t.name);
    else {
        struct joining *j = calloc(1, sizeof *j);
        int *waiting = joins_waiting(tb.t.id, true);
        if (!j || !waiting) {
            free(j);
            ak_conn_reply_error(c, id, "internal", "too many joins at once; nothing changed, try again");
        } else {
            *j = (struct joining){.t = tb.t, .players = tb.np + 1, .when = ak_now()};
            ++*waiting;
            ak_batch_job(c->srv, c, id, &join_job, NULL, j);
        }
    }
    table_free(&tb);
}

bool ak_tournament_player_op(struct ak_conn *c, const json_t *id, const json_t *msg, const char *op)
{
    if (strcmp(op, "list") == 0)
        op_list(c, id);
    else if (strcmp(op, "show") == 0)
        op_show(c, id, msg);
    else if (strcmp(op, "join") == 0)
        op_join(c, id, msg);
    else
        return false;
    return true;
}

bool ak_tournament_busy(int64_t id)
{
    return is_pending(id) || joins_waiting(id, false) != NULL;
}

bool ak_tournament_hold(int64_t id, bool on)
{
    int *n = joins_waiting(id, on);
    if (!n)
        return !on;
    *n += on ? 1 : -1;
    return true;
}

json_t *ak_tournament_json(const struct ak_store_tournament *t, int players)
{
    return tournament_json(t, players);
}

/* ---- the admin's side (ak_admin.c checks the role and audits) ---- */

/* A new tournament, stored (with its table, and the admin's audit row)
 * in the next group commit, not on the loop; the admin is answered with
 * its number once it is stored, or told the name was taken meanwhile. */
struct creation {
    struct ak_store_tournament t;
    char *crt_text;             /* its table's text, when it has one */
    char admin[64];
    int64_t when;
    bool taken;                 /* the writer's finding */
};

static const char *crt_digest_of(const struct ak_store_tournament *t)
{
    return t->crt_digest[0] ? t->crt_digest : NULL;
}

static int creation_write(struct ak_store *st, const struct ak_commit *k)
{
    struct creation *x = k->data;
    char detail[160];
    int rc = x->crt_text ? ak_store_crt_put(st, x->t.crt_digest, x->crt_text) : AK_STORE_OK;
    if (rc == AK_STORE_OK && (rc = ak_store_tournament_create(st, &x->t)) == AK_STORE_EXISTS)
        return x->taken = true, AK_STORE_OK;
    snprintf(detail, sizeof detail, "%s %s", x->t.kind, x->t.name);
    return rc == AK_STORE_OK ? ak_store_audit(st, x->when, x->admin, "tournament_create", "tournament", detail) : rc;
}

static void creation_answer(struct ak_server *srv, struct ak_commit *k)
{
    const struct creation *x = k->data;
    (void)srv;
    if (!x->taken)
        ak_log_with(AK_LOG_INFO, AK_LOG_ADMIN(x->admin, x->t.name, 0), "admin %s: tournament_create tournament %s %s",
                    x->admin, x->t.kind, x->t.name);
    if (k->conn && x->taken)
        ak_conn_reply_error(k->conn, k->id, "bad_request", "a tournament is called %s already", x->t.name);
    else if (k->conn)
        ak_conn_reply_ok(k->conn, k->id, tournament_json(&x->t, 0));
}

static void creation_release(void *data)
{
    struct creation *x = data;
    free(x->crt_text);
    free(x);
}

static const struct ak_job creation_job = {creation_write, creation_answer, NULL, creation_release, NULL};

void ak_tournament_create(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_store_tournament t = {0};
    const char *name = json_string_value(json_object_get(msg, "name"));
    const char *kind = json_string_value(json_object_get(msg, "kind"));
    const char *ruleset = json_string_value(json_object_get(msg, "ruleset"));
    const json_t *rounds = json_object_get(msg, "rounds"), *starts = json_object_get(msg, "starts");
    if (!name || !*name || strlen(name) > 63 || !kind || (strcmp(kind, "round_robin") != 0 && strcmp(kind, "swiss") != 0) ||
        (rounds && (!json_is_integer(rounds) || json_integer_value(rounds) < 1 || json_integer_value(rounds) > 20)) ||
        (starts && !json_is_integer(starts)) || !ak_time_control_parse(json_object_get(msg, "time_control"), &t.tc_seconds, t.tc_per, t.tc_expiry) ||
        ak_ruleset_find(ruleset ? ruleset : "classic") < 0) {
        ak_conn_reply_error(c, id, "bad_request", "a tournament has a name (1 to 63 characters), a kind (round_robin "
                            "or swiss), optional rounds (1 to 20, swiss), both_sides, starts (seconds since the "
                            "epoch), time_control, rated, vacation and a known ruleset");
        return;
    }
    char why[400];
    if (ak_ruleset_unavailable(c->srv, ak_ruleset_find(ruleset ? ruleset : "classic"), why, sizeof why)) {
        ak_conn_reply_error(c, id, "ruleset_unavailable", "%s", why);
        return;
    }
    snprintf(t.name, sizeof t.name, "%s", name);
    snprintf(t.kind, sizeof t.kind, "%s", kind);
    snprintf(t.ruleset, sizeof t.ruleset, "%s", ruleset ? ruleset : "classic");
    snprintf(t.created_by, sizeof t.created_by, "%s", c->user_name);
    /* The Updated ruleset: the tournament's table is today's, kept in the
     * database with it (pair() fights every round on it). */
    const struct ak_crt_held *crt = c->srv->updated_crt;
    if (ak_ruleset_get(ak_ruleset_find(t.ruleset))->needs_crt_table && crt)
        snprintf(t.crt_digest, sizeof t.crt_digest, "%s", crt->digest);
    t.rounds = rounds ? (int)json_integer_value(rounds) : 0;
    t.both_sides = json_is_true(json_object_get(msg, "both_sides"));
    t.bid = json_is_true(json_object_get(msg, "bid"));
    if (t.bid && t.both_sides) {
        ak_conn_reply_error(c, id, "bad_request", "a tournament whose players bid for sides does not also play "
                            "each pairing from both sides");
        return;
    }
    t.rated = json_is_true(json_object_get(msg, "rated"));
    t.vacation = json_is_true(json_object_get(msg, "vacation"));
    t.starts = starts ? (int64_t)json_integer_value(starts) : ak_now() + 7 * 86400;
    struct creation *k = calloc(1, sizeof *k);
    if (!k || (crt_digest_of(&t) && !(k->crt_text = strdup(c->srv->updated_crt->text)))) {
        free(k);
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing changed");
        return;
    }
    k->t = t;
    k->when = ak_now();
    snprintf(k->admin, sizeof k->admin, "%s", c->user_name);
    ak_batch_job(c->srv, c, id, &creation_job, NULL, k);
}

void ak_tournament_start_now(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct table tb;
    char why[200];
    if (!table_arg(c, id, msg, &tb))
        return;
    if (strcmp(tb.t.status, "open") != 0)
        ak_conn_reply_error(c, id, "tournament_closed", "tournament %s has started already", tb.t.name);
    else if (start(c->srv, &tb, c, id, why, sizeof why) != 0)
        ak_conn_reply_error(c, id, "bad_request", "%s", why);
    table_free(&tb);    /* answered once its games and its round are stored */
}

/* ---- hooks: the clock, and games that end ---- */

static void retry_rounds(struct ak_server *srv);

void ak_tournament_tick(struct ak_server *srv)
{
    static int64_t last, warned[64];     /* due tournaments that could not start, said once */
    static int nwarned;
    int64_t now = ak_now(), due[64];
    if (now == last)
        return;     /* once a second is plenty for start dates */
    last = now;
    retry_rounds(srv);
    int n = ak_store_tournaments_due(srv->store, now, due, 64);
    for (int i = 0; i < n; i++) {
        struct table tb;
        int rc;
        char why[200];
        if (is_pending(due[i]))
            continue;       /* starting: its round is on its way to the store */
        if (table_load(srv, due[i], &tb, &rc) == 0 && start(srv, &tb, NULL, NULL, why, sizeof why) != 0) {
            bool said = false;      /* too few players at the start date: it stays open */
            for (int k = 0; k < nwarned && !said; k++)
                said = warned[k] == due[i];
            if (!said && nwarned < 64) {
                warned[nwarned++] = due[i];
                ak_log(AK_LOG_WARN, "tournament %s cannot start: %s (it stays open)", tb.t.name, why);
            }
        }
        table_free(&tb);
    }
}

/* A game of round `round` of tournament tid ended (-1: its current round,
 * a retry): a Swiss pairs its next round when this one is over, and a
 * tournament whose games are all over is finished. */
static void advance(struct ak_server *srv, int64_t tid, int round)
{
    struct table tb;
    int rc;
    char why[200];
    if (is_pending(tid))
        return;     /* the next round is paired already, on its way to the store */
    struct ak_store_tournament t;
    if (ak_store_tournament_get(srv->store, tid, &t) != AK_STORE_OK || strcmp(t.status, "running") != 0)
        return;     /* over or cancelled: read cheaply (a cancel calls off thousands of games) */
    if (joins_waiting(tid, false)) {
        if (nretry < PENDING_MAX)   /* a correction on its way to the store: after it */
            retry[nretry++] = tid;
        return;
    }
    if (table_load(srv, tid, &tb, &rc) != 0 || strcmp(tb.t.status, "running") != 0) {
        table_free(&tb);
        return;
    }
    bool round_over = true, all_over = true;
    for (int i = 0; i < tb.ng; i++) {
        bool over = tb.g[i].result != AK_RESULT_NONE || !tb.g[i].counts;
        all_over &= over;
        round_over &= over || tb.g[i].round != tb.t.round;
    }
    bool swiss = strcmp(tb.t.kind, "swiss") == 0;
    /* Only a game of the current round moves a Swiss on: the next round's
     * games are not stored yet when two of this round end in one commit. */
    bool next = swiss && round_over && (round < 0 || round == tb.t.round) && tb.t.round < tb.t.rounds;
    int active = 0;
    for (int i = 0; i < tb.np; i++)
        active += !tb.p[i].withdrawn;
    if (next && active < 2) {   /* withdrawals left nobody to pair: it is over */
        next = false;
        all_over = true;
    }
    struct round_change *change = next || all_over ? round_room(&tb, why, sizeof why) : NULL;
    if (!change && (next || all_over)) {
        ak_log(AK_LOG_WARN, "tournament %s: %s; its next step waits", tb.t.name, why);
        if (nretry < PENDING_MAX)
            retry[nretry++] = tid;
    } else if (next) {
        struct pairings ps;
        if (pairings_new(&ps, tb.np / 2 + 1)) {
            pair_swiss_round(&tb, tb.t.round + 1, &ps);
            tb.t.round++;
            if (!make_round(srv, &tb, change, 0, NULL, NULL, &ps) && nretry < PENDING_MAX)
                retry[nretry++] = tid;
        } else {
            round_release(change);
            if (nretry < PENDING_MAX)
                retry[nretry++] = tid;
        }
    } else if (all_over) {
        snprintf(tb.t.status, sizeof tb.t.status, "finished");
        store_round(srv, &tb, change, 0, NULL, NULL);
    }
    table_free(&tb);
}

void ak_tournament_game_over(struct ak_server *srv, const struct ak_game *g)
{
    if (g->tournament)
        advance(srv, g->tournament, g->round);
}

/* The rounds whose commit failed, paired again (from the clock's tick). */
static void retry_rounds(struct ak_server *srv)
{
    int n = nretry;
    int64_t ids[PENDING_MAX];
    memcpy(ids, retry, sizeof ids[0] * (size_t)n);
    nretry = 0;
    for (int i = 0; i < n; i++)
        advance(srv, ids[i], -1);
}
