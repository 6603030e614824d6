/* ak_game_new: making a game, for the lobby's `new` (ak_lobby.c) and a
 * tournament's rounds (ak_tournament.c) alike. The game is numbered and
 * set up in memory at once and stored with the next batch (create_job),
 * or held for a round's one transaction; its creator is answered, and the
 * invited player told, once it is committed. Also the checks both callers
 * make first: a time control, a ruleset this server can play. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_engine.h"
#include "ak_server.h"

/* "time_control": {"seconds": N, "per": "action"|"turn", "on_expiry": "lose"|"wait"} */
bool ak_time_control_parse(const json_t *tc, int *seconds, char per[8], char expiry[8])
{
    snprintf(per, 8, "action");
    snprintf(expiry, 8, "lose");
    *seconds = 0;
    if (!tc || json_is_null(tc))
        return true;
    const json_t *secs = json_object_get(tc, "seconds");
    const char *p = json_string_value(json_object_get(tc, "per"));
    const char *e = json_string_value(json_object_get(tc, "on_expiry"));
    if (!json_is_integer(secs) || json_integer_value(secs) < 1 || json_integer_value(secs) > 90LL * 86400 ||
        (p && strcmp(p, "action") != 0 && strcmp(p, "turn") != 0) ||
        (e && strcmp(e, "lose") != 0 && strcmp(e, "wait") != 0))
        return false;
    *seconds = (int)json_integer_value(secs);
    if (p)
        snprintf(per, 8, "%s", p);
    if (e)
        snprintf(expiry, 8, "%s", e);
    return true;
}

bool ak_ruleset_unavailable(const struct ak_server *srv, int r, char *why, size_t cap)
{
    const struct ak_ruleset *rules = ak_ruleset_get(r);
    if (rules->needs_crt_table && !srv->updated_crt)
        snprintf(why, cap, "the %s ruleset cannot be played on this server: it has no combat results table (the "
                 "operator's updated_crt setting, docs/crt-format.md)", rules->name);
    else
        return false;
    return true;
}

/* `new`: the game's row, under the number akd gave it. */
static int create_write(struct ak_store *st, const struct ak_commit *k)
{
    int64_t gid = k->game_id;
    int rc = k->g->crt ? ak_store_crt_put(st, k->g->crt->digest, k->g->crt->text) : AK_STORE_OK;
    if (rc == AK_STORE_OK)
        rc = ak_store_game_create(st, ak_ruleset_get(k->ruleset)->name, k->seed, k->side, k->user, k->when,
                                  &k->meta, k->g->position, &gid);
    /* a tournament's pairing: its row in the same transaction */
    if (rc == AK_STORE_OK && k->seat_other)
        rc = ak_store_game_seat(st, gid, !k->side, k->seat_other);
    if (rc == AK_STORE_OK && k->tournament)
        rc = ak_store_tournament_add_game(st, k->tournament, k->round, gid);
    return rc;
}

static void create_answer(struct ak_server *srv, struct ak_commit *k)
{
    struct ak_game *g = k->g;
    g->creating = false;
    ak_game_relist(srv, g);
    ak_log_with(AK_LOG_INFO, &(struct ak_log_ctx){k->conn ? k->conn->id : 0, g->player_name[k->side], g->id, NULL},
                "%s created game %lld as %s%s%s", g->player_name[k->side], (long long)g->id,
                ak_side_name(k->side), g->challenge_name[0] ? ", challenging " : "", g->challenge_name);
    if (g->meta.challenge && !k->tournament)
        ak_notify_from(srv, k->user, "challenge", g, g->meta.challenge, !k->side);
    else if (g->meta.challenge)     /* a tournament's pairing: the organiser's, not the creator's doing */
        ak_notify(srv, "challenge", g, g->meta.challenge, !k->side);
    int waiting = ak_waiting_for(g->state);
    int64_t bidder = ak_bid_to_move(g);
    if (bidder)     /* a tournament's auction: the Axis seat opens it */
        ak_notify(srv, "your_turn", g, bidder, AK_AXIS);
    else if (k->seat_other && waiting < AK_SIDES)       /* both seated: it is someone's turn */
        ak_notify(srv, "your_turn", g, g->player[waiting], waiting);
    if (k->conn)
        ak_conn_reply_ok(k->conn, k->id, ak_game_full(g, k->user));
}

static void create_undo(struct ak_server *srv, struct ak_commit *k)
{
    ak_game_remove(srv, k->g);
}

static const struct ak_job create_job = {create_write, create_answer, create_undo, NULL, NULL};

/* The players' names: the caller's when it has them (a tournament's
 * table: thousands of games at once), else the store's. */
static void name_players(struct ak_server *srv, struct ak_game *g, const char *const names[2])
{
    if (!names[AK_AXIS] || !names[AK_ALLIED]) {
        ak_game_name_players(srv, g);
        return;
    }
    for (int side = 0; side < AK_SIDES; side++)
        snprintf(g->player_name[side], sizeof g->player_name[side], "%s", g->player[side] ? names[side] : "");
    int challenged = g->meta.challenge == g->player[AK_AXIS] ? AK_AXIS : AK_ALLIED;
    snprintf(g->challenge_name, sizeof g->challenge_name, "%s",
             g->meta.challenge && g->meta.challenge == g->player[challenged] ? names[challenged] : "");
    ak_game_mark_computers(srv, g);
}

struct ak_game *ak_game_create(struct ak_server *srv, const struct ak_game_setup *s, struct ak_conn *c,
                               const json_t *id)
{
    /* The game is numbered and set up now, and stored with the next batch
     * (create_job); its creator is answered once it is committed. The
     * Updated ruleset's games are fought for life on a table (ak_crt.c):
     * the one given (a tournament's), else the operator's of today; none,
     * no game. */
    const struct ak_crt_held *crt = !ak_ruleset_get(s->ruleset)->needs_crt_table ? NULL
                                  : s->crt ? s->crt : srv->updated_crt;
    if (ak_ruleset_get(s->ruleset)->needs_crt_table && !crt) {
        ak_log(AK_LOG_ERROR, "no game of the %s ruleset without a combat results table", ak_ruleset_get(s->ruleset)->name);
        free(s->position);
        return NULL;
    }
    int64_t gid = srv->next_game_id > 0 ? srv->next_game_id : 1;
    struct ak_commit *k = ak_batch_commit_new(srv);
    struct ak_game *g = k ? ak_game_add(srv, gid) : NULL;
    if (!g) {
        free(s->position);
        free(k);
        return NULL;
    }
    g->creating = true;
    g->position = s->position;
    g->dice = *s->dice;
    g->crt = crt;       /* the row names it */
    g->meta = *s->meta;
    snprintf(g->meta.crt_digest, sizeof g->meta.crt_digest, "%s", g->crt ? g->crt->digest : "");
    if (s->start) {
        *g->state = *s->start;      /* read from the request: not parsed again */
        ak_game_attach_crt(g, g->state);
    } else {
        ak_game_start(g, s->ruleset, g->state);
    }
    snprintf(g->meta.status, sizeof g->meta.status, "active");
    ak_game_seat(g, s->side, s->creator);
    ak_game_seat(g, !s->side, s->seat_other);
    ak_seats_challenged(g);
    g->tournament = s->tournament;
    ak_seats_paired(g);
    g->round = s->round;
    name_players(srv, g, s->names);
    ak_clock_next(g, true);     /* both seated: the clock runs from now */
    if (c)
        ak_game_watch(c, g);
    k->job = &create_job;
    k->g = g;
    k->side = s->side;
    k->user = s->creator;
    k->ruleset = s->ruleset;
    k->seed = s->dice->scheme == AK_DICE_LEGACY ? s->dice->seed : 0;     /* scheme 2 has no seed */
    k->when = ak_now();
    k->meta = g->meta;
    k->tournament = s->tournament;
    k->round = s->round;
    k->seat_other = s->seat_other;
    k->conn = c;
    k->id = id ? json_deep_copy(id) : NULL;
    if (s->hold)
        ak_batch_hold(s->hold, k);
    else
        ak_batch_add(srv, k);
    return g;
}
