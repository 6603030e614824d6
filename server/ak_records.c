/* ak_records: a game's record and its replay, for players and spectators
 * alike (the page's move list and replay; `akc record` and `verify`).
 *
 *   {"cmd":"record","game"}       the game record (PROTOCOL.md): every
 *                                 action with the outcomes of its rolls,
 *                                 which the game is replayed to give
 *   {"cmd":"replay","game","at"}  the public state after the first `at`
 *                                 actions, replayed from the log
 *
 * Both run the rules engine over the game's log on akd's loop, so both
 * are charged first for the actions they replay, in whole (what the
 * bucket lacks becomes debt, up to another bucket's worth: a long game
 * costs up to two seconds of the budget), to replays_per_second: one bucket for everyone
 * without an account, one per account and one all accounts share
 * (ak_budget.c), so strangers cannot use up the players' own, nor many
 * accounts take more than one bucket in all. A
 * replay reads the log only up to `at` (an index range), and nothing for
 * `at` 0. The log is flushed first only when it lacks an action asked
 * for (g->stored_seq), so strangers cannot force group commits. A record
 * is kept once made (RECORD_CACHE of them, by game and position: the
 * page of every spectator of a game asks for the same one), and one too
 * long for a connection without an account to take (max_output_anonymous)
 * is refused before it is made.
 *
 * What remains (docs/performance.md): the first record of a very long
 * game is made in one piece on the loop (some 10 us an action).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_codec.h"
#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_record.h"
#include "ak_server.h"
#include "ak_victory.h"

#define RECORD_CACHE 8
#define RECORD_BYTES_PER_ACTION 110     /* what a record's action takes, about (measured: 106) */

static struct ak_kept record_slots[RECORD_CACHE];
static struct ak_keep records = {record_slots, RECORD_CACHE, 0};

/* The record's actions, each with the outcomes of its rolls: the game is
 * replayed from its start as the actions are read. */
struct record_ctx {
    json_t *actions;
    const struct ak_game *g;
    struct ak_state *state;     /* NULL: it did not replay (no rolls given) */
    struct ak_events ev;
};

static int record_one(void *ud, uint32_t seq, int side, const char *json, const char *nonce)
{
    struct record_ctx *r = ud;
    json_error_t je;
    json_t *a = json_loads(json, 0, &je), *rolls = NULL;
    struct ak_action act;
    struct ak_reject rej;
    char err[200];
    if (r->state && a && ak_action_from_json(a, side, &act, err, sizeof err)) {
        r->ev.n = 0;
        ak_dice_before_action(&r->g->dice, seq, nonce, r->state);
        if (ak_apply(r->state, &act, &r->ev, &rej) && r->state->actions == seq)
            rolls = ak_record_rolls(&r->ev);
    }
    if (!rolls) {
        free(r->state);     /* the rest cannot be replayed: the record goes without rolls */
        r->state = NULL;
    }
    json_array_append_new(r->actions, json_pack("{s:I,s:s,s:o*,s:s,s:o*}", "seq", (json_int_t)seq, "side",
                                                side == AK_AXIS ? "axis" : "allied", "action", a,
                                                "nonce", nonce ? nonce : "", "rolls", rolls));
    return 0;
}

/* cost from key's replay bucket: what it lacks beyond one bucket's worth
 * becomes debt (up to another bucket's: ak_budget.c). */
static bool charge_whole(const struct ak_config *cfg, uint64_t key, double whole, double first, uint64_t now)
{
    if (!ak_budget_charge(cfg, AK_BUDGET_REPLAY, key, first, now))
        return false;
    if (whole > first)
        ak_budget_spend(cfg, AK_BUDGET_REPLAY, key, whole - first, now);
    return true;
}

/* upto actions replayed, charged before: false (answered) when refused.
 * An account pays its own bucket and the one all accounts share, so
 * neither strangers nor many accounts take more than their part. */
static bool replay_charged(struct ak_conn *c, const json_t *id, uint32_t upto)
{
    const struct ak_config *cfg = &c->srv->cfg;
    uint64_t now = uv_now(c->srv->loop), key = c->user ? ak_budget_user_key(c->user) : AK_BUDGET_REPLAY_KEY;
    double whole = upto, first = whole < cfg->replays_per_second ? whole : cfg->replays_per_second;
    if (upto == 0)
        return true;
    if (c->user && ak_budget_wait(cfg, AK_BUDGET_REPLAY, AK_BUDGET_ACCOUNTS_KEY, first, now) > 0)
        key = AK_BUDGET_ACCOUNTS_KEY;   /* refused below, saying so */
    else if (charge_whole(cfg, key, whole, first, now) &&
             (!c->user || charge_whole(cfg, AK_BUDGET_ACCOUNTS_KEY, whole, first, now)))
        return true;
    ak_conn_throttle(c);
    const char *who = key == AK_BUDGET_ACCOUNTS_KEY ? "akd is replaying games for players right now"
                      : c->user ? "your records and replays have used the actions akd replays for you"
                                : "akd is replaying games for spectators without an account right now";
    ak_conn_reply_error(c, id, "rate_limited", "%s (%d actions a second); try again in %.0f s", who,
                        cfg->replays_per_second, ak_budget_wait(cfg, AK_BUDGET_REPLAY, key, first, now) + 0.5);
    return false;
}

/* The log holds the actions up to upto, and nothing an undo took back
 * (the batch is waited for if not). */
static void stored_up_to(struct ak_server *srv, const struct ak_game *g, uint32_t upto)
{
    if (upto > g->stored_seq || g->undos_unstored)
        ak_batch_flush(srv);
}

static char *record_text(struct ak_server *srv, const struct ak_game *g, size_t *len)
{
    struct record_ctx r = {.actions = json_array(), .g = g, .state = malloc(sizeof *r.state)};
    if (r.state && ak_game_start(g, g->state->ruleset, r.state) != 0) {
        free(r.state);
        r.state = NULL;
    }
    json_t *start_rolls = r.state ? json_array() : NULL;
    if (r.state && r.state->supply_roll)
        json_array_append_new(start_rolls, json_integer(r.state->supply_roll));
    int rc = ak_store_actions_range(srv->store, g->id, 1, g->state->actions, record_one, &r);
    free(r.state);
    if (rc != AK_STORE_OK) {
        json_decref(r.actions);
        json_decref(start_rolls);
        return NULL;
    }
    bool over = g->state->phase == AK_PHASE_OVER;
    char hash[20];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)ak_state_hash(g->state));
    json_t *players = json_pack("{s:s?,s:s?}", "axis", g->player[0] ? g->player_name[0] : NULL,
                                "allied", g->player[1] ? g->player_name[1] : NULL);
    json_error_t je;
    json_t *position = g->position ? json_loads(g->position, 0, &je) : NULL;
    json_t *j = json_pack("{s:s,s:I,s:s,s:o,s:s,s:i,s:s?,s:s,s:s,s:o*,s:o,s:s,s:o*,s:s*,s:s*,s:o*}",
        "format", AK_RECORD_FORMAT, "game", (json_int_t)g->id,
        "ruleset", ak_ruleset_get(g->state->ruleset)->name, "players", players,
        "dice_commit", g->meta.dice_commit, "dice_scheme", g->dice.scheme,
        "dice_secret", over && g->meta.dice_secret[0] ? g->meta.dice_secret : NULL,
        "result", ak_result_name(g->state->result), "reason", ak_win_reason_name(g->state->result_reason),
        "start_rolls", start_rolls, "actions", r.actions, "final_hash", hash, "position", position,
        "crt_table", g->crt ? g->crt->text : NULL, "crt_digest", g->crt ? g->crt->digest : NULL,
        "bid", g->meta.bid ? ak_bid_json(g) : NULL);
    char *text = ak_json_text(j);
    json_decref(j);
    *len = text ? strlen(text) : 0;
    return text;
}

void ak_cmd_record(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = ak_game_arg(c, id, msg);
    if (!g)
        return;
    const struct ak_kept *kept = ak_kept_find(&records, g, ak_state_hash(g->state));
    size_t about = kept ? kept->len : (size_t)g->state->actions * RECORD_BYTES_PER_ACTION;
    if (!c->user && about > c->srv->cfg.max_output_anonymous / 2) {
        ak_conn_reply_error(c, id, "too_large", "game %lld's record is about %zu KiB, more than a connection "
                            "without an account may be sent at once: log in to read it", (long long)g->id,
                            about / 1024);
        return;
    }
    if (kept) {
        ak_conn_reply_ok_text(c, id, kept->text, kept->len);
        return;
    }
    if (!replay_charged(c, id, g->state->actions))
        return;
    stored_up_to(c->srv, g, g->state->actions);
    uint64_t hash = ak_state_hash(g->state);    /* after the flush: a failed commit rolls the state back */
    size_t len;
    char *text = record_text(c->srv, g, &len);
    if (!text) {
        ak_conn_reply_error(c, id, "internal", "could not read the game's actions");
        return;
    }
    /* kept once both seats are taken: a join changes the record's
     * players, not the position */
    ak_conn_reply_ok_text(c, id, text, len);
    if (g->player[AK_AXIS] && g->player[AK_ALLIED])
        ak_kept_put(&records, g, hash, text, len);
    else
        free(text);
}

/* The position after the game's first `at` actions (0: its start), for
 * the replay slider. Only states everyone watching has already seen; the
 * dice of actions to come stay unknown. */
void ak_cmd_replay(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = ak_game_arg(c, id, msg);
    if (!g)
        return;
    const json_t *at = json_object_get(msg, "at");
    if (!json_is_integer(at) || json_integer_value(at) < 0 || json_integer_value(at) > g->state->actions) {
        ak_conn_reply_error(c, id, "bad_request", "\"at\" is a number of actions from 0 to %u (the game's seq)",
                            (unsigned)g->state->actions);
        return;
    }
    uint32_t upto = (uint32_t)json_integer_value(at);
    if (!replay_charged(c, id, upto))
        return;
    stored_up_to(c->srv, g, upto);
    static struct ak_state past;
    if (ak_game_replay(c->srv, g, g->state->ruleset, upto, &past, NULL) != 0 || past.actions != upto) {
        ak_conn_reply_error(c, id, "internal", "game %lld's actions could not be replayed", (long long)g->id);
        return;
    }
    ak_conn_reply_ok(c, id, json_pack("{s:I,s:I,s:o}", "game", (json_int_t)g->id, "seq", (json_int_t)upto,
                                      "state", ak_state_to_json(&past)));
}

/* At akd's stop: the records kept go. */
void ak_records_stop(void)
{
    ak_kept_free(&records);
}
