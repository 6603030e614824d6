/* ak_bid_state: what a game's side auction is (issue 32), read from the
 * game alone: whether it is going on, whose turn it is to bid, and the
 * auction as clients read it. Below the game table (ak_games.c uses it
 * for summaries and the clock) and the auction's command (ak_bid.c): it
 * calls neither. */
#include <string.h>

#include "ak_bid.h"
#include "ak_server.h"

/* Open: made with an auction not yet settled, and still at its opening
 * (an admin's adjudication, a resignation by withdrawal or deletion can
 * end a game whose auction never ended: then there is none to take part
 * in). */
bool ak_bid_open(const struct ak_game *g)
{
    uint32_t actions = g->state ? g->state->actions : g->brief.actions;
    int phase = g->state ? g->state->phase : g->brief.phase;
    return g->meta.bid == 1 && actions == 0 && phase != AK_PHASE_OVER && strcmp(g->meta.status, "active") == 0;
}

/* Whose turn it is to bid: the Axis seat opens a tournament's auction;
 * then the player who did not make the standing bid. 0: nobody (no open
 * auction, or a seat still empty). */
int64_t ak_bid_to_move(const struct ak_game *g)
{
    if (!ak_bid_open(g) || !g->player[AK_AXIS] || !g->player[AK_ALLIED])   /* a seat still empty */
        return 0;
    if (g->meta.bid_supply < 0)
        return g->player[AK_AXIS];
    return g->player[AK_AXIS] == g->meta.bid_by ? g->player[AK_ALLIED] : g->player[AK_AXIS];
}

const char *ak_bid_side_word(int side)
{
    return side == AK_AXIS ? "axis" : "allied";
}

const char *ak_bid_user_name(const struct ak_game *g, int64_t user)
{
    for (int side = 0; side < AK_SIDES; side++)
        if (user && g->player[side] == user)
            return g->player_name[side];
    return NULL;
}

/* The most supply units side may receive at the campaign's opening in the
 * ruleset (ak_bid_supply_max): worked out once per ruleset, since the
 * opening is the same in every game; every summary of a bid game asks. */
int ak_bid_room(int ruleset, int side)
{
    static int room[8][AK_SIDES];
    static bool known[8];
    if (ruleset < 0 || ruleset >= 8 || side < 0 || side >= AK_SIDES)
        return 0;
    if (!known[ruleset]) {
        static struct ak_state start;
        ak_state_init(&start, ruleset, 1);
        for (int i = 0; i < AK_SIDES; i++)
            room[ruleset][i] = ak_bid_supply_max(&start, i);
        known[ruleset] = true;
    }
    return room[ruleset][side];
}

json_t *ak_bid_json(const struct ak_game *g)
{
    const struct ak_store_game_meta *m = &g->meta;
    if (!m->bid)
        return json_null();
    bool any = m->bid_supply >= 0;
    /* settled: a bid accepted; closed: the game ended (an adjudication, a
     * resignation by withdrawal or deletion, a call-off) before one was */
    const char *status = m->bid == 2 ? "settled" : ak_bid_open(g) ? "open" : "closed";
    json_t *j = json_pack("{s:s,s:o,s:o,s:o}", "status", status,
                          "supply", any ? json_integer(m->bid_supply) : json_null(),
                          "side", any ? json_string(ak_bid_side_word(m->bid_side)) : json_null(),
                          "by", any && ak_bid_user_name(g, m->bid_by) ? json_string(ak_bid_user_name(g, m->bid_by)) : json_null());
    int64_t next = ak_bid_to_move(g);
    json_object_set_new(j, "to_bid", next && ak_bid_user_name(g, next) ? json_string(ak_bid_user_name(g, next)) : json_null());
    json_object_set_new(j, "receives", any ? json_string(ak_bid_side_word(!m->bid_side)) : json_null());
    /* what the receiving side may be given at most, for a raise's bounds */
    int ruleset = g->state ? g->state->ruleset : g->brief.ruleset;
    json_object_set_new(j, "max", json_pack("{s:i,s:i}", "axis", ak_bid_room(ruleset, AK_AXIS),
                                            "allied", ak_bid_room(ruleset, AK_ALLIED)));
    return j;
}

