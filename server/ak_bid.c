/* ak_bid: side auctions (issue 32): "bid one supply to be the British".
 *
 * A seek or challenge may open with a bid (`new` with `bid`: so many
 * supply units for the side named), and a tournament may have its
 * pairings bid (`tournament_create` with `bid`: the Axis seat opens).
 * Once both players are seated they bid in turn with `bid`: a higher
 * number of supply units for the side they want, or `accept` of the
 * other's bid. The bidder sits at the side he bid for (seats are swapped
 * when he bids for the other one), so the seats always show who would
 * play what. On acceptance the last bidder keeps his side and the other
 * player starts with that many extra supply units: the opening position
 * is made with them (common/core/ak_bid.c, the rules' reading) and kept
 * as the game's starting position, so replay, records and their
 * verification need nothing more. Until then no action is taken and the
 * game's clock does not run (the auction has no clock: an organiser
 * aborts or adjudicates a game whose player never bids).
 *
 * Budget: an auction has few steps by construction: each bid is higher
 * than the last and at most the receiving side's room (3 to the Allies, 2
 * to the Axis), so a game sees at most six bids and one acceptance, each
 * one of the account's small writes (the command table), stored in the
 * next group commit like a seat. Anything else is refused before any
 * work: not a player, not his turn to bid, no auction (none made, settled,
 * or the game ended some other way), a bid not higher.
 * What an auction is (going on, whose turn, as clients read it) is
 * ak_bid_state.c's, below the game table.
 */
#include <stdlib.h>
#include <string.h>

#include "ak_bid.h"
#include "ak_codec.h"
#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_server.h"

/* `new`'s optional "bid": N supply units offered to the opponent for the
 * side asked for (a named side, not random), in a game from the
 * campaign's opening; sets the auction going in *m. */
bool ak_bid_new_arg(struct ak_conn *c, const json_t *id, const json_t *msg, int ruleset, int side,
                    struct ak_store_game_meta *m)
{
    const json_t *bid = json_object_get(msg, "bid");
    const char *named = json_string_value(json_object_get(msg, "side"));
    if (!bid || json_is_null(bid))
        return true;
    int max = ak_bid_room(ruleset, !side);
    if (!json_is_integer(bid) || json_integer_value(bid) < 0 || json_integer_value(bid) > max) {
        ak_conn_reply_error(c, id, "bad_request", "\"bid\" is the supply units the %s player would start with "
                            "more: 0 to %d (LOGISTICS: at most %d on board)", ak_bid_side_word(!side), max,
                            ak_data()->scenario.supply_max[!side]);
        return false;
    }
    if (!named || strcmp(named, "random") == 0 || json_object_get(msg, "position")) {
        ak_conn_reply_error(c, id, "bad_request", "a bid is for a side named (axis or allied), in a game from the "
                            "campaign's opening");
        return false;
    }
    m->bid = 1;
    m->bid_supply = (int)json_integer_value(bid);
    m->bid_side = side;
    m->bid_by = c->user;
    return true;
}

/* One step of an auction, as the writer stores it and the loop answers
 * or takes back: the game's seats, figures and starting position after
 * the step, and before it. */
struct bid_step {
    int64_t player[AK_SIDES], old_player[AK_SIDES];
    struct ak_store_game_meta meta, old_meta;
    char *position;                     /* settled: a copy of the new start for the writer, else NULL */
    char *old_position;                 /* settled: the one the game had (taken back by an undo) */
    struct ak_state *old_state;         /* settled: the state before the bid's units */
    int64_t by;
    bool settled, warned, overdue;      /* the clock's flags before the settling started it */
};

static int bid_write(struct ak_store *st, const struct ak_commit *k)
{
    const struct bid_step *d = k->data;
    return ak_store_game_bid(st, k->game_id, d->player, &d->meta, d->position);
}

static void bid_answer(struct ak_server *srv, struct ak_commit *k)
{
    struct ak_game *g = k->g;
    struct bid_step *d = k->data;
    json_t *push = json_pack("{s:s,s:I,s:s,s:o}", "push", "bid", "game", (json_int_t)g->id, "user",
                             ak_bid_user_name(g, d->by) ? ak_bid_user_name(g, d->by) : "", "bid", ak_bid_json(g));
    ak_game_push(g, push);
    json_decref(push);
    const char *by = ak_bid_user_name(g, d->by) ? ak_bid_user_name(g, d->by) : "?";
    struct ak_log_ctx ctx = {k->conn ? k->conn->id : 0, by, g->id, NULL};
    if (d->settled)
        ak_log_with(AK_LOG_INFO, &ctx, "game %lld: %s accepted the bid: %s plays the %s, the %s start with %d "
                    "more supply units", (long long)g->id, by, ak_bid_user_name(g, g->meta.bid_by),
                    ak_bid_side_word(g->meta.bid_side), ak_bid_side_word(!g->meta.bid_side), g->meta.bid_supply);
    else
        ak_log_with(AK_LOG_INFO, &ctx, "game %lld: %s bids %d supply units to play the %s", (long long)g->id, by,
                    g->meta.bid_supply, ak_bid_side_word(g->meta.bid_side));
    int64_t next = ak_bid_to_move(g);
    int waiting = ak_waiting_for(g->state);
    if (next)
        ak_notify(srv, "your_turn", g, next, g->player[AK_AXIS] == next ? AK_AXIS : AK_ALLIED);
    else if (waiting < AK_SIDES && g->player[waiting] != d->by)
        ak_notify(srv, "your_turn", g, g->player[waiting], waiting);
    if (k->conn)
        ak_conn_reply_ok(k->conn, k->id, ak_game_full(g, k->user));
}

static void bid_undo(struct ak_server *srv, struct ak_commit *k)
{
    struct ak_game *g = k->g;
    struct bid_step *d = k->data;
    memcpy(g->player, d->old_player, sizeof g->player);
    g->meta = d->old_meta;
    if (d->settled) {
        free(g->position);      /* the settled start settle() made */
        g->position = d->old_position;
        d->old_position = NULL;
        *g->state = *d->old_state;
        g->warned = d->warned;
        g->overdue = d->overdue;
    }
    ak_game_name_players(srv, g);
}

static void bid_release(void *data)
{
    struct bid_step *d = data;
    free(d->position);
    free(d->old_position);      /* NULL when the undo gave it back to the game */
    free(d->old_state);
    free(d);
}

static const struct ak_job bid_job = {bid_write, bid_answer, bid_undo, bid_release, NULL};

/* Settle the auction: the opening position with the loser's extra supply
 * units becomes the game's start. False (nothing changed) if it cannot be
 * made. */
static bool settle(struct ak_game *g, struct bid_step *d)
{
    static struct ak_state start;
    struct ak_reject rej;
    if (ak_game_start(g, ak_game_brief_of(g).ruleset, &start) != 0 ||
        !ak_bid_place(&start, !g->meta.bid_side, g->meta.bid_supply, &rej))
        return false;
    json_t *j = ak_state_to_json(&start);
    char *text = ak_json_text(j);
    json_decref(j);
    d->old_state = malloc(sizeof *d->old_state);
    if (!text || !d->old_state) {
        free(text);
        return false;
    }
    *d->old_state = *g->state;
    d->warned = g->warned;
    d->overdue = g->overdue;
    d->old_position = g->position;
    g->position = text;
    if (ak_game_start(g, start.ruleset, g->state) != 0) {   /* read back as every replay will */
        free(g->position);
        g->position = d->old_position;
        d->old_position = NULL;
        *g->state = *d->old_state;
        return false;
    }
    g->meta.bid = 2;
    ak_clock_next(g, true);     /* the clock starts with the game */
    d->settled = true;
    return true;
}

/* The step asked for, checked; false after replying with the reason. */
static bool bid_check(struct ak_conn *c, const json_t *id, const json_t *msg, const struct ak_game *g,
                      int seat, int *supply, int *side)
{
    bool accept = json_is_true(json_object_get(msg, "accept"));
    const json_t *n = json_object_get(msg, "supply");
    const char *named = json_string_value(json_object_get(msg, "side"));
    *side = named ? ak_side_parse(named) : seat;
    if (!ak_bid_open(g))
        return ak_conn_reply_error(c, id, "no_auction", "game %lld has no side auction going on", (long long)g->id), false;
    if (ak_game_open(g))
        return ak_conn_reply_error(c, id, "not_started", "game %lld waits for an opponent to bid against",
                                   (long long)g->id), false;
    if (ak_bid_to_move(g) != c->user)
        return ak_conn_reply_error(c, id, "not_your_bid", "it is %s's turn to bid", ak_bid_user_name(g, ak_bid_to_move(g))),
               false;
    if (accept == (n != NULL) || (*side != AK_AXIS && *side != AK_ALLIED) ||
        (n && (!json_is_integer(n) || json_integer_value(n) < 0 || json_integer_value(n) > 99)))
        return ak_conn_reply_error(c, id, "bad_request", "bid with \"accept\": true, or \"supply\": N and an "
                                   "optional \"side\" (axis or allied; yours by default)"), false;
    if (accept && g->meta.bid_supply < 0)
        return ak_conn_reply_error(c, id, "bad_request", "there is no bid to accept yet: you open the auction"), false;
    *supply = accept ? -1 : (int)json_integer_value(n);
    int max = ak_bid_room(ak_game_brief_of(g).ruleset, !*side);
    if (!accept && (*supply <= g->meta.bid_supply || *supply > max))
        return ak_conn_reply_error(c, id, "bad_bid", "a bid for the %s is more than the standing %d and at most %d "
                                   "(the %s may start with at most %d more supply units: LOGISTICS)",
                                   ak_bid_side_word(*side), g->meta.bid_supply, max, ak_bid_side_word(!*side), max), false;
    return true;
}

void ak_cmd_bid(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    int seat, supply, side;
    struct ak_game *g = ak_game_player_arg(c, id, msg, &seat);
    if (!g || !bid_check(c, id, msg, g, seat, &supply, &side))
        return;
    struct bid_step *d = calloc(1, sizeof *d);
    if (!d) {
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing changed");
        return;
    }
    memcpy(d->old_player, g->player, sizeof g->player);
    d->old_meta = g->meta;
    d->by = c->user;
    if (supply < 0) {
        if (!settle(g, d)) {
            bid_release(d);
            ak_conn_reply_error(c, id, "internal", "the opening position could not be made; nothing changed");
            return;
        }
    } else {
        if (seat != side) {     /* the bidder sits at the side he bids for */
            int64_t other = g->player[!seat];
            g->player[side] = c->user;
            g->player[!side] = other;
        }
        g->meta.bid_supply = supply;
        g->meta.bid_side = side;
        g->meta.bid_by = c->user;
    }
    ak_game_name_players(c->srv, g);
    memcpy(d->player, g->player, sizeof g->player);
    d->meta = g->meta;
    if (d->settled && !(d->position = strdup(g->position))) {
        bid_undo(c->srv, &(struct ak_commit){.g = g, .data = d});
        bid_release(d);
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing changed");
        return;
    }
    ak_batch_job(c->srv, c, id, &bid_job, g, d);
}
