/* ak_play: refereed actions and the queries a client asks while playing.
 *
 * `act` reads an action for the player's side, lets the rules library
 * decide on a copy of the state (ak_apply), and commits it through
 * ak_game_commit; `dests`, `why`, `odds`, `options` and `overlay` answer
 * from the same library without changing anything.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_battle.h"
#include "ak_codec.h"
#include "ak_combat.h"
#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_query.h"
#include "ak_server.h"

static json_t *reject_json(const struct ak_reject *rej)
{
    return json_pack("{s:s,s:s,s:s}", "rule", rej->code, "section", rej->section, "message", rej->text);
}

static void reply_illegal(struct ak_conn *c, const json_t *id, const struct ak_reject *rej)
{
    json_t *m = ak_msg_error(id, "illegal", rej->text);
    json_t *e = json_object_get(m, "error");
    json_object_set_new(e, "rule", json_string(rej->code));
    json_object_set_new(e, "section", json_string(rej->section));
    ak_conn_send(c, m);
    json_decref(m);
}

void ak_cmd_act(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    int side;
    struct ak_game *g = ak_game_player_arg(c, id, msg, &side);
    if (!g)
        return;
    if (ak_game_open(g)) {
        ak_conn_reply_error(c, id, "not_started", "game %lld waits for an opponent", (long long)g->id);
        return;
    }
    if (ak_bid_open(g)) {
        ak_conn_reply_error(c, id, "bid_open", "game %lld begins when its side auction is over: %s to bid",
                            (long long)g->id, ak_bid_to_move(g) == c->user ? "you" : "your opponent");
        return;
    }
    struct ak_action a;
    char err[200];
    if (!ak_action_from_json(json_object_get(msg, "action"), side, &a, err, sizeof err)) {
        ak_conn_reply_error(c, id, "bad_action", "%s", err);
        return;
    }
    if (a.kind == AK_ACT_TIMEOUT || a.kind == AK_ACT_ADJUDICATE) {
        ak_conn_reply_error(c, id, "bad_action", a.kind == AK_ACT_TIMEOUT ? "only the server declares a loss on time"
                                                                       : "only an admin adjudicates a game (akc admin adjudicate)");
        return;
    }
    if (a.kind == AK_ACT_RESIGN && g->player[0] == g->player[1])
        a.side = (uint8_t)g->state->side;
    /* The player's own randomness for the dice of this action (ak_dice.h):
     * optional, so that old clients still play, recorded as sent. */
    const json_t *nonce = json_object_get(msg, "nonce");
    if ((nonce && !json_is_string(nonce)) || !ak_nonce_valid(json_string_value(nonce))) {
        ak_conn_reply_error(c, id, "bad_request", "\"nonce\" must be 0 to %d hex digits", AK_NONCE_MAX);
        return;
    }
    static struct ak_state next;
    struct ak_events ev = {0};
    struct ak_reject rej;
    if (!ak_game_try(g, &a, json_string_value(nonce), &next, &ev, &rej)) {
        reply_illegal(c, id, &rej);
        return;
    }
    /* The reply follows the commit (ak_batch.c). */
    if (!ak_game_commit(c->srv, g, &a, json_string_value(nonce), &next, &ev,
                        a.side == AK_AXIS ? "axis" : "allied", c, id))
        ak_conn_reply_error(c, id, "internal", "out of memory; nothing changed");
}

static bool units_arg(struct ak_conn *c, const json_t *id, const json_t *msg, struct ak_action *a)
{
    char err[200];
    json_t *fake = json_pack("{s:s,s:O?,s:O?}", "action", "embark", "units", json_object_get(msg, "units"),
                             "unit", json_object_get(msg, "unit"));
    bool ok = ak_action_from_json(fake, 0, a, err, sizeof err);
    json_decref(fake);
    if (!ok)
        ak_conn_reply_error(c, id, "bad_request", "%s", err);
    return ok;
}

static json_t *dest_json(const struct ak_dest *d)
{
    char b[8];
    json_t *path = json_array();
    for (int i = 0; i < d->npath; i++)
        json_array_append_new(path, json_string(ak_hex_format(d->path[i], b)));
    return json_pack("{s:s,s:i,s:i,s:b,s:o}", "hex", ak_hex_format(d->hex, b),
                     "squares", d->road + d->clear, "road", d->road, "halts", d->halts, "path", path);
}

void ak_cmd_dests(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = ak_game_arg(c, id, msg);
    struct ak_action a;
    if (!g || !units_arg(c, id, msg, &a))
        return;
    static struct ak_dest dests[AK_HEX_COUNT];
    struct ak_reject rej;
    int side = ak_def(a.units[0])->side;
    int n = ak_move_destinations(g->state, side, a.units, a.nunits, dests, AK_HEX_COUNT, &rej);
    if (n < 0) {
        reply_illegal(c, id, &rej);
        return;
    }
    json_t *list = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(list, dest_json(&dests[i]));
    ak_conn_reply_ok(c, id, json_pack("{s:o}", "dests", list));
}

static json_t *squares_json(const uint8_t *on)
{
    json_t *list = json_array();
    char t[8];
    for (ak_hex h = 0; h < AK_HEX_COUNT; h++)
        if (on[h])
            json_array_append_new(list, json_string(ak_hex_format(h, t)));
    return list;
}

/* The overlay of a game after its seq-th action, encoded: a spectator
 * flood of one game costs one computation per position (a few hundred
 * squares to encode), not one per request. A few games at a time;
 * the oldest entry goes first. */
#define OVERLAY_CACHE 16
static struct ak_kept overlay_slots[OVERLAY_CACHE];
static struct ak_keep overlays = {overlay_slots, OVERLAY_CACHE, 0};

static char *overlay_text(const struct ak_game *g, size_t *len)
{
    static uint8_t zone[AK_SIDES][AK_HEX_COUNT], supply[AK_SIDES][AK_HEX_COUNT];
    for (int side = 0; side < AK_SIDES; side++)
        ak_overlay(g->state, side, zone[side], supply[side]);
    /* zone[side] holds the squares in the zones of side's enemy */
    json_t *j = json_pack("{s:I,s:I,s:{s:o,s:o},s:{s:o,s:o}}", "game", (json_int_t)g->id, "seq",
                          (json_int_t)g->state->actions, "zones", "axis", squares_json(zone[AK_ALLIED]), "allied",
                          squares_json(zone[AK_AXIS]), "supply", "axis", squares_json(supply[AK_AXIS]), "allied",
                          squares_json(supply[AK_ALLIED]));
    char *text = ak_json_text(j);
    json_decref(j);
    *len = text ? strlen(text) : 0;
    return text;
}

/* {"cmd":"overlay","game"}: what a map overlay shows of the game now, for
 * both sides: the squares each side's zones of control cover, and those
 * where each side's units would be in supply (the ruleset's sense). Read
 * from the public state, so spectators may ask too. */
void ak_cmd_overlay(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = ak_game_arg(c, id, msg);
    if (!g)
        return;
    uint64_t hash = ak_state_hash(g->state);
    const struct ak_kept *kept = ak_kept_find(&overlays, g, hash);
    if (kept) {
        ak_conn_reply_ok_text(c, id, kept->text, kept->len);
        return;
    }
    size_t len;
    char *text = overlay_text(g, &len);
    if (!text) {
        ak_conn_reply_error(c, id, "internal", "out of memory");
        return;
    }
    ak_kept_put(&overlays, g, hash, text, len);
    ak_conn_reply_ok_text(c, id, text, len);
}

/* At akd's stop: the cached overlays go (no leak reported). */
void ak_play_stop(void)
{
    ak_kept_free(&overlays);
}

void ak_cmd_why(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = ak_game_arg(c, id, msg);
    struct ak_action a;
    if (!g || !units_arg(c, id, msg, &a))
        return;
    ak_hex to = ak_hex_parse(json_string_value(json_object_get(msg, "to")));
    if (to == AK_HEX_NONE) {
        ak_conn_reply_error(c, id, "bad_request", "\"to\" must be a square such as \"W16\"");
        return;
    }
    struct ak_dest d;
    struct ak_reject rej;
    int side = ak_def(a.units[0])->side;
    if (ak_move_route(g->state, side, a.units, a.nunits, to, &d, &rej))
        ak_conn_reply_ok(c, id, json_pack("{s:b,s:o}", "reachable", 1, "route", dest_json(&d)));
    else
        ak_conn_reply_ok(c, id, json_pack("{s:b,s:o}", "reachable", 0, "reason", reject_json(&rej)));
}

/* The ruleset's preview of the battle a asks for, on the state before
 * the declaration (the same figures as the declaration's). */
static void preview_of(const struct ak_state *s, const struct ak_action *a, struct ak_battle_preview *p)
{
    uint8_t att[AK_GROUP_MAX], def[AK_GROUP_MAX];
    int na, nd;
    memset(p, 0, sizeof *p);
    p->supply = AK_UNIT_NONE;
    if (ak_combat_split_sides(s, a, att, &na, def, &nd, NULL))
        ak_battle_preview(s, att, na, def, nd, a->supply, p);
}

/* Each result the die can give, with its chance out of the die's faces. */
static json_t *outcomes_json(const struct ak_battle_preview *p)
{
    json_t *out = json_array();
    for (int i = 0; i < p->nresults; i++)
        json_array_append_new(out, json_pack("{s:s,s:i,s:i}", "result", p->result[i].name, "chances",
                                             p->result[i].chances, "of", p->faces));
    return out;
}

/* The supply units that could sustain a battle that needs one, to choose
 * among (absent when it needs none). */
static void add_sustainers(json_t *reply, const struct ak_battle_preview *p)
{
    if (!p->needs_supply)
        return;
    json_t *names = json_array();
    for (int i = 0; i < p->nsustain; i++)
        json_array_append_new(names, json_string(ak_def(p->sustain[i])->shortname));
    json_object_set_new(reply, "sustained_by", names);
}

/* The odds a battle would be fought at, before it is declared: the
 * declaration applied to a copy of the state, exactly as `act` would
 * (terrain, supply, every declaration rule). Only a declaration: it rolls
 * no die, where trying a resolution would tell the roll of a nonce. */
void ak_cmd_odds(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    struct ak_game *g = ak_game_arg(c, id, msg);
    if (!g)
        return;
    json_t *fake = json_pack("{s:s,s:O?,s:O?,s:O?}", "action", "battle", "attackers", json_object_get(msg, "attackers"),
                             "defenders", json_object_get(msg, "defenders"), "supply", json_object_get(msg, "supply"));
    struct ak_action a;
    char err[200];
    bool ok = ak_action_from_json(fake, g->state->side, &a, err, sizeof err);
    json_decref(fake);
    if (!ok) {
        ak_conn_reply_error(c, id, "bad_request", "%s", err);
        return;
    }
    static struct ak_state next;
    struct ak_events ev = {0};
    struct ak_reject rej;
    struct ak_battle_preview p;
    preview_of(g->state, &a, &p);
    next = *g->state;
    if (!ak_apply(&next, &a, &ev, &rej)) {
        json_t *refused = json_pack("{s:b,s:o}", "legal", 0, "reason", reject_json(&rej));
        add_sustainers(refused, &p);
        ak_conn_reply_ok(c, id, refused);
        return;
    }
    /* As the state's battles say it: the Updated ruleset's in half points
     * with the die modifier, on the game's own table. */
    const struct ak_battle *b = &next.battle[next.nbattles - 1];
    const struct ak_ruleset *r = ak_ruleset_get(next.ruleset);
    json_t *reply = json_pack("{s:b,s:i,s:i,s:s}", "legal", 1, "attack", b->attack, "defense", b->defense, "odds",
                              r->odds_name(&next, b->column));
    if (r->needs_crt_table)
        json_object_set_new(reply, "drm", json_integer(b->drm));
    json_object_set_new(reply, "outcomes", outcomes_json(&p));
    add_sustainers(reply, &p);
    ak_conn_reply_ok(c, id, reply);
}

/* Why `options` lists no action: the game is over, or only moves are left
 * (the portion cannot end yet: the engine's reason), or the side to move
 * has nothing it may do but moves. */
static const char *none_because(const struct ak_state *s)
{
    static char why[400];
    if (s->phase == AK_PHASE_OVER)
        return "the game is over";
    struct ak_action end = {.kind = (uint8_t)ak_ending_action(s), .side = (uint8_t)ak_waiting_for(s), .hex = AK_HEX_NONE,
                            .supply = AK_UNIT_NONE};
    struct ak_reject rej;
    if (s->pending.kind == 0 && !ak_try(s, &end, &rej)) {
        snprintf(why, sizeof why, "only moves are possible (ask `dests`): the %s cannot end yet: %s (%s)",
                 ak_phase_words(s), rej.text, rej.section);
        return why;
    }
    return "no action but moves is open to the side to move (ask `dests`)";
}

void ak_cmd_options(struct ak_conn *c, const json_t *id, const json_t *msg)
{
    static struct ak_action list[1024];
    struct ak_game *g = ak_game_arg(c, id, msg);
    if (!g)
        return;
    int w = ak_waiting_for(g->state), mine = c->user ? ak_game_side_of(g, c->user) : -1;
    /* A player's own options only: the one who is not awaited is told
     * whom the game waits for, never offered the other side's actions. */
    bool open = ak_game_open(g);    /* nothing can be done before both seats are taken */
    bool not_yours = open || (mine >= 0 && w < AK_SIDES && mine != w);
    int n = not_yours ? 0 : ak_legal_actions(g->state, 0, list, 1024);
    json_t *kinds = json_array(), *actions = json_array();
    unsigned mask = not_yours ? 0 : ak_possible_actions(g->state);
    for (int k = 0; k < AK_ACT_KINDS; k++)
        if (mask & (1u << k))
            json_array_append_new(kinds, json_string(ak_action_kind_name(k)));
    for (int i = 0; i < n; i++)
        json_array_append_new(actions, ak_action_to_json_in(&list[i], g->state));
    json_t *reply = json_pack("{s:s?,s:o,s:o,s:o}", "waiting_for",
                              w == AK_AXIS ? "axis" : w == AK_ALLIED ? "allied" : NULL, "kinds", kinds,
                              "actions", actions, "hazards", ak_hazards_to_json(g->state));
    if (open)
        json_object_set_new(reply, "none_because", json_string("the game waits for an opponent to join"));
    else if (not_yours)
        json_object_set_new(reply, "none_because", json_pack_ex(NULL, 0, "s++", "the game waits for the ",
                                                                 w == AK_AXIS ? "Axis" : "Allied", " player, not for you"));
    else if (n == 0)
        json_object_set_new(reply, "none_because", json_string(none_because(g->state)));
    ak_conn_reply_ok(c, id, reply);
}
