/* ak_player: a random player that plays from the engine's queries. */
#include "ak_player.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_query.h"
#include "ak_stacking.h"
#include "ak_updated.h"

extern const char ak_test_crt_txt[];
#include "ak_sustain.h"
#include "ak_zoc.h"

#define ACTIONS_MAX AK_PLAYER_ACTIONS_MAX
#define LIST_MAX 4096


static int pick(struct ak_player_game *g, int n)
{
    return n <= 1 ? 0 : (int)(ak_rng_next(&g->player) % (uint64_t)n);
}

static bool fail(const struct ak_player_game *g, const char *what)
{
    fprintf(stderr, "violation after action %d (turn %d, %s %s): %s\n", g->n, g->s.turn,
            ak_side_name(g->s.side), ak_phase_name(g->s.phase), what);
    return false;
}

static bool invariants(const struct ak_player_game *g)
{
    const struct ak_state *s = &g->s;
    const struct ak_scenario *sc = &ak_data()->scenario;
    static uint8_t count[AK_SIDES][AK_HEX_COUNT];
    memset(count, 0, sizeof count);
    char why[200];
    if (!ak_state_check(s, why, sizeof why))      /* what every loader asks of a state */
        return fail(g, why);
    int supply[AK_SIDES] = {0, 0};
    for (int u = 0; u < s->units; u++) {
        const struct ak_unit *x = &s->unit[u];
        const struct ak_unit_def *d = ak_def(u);
        if (x->where != AK_AT_BOARD) {
            if (x->where == AK_AT_DEAD && (x->hex != AK_HEX_NONE || d->type == AK_TYPE_SUPPLY))
                return fail(g, "a unit in the dead pile has a square, or is a supply unit");
            continue;
        }
        if (!ak_enterable(x->hex))
            return fail(g, "a unit stands off the board, at sea or in the Qattara");
        if (x->battle > s->nbattles)
            return fail(g, "a unit names a battle that does not exist");
        if (ak_unit_is_combat(d))
            count[d->side][x->hex]++;
        if (d->type == AK_TYPE_SUPPLY && !d->captured_counter)
            supply[d->side]++;
    }
    for (int h = 0; h < AK_HEX_COUNT; h++) {
        if (count[0][h] && count[1][h])
            return fail(g, "enemy combat units share a square");
        /* Stacks are judged once their side has ended a movement portion:
         * the opening position has more than three to a square. */
        for (int side = 0; side < AK_SIDES; side++) {
            bool settled = side == s->side ? s->phase != AK_PHASE_MOVEMENT
                                           : !(s->turn == 1 && side == AK_ALLIED);
            if (count[side][h] > 1 && settled &&
                !ak_stack_room(ak_ruleset_get(s->ruleset), s, (ak_hex)h, side, NULL, 0, NULL))
                return fail(g, "more combat units in a square than the stacking rules allow");
        }
    }
    for (int side = 0; side < AK_SIDES; side++)
        if (supply[side] > sc->supply_max[side])
            return fail(g, "more own supply units on board than the quota");
    return true;
}

/* After every action: the waiting player can still finish (issue 34). */
static bool way_forward(struct ak_player_game *g)
{
    g->forward_checks++;
    enum ak_forward f = ak_way_forward(&g->s, g->forward_budget > 0 ? g->forward_budget : 20000);
    if (f == AK_FORWARD_UNKNOWN) {
        g->forward_unknown++;
        if (getenv("AK_FORWARD_VERBOSE")) {
            struct ak_action end = {.kind = (uint8_t)ak_ending_action(&g->s), .side = (uint8_t)ak_waiting_for(&g->s)};
            struct ak_reject rej = {0};
            ak_try(&g->s, &end, &rej);
            fprintf(stderr, "undecided after action %d (%s %s, pending %d, battles %d): %s %s\n", g->n,
                    ak_side_name(g->s.side), ak_phase_name(g->s.phase), g->s.pending.kind, g->s.nbattles,
                    rej.code, rej.text);
        }
    }
    if (f != AK_FORWARD_DEAD_END)
        return true;
    struct ak_action end = {.kind = (uint8_t)ak_ending_action(&g->s), .side = (uint8_t)g->s.side};
    struct ak_reject rej;
    if (!ak_try(&g->s, &end, &rej))
        fprintf(stderr, "%s: %s %s\n", ak_action_kind_name(end.kind), rej.code, rej.text);
    return fail(g, "a dead end: no legal way to finish the part of the turn");
}

static bool apply(struct ak_player_game *g, const struct ak_action *a)
{
    struct ak_reject rej;
    if (g->before_apply)
        g->before_apply(g, a);
    if (!ak_apply(&g->s, a, NULL, &rej)) {
        fprintf(stderr, "an offered %s was rejected: %s %s\n", ak_action_kind_name(a->kind),
                rej.code, rej.text);
        return false;
    }
    g->log[g->n] = *a;
    g->hash[g->n++] = ak_state_hash(&g->s);
    return (!g->check || invariants(g)) && (!g->forward || way_forward(g));
}

static int filter_kind(const struct ak_action *in, int n, int kind, struct ak_action *out)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (in[i].kind == kind)
            out[k++] = in[i];
    return k;
}

/* A careful player leaves no unit in an enemy zone without supply in reach
 * (SUSTAIN ATTACKS 2): the engine would let him bring it later, by a
 * capture say, which this player cannot plan. */
static bool keeps_supply_reach(const struct ak_state *s, const struct ak_action *a, bool risky)
{
    static struct ak_state copy;
    uint8_t late[AK_GROUP_MAX];
    if (!risky)
        return true;
    int now = ak_sustain_out_of_reach(s, late, AK_GROUP_MAX);
    copy = *s;
    return ak_apply(&copy, a, NULL, NULL) && ak_sustain_out_of_reach(&copy, late, AK_GROUP_MAX) <= now;
}

/* A move for a random unit that has not moved: stacks stay within three,
 * supply units keep away from the enemy (so the portion can always end). */
static bool random_move(struct ak_player_game *g, struct ak_action *out)
{
    static struct ak_action moves[LIST_MAX];
    const struct ak_state *s = &g->s;
    int tries = 8;
    while (tries-- > 0) {
        int u = pick(g, s->units);
        const struct ak_unit *x = &s->unit[u];
        if (ak_def(u)->side != s->side || x->where != AK_AT_BOARD ||
            (x->flags & (AK_U_MOVED | AK_U_HALTED | AK_U_NO_MOVE)))
            continue;
        int n = ak_legal_moves(s, u, moves, LIST_MAX), k = 0;
        static uint8_t near_enemy[AK_HEX_COUNT], own[AK_HEX_COUNT];
        ak_mark_near_enemy(s, s->side, near_enemy);
        memset(own, 0, sizeof own);
        bool units_near_enemy = false;
        for (int v = 0; v < s->units; v++)
            if (ak_def(v)->side == s->side && ak_on_board(s, v) && ak_unit_is_combat(ak_def(v))) {
                own[s->unit[v].hex]++;
                units_near_enemy = units_near_enemy || near_enemy[s->unit[v].hex];
            }
        for (int i = 0; i < n; i++) {
            ak_hex h = moves[i].hex;
            bool ok = ak_unit_is_combat(ak_def(u)) ? own[h] < 3 : g->reckless || !near_enemy[h];
            /* Only a combat unit going next to the enemy, or supply moving
             * while units stand there, can leave a unit out of reach. */
            bool risky = ak_unit_is_combat(ak_def(u)) ? near_enemy[h] != 0 : units_near_enemy;
            if (ok && keeps_supply_reach(s, &moves[i], risky))
                moves[k++] = moves[i];
        }
        if (k > 0 && g->toward_enemy && pick(g, 2) == 0) {
            /* the move ending nearest an enemy combat unit */
            int best = 0, best_d = 1 << 20;
            for (int i = 0; i < k; i++)
                for (int e = 0; e < s->units; e++)
                    if (ak_def(e)->side != s->side && ak_on_board(s, e) && ak_unit_is_combat(ak_def(e)) &&
                        ak_hex_distance(s->unit[e].hex, moves[i].hex) < best_d) {
                        best_d = ak_hex_distance(s->unit[e].hex, moves[i].hex);
                        best = i;
                    }
            *out = moves[best];
            return true;
        }
        if (k > 0) {
            *out = moves[pick(g, k)];
            return true;
        }
    }
    return false;
}

/* SUSTAIN ATTACKS 2: units moved into enemy zones beyond supply reach
 * hold the portion open; a supply move that brings fewer out of reach. */
static bool supply_forward(struct ak_player_game *g, struct ak_action *out)
{
    static struct ak_action moves[LIST_MAX];
    static struct ak_state copy;
    uint8_t late[AK_GROUP_MAX];
    const struct ak_state *s = &g->s;
    int now = ak_sustain_out_of_reach(s, late, AK_GROUP_MAX);
    if (now == 0)
        return false;
    for (int u = 0; u < s->units; u++) {
        if (ak_def(u)->side != s->side || ak_def(u)->type != AK_TYPE_SUPPLY || !ak_on_board(s, u))
            continue;
        int n = ak_legal_moves(s, u, moves, LIST_MAX);
        for (int i = 0; i < n; i++) {
            copy = *s;
            if (ak_apply(&copy, &moves[i], NULL, NULL) &&
                ak_sustain_out_of_reach(&copy, late, AK_GROUP_MAX) < now) {
                *out = moves[i];
                return true;
            }
        }
    }
    return false;
}

/* A move of any unit, moved already or not, after which the portion can
 * end, or else one that changes why it cannot (one of two supply units
 * next to the enemy mended, say): what a player does when his last moves
 * left something to mend (LOGISTICS, MOVEMENT 5). */
static bool mending_move(struct ak_player_game *g, struct ak_action *out)
{
    static struct ak_action moves[LIST_MAX];
    static struct ak_state copy;
    const struct ak_state *s = &g->s;
    struct ak_action end = {.kind = AK_ACT_END_MOVEMENT, .side = s->side, .hex = AK_HEX_NONE,
                            .supply = AK_UNIT_NONE};
    struct ak_reject was = {0}, now;
    ak_try(s, &end, &was);
    bool other = false;
    for (int u = 0; u < s->units; u++) {
        if (ak_def(u)->side != s->side || !ak_on_board(s, u))
            continue;
        int n = ak_legal_moves(s, u, moves, LIST_MAX);
        for (int i = 0; i < n; i++) {
            copy = *s;
            memset(&now, 0, sizeof now);
            if (!ak_apply(&copy, &moves[i], NULL, NULL))
                continue;
            if (ak_try(&copy, &end, &now)) {
                *out = moves[i];
                return true;
            }
            if (!other && was.code && now.code && strcmp(was.text, now.text) != 0) {
                *out = moves[i];
                other = true;
            }
        }
    }
    return other;
}

static bool movement_step(struct ak_player_game *g, struct ak_action *list, int n)
{
    static struct ak_action some[LIST_MAX];
    struct ak_action a;
    int k = filter_kind(list, n, AK_ACT_PLACE, some);
    if (k > 0 && pick(g, 3) > 0) {
        int i = pick(g, k);
        if (keeps_supply_reach(&g->s, &some[i], true))
            return apply(g, &some[i]);
    }
    /* the Updated ruleset's boxes, now and then, when supply is plentiful */
    if ((k = filter_kind(list, n, AK_ACT_FORTIFY, some)) > 0 && ak_own_supply_on_board(&g->s, g->s.side) >= 3 &&
        pick(g, 8) == 0)
        return apply(g, &some[pick(g, k)]);
    bool can_end = filter_kind(list, n, AK_ACT_END_MOVEMENT, some) > 0;
    if (g->moves_left > 0 || !can_end) {
        g->moves_left--;
        if (!can_end && g->moves_left <= 0 && (supply_forward(g, &a) || (g->reckless && mending_move(g, &a))))
            return apply(g, &a);
        if (random_move(g, &a))
            return apply(g, &a);
        if (g->portion_steps > 400) {
            struct ak_action end = {.kind = AK_ACT_END_MOVEMENT, .side = g->s.side};
            struct ak_reject rej;
            if (!ak_try(&g->s, &end, &rej))
                fprintf(stderr, "end_movement: %s %s\n", rej.code, rej.text);
            return fail(g, "the movement portion cannot end");
        }
        if (!can_end)
            return true;
    }
    return apply(g, &some[0]);
}

static bool combat_step(struct ak_player_game *g, struct ak_action *list, int n)
{
    static struct ak_action some[LIST_MAX];
    const struct ak_state *s = &g->s;
    if (s->pending.kind)
        return n > 0 ? apply(g, &list[pick(g, n)]) : fail(g, "a decision with no legal answer");
    int k;
    if (!s->combat_locked) {
        if (!g->give_up && (k = filter_kind(list, n, AK_ACT_BATTLE, some)) > 0)
            return apply(g, &some[pick(g, k)]);
        if ((k = filter_kind(list, n, AK_ACT_RESOLVE, some)) > 0)
            return apply(g, &some[pick(g, k)]);
        g->give_up = true;
        if ((k = filter_kind(list, n, AK_ACT_CANCEL, some)) > 0)
            return apply(g, &some[0]);
        if ((k = filter_kind(list, n, AK_ACT_ABANDON, some)) > 0)
            return apply(g, &some[pick(g, k)]);
    } else if ((k = filter_kind(list, n, AK_ACT_RESOLVE, some)) > 0) {
        return apply(g, &some[pick(g, k)]);
    }
    if ((k = filter_kind(list, n, AK_ACT_END_TURN, some)) > 0)
        return apply(g, &some[0]);
    struct ak_action end = {.kind = AK_ACT_END_TURN, .side = s->side};
    struct ak_reject rej;
    struct ak_state copy = *s;
    if (!ak_apply(&copy, &end, NULL, &rej))
        fprintf(stderr, "the turn cannot end: %s %s\n", rej.code, rej.text);
    else
        fprintf(stderr, "end_turn not offered among %d actions (kinds %x, locked %d)\n", n,
                ak_possible_actions(s), s->combat_locked);
    return fail(g, "the combat portion cannot end");
}

/* A phase of the Updated ruleset's sequence after movement (no battles
 * yet): a few mechanized moves, emergency supply now and then, then on. */
/* The Updated ruleset's combat phase: now and then supply spent on
 * attacks, then battles declared and fought, decisions taken at random
 * among those the engine offers. */
static bool updated_combat_step(struct ak_player_game *g, struct ak_action *list, int n)
{
    static struct ak_action some[LIST_MAX];
    int k;
    if (g->s.pending.kind) {
        if (n == 0)
            fprintf(stderr, "owed: decision %d by %s (battle %d, need %d, retreat %d)\n",
                    g->s.pending.kind, ak_side_name(g->s.pending.side), g->s.pending.battle + 1,
                    g->s.pending.need, g->s.pending.retreat);
        return n > 0 ? apply(g, &list[pick(g, n)]) : fail(g, "a decision with no legal answer");
    }
    if (g->s.nattack_supply == 0 && !g->give_up && (k = filter_kind(list, n, AK_ACT_SUPPLY_ATTACKS, some)) > 0 &&
        pick(g, 3) == 0)
        return apply(g, &some[pick(g, k)]);
    if ((k = filter_kind(list, n, AK_ACT_RESOLVE, some)) > 0)
        return apply(g, &some[0]);
    if (!g->give_up && (k = filter_kind(list, n, AK_ACT_BATTLE, some)) > 0 && pick(g, 4) > 0)
        return apply(g, &some[pick(g, k)]);
    g->give_up = true;
    if (filter_kind(list, n, AK_ACT_END_PHASE, some) > 0)
        return apply(g, &some[0]);
    struct ak_action end = {.kind = AK_ACT_END_PHASE, .side = g->s.side};
    struct ak_reject rej;
    if (!ak_try(&g->s, &end, &rej))
        fprintf(stderr, "end_phase: %s %s\n", rej.code, rej.text);
    for (int b = 0; b < g->s.nbattles; b++) {
        struct ak_action r = {.kind = AK_ACT_RESOLVE, .side = g->s.side, .battle = (uint8_t)b};
        if (!ak_try(&g->s, &r, &rej))
            fprintf(stderr, "resolve %d: %s %s\n", b + 1, rej.code, rej.text);
    }
    return fail(g, "the combat phase cannot end");
}

static bool phase_step(struct ak_player_game *g, struct ak_action *list, int n)
{
    static struct ak_action some[LIST_MAX];
    struct ak_action a;
    int k;
    if (g->s.phase == AK_PHASE_COMBAT)
        return updated_combat_step(g, list, n);
    if (g->s.pending.kind)      /* an attrition loss */
        return n > 0 ? apply(g, &list[pick(g, n)]) : fail(g, "a decision with no legal answer");
    if ((k = filter_kind(list, n, AK_ACT_BREAK_OUT, some)) > 0 && pick(g, 3) == 0)
        return apply(g, &some[pick(g, k)]);
    if ((ak_possible_actions(&g->s) & (1u << AK_ACT_MOVE)) && g->moves_left-- > 0 && random_move(g, &a))
        return apply(g, &a);
    if ((k = filter_kind(list, n, AK_ACT_BURN_SUPPLY, some)) > 0 && pick(g, 2) == 0)
        return apply(g, &some[pick(g, k)]);
    /* the replacement phase: rebuild, or buy a unit back, now and then */
    if ((k = filter_kind(list, n, AK_ACT_REBUILD, some)) > 0 && pick(g, 2) == 0)
        return apply(g, &some[pick(g, k)]);
    if (g->s.phase == AK_PHASE_REPLACEMENT && (k = filter_kind(list, n, AK_ACT_PLACE, some)) > 0 && pick(g, 2) == 0)
        return apply(g, &some[pick(g, k)]);
    static const int ends[] = {AK_ACT_END_PHASE, AK_ACT_END_TURN};
    for (int i = 0; i < 2; i++)
        if (filter_kind(list, n, ends[i], some) > 0)
            return apply(g, &some[0]);
    return fail(g, "the phase cannot end");
}

bool ak_player_play(struct ak_player_game *g, int stop_turn)
{
    static struct ak_action list[LIST_MAX];
    int last_side = -1, last_phase = -1;
    while (g->s.phase != AK_PHASE_OVER && g->s.turn < stop_turn) {
        if (g->n >= ACTIONS_MAX)
            return fail(g, "the game does not end");
        if (g->s.side != last_side || g->s.phase != last_phase) {
            last_side = g->s.side;
            last_phase = g->s.phase;
            g->moves_left = 4 + pick(g, 12);
            g->portion_steps = 0;
            g->give_up = false;
        }
        g->portion_steps++;
        int n = ak_legal_actions(&g->s, 0, list, LIST_MAX);
        /* Each choice offered once: a player's list never shows the same
         * action twice (issue 30: a loss offered twice). */
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (memcmp(&list[i], &list[j], sizeof list[i]) == 0)
                    return fail(g, "the legal actions list the same action twice");
        /* The Updated ruleset's phases after movement end by end_phase,
         * its replacement phase by end_turn outside combat. */
        bool later = g->s.phase > AK_PHASE_OVER || (ak_possible_actions(&g->s) & (1u << AK_ACT_END_PHASE)) ||
                     g->s.pending.kind == AK_PEND_LOSSES || (g->s.pending.kind && g->s.pending.stage);
        bool ok = g->s.phase == AK_PHASE_MOVEMENT && !g->s.pending.kind ? movement_step(g, list, n)
                  : later                                                ? phase_step(g, list, n)
                                                                         : combat_step(g, list, n);
        if (!ok)
            return false;
    }
    return true;
}


const struct ak_crt_table *ak_test_crt(void)
{
    static struct ak_crt_table t;
    static bool parsed;
    char err[200];
    if (!parsed && ak_crt_table_parse(&t, ak_test_crt_txt, err, sizeof err)) {
        fprintf(stderr, "the test table does not parse: %s\n", err);
        exit(2);
    }
    parsed = true;
    return &t;
}

void ak_player_init_state(struct ak_state *s, int ruleset, uint64_t seed)
{
    ak_state_init(s, ruleset, seed);
    if (ak_ruleset_get(ruleset)->needs_crt_table)
        ak_crt_attach(s, ak_test_crt());
}

void ak_player_start(struct ak_player_game *g, uint64_t seed)
{
    if (!g->log) {
        g->log = malloc(sizeof *g->log * ACTIONS_MAX);
        g->hash = malloc(sizeof *g->hash * ACTIONS_MAX);
        if (!g->log || !g->hash) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
    ak_player_init_state(&g->s, g->ruleset, seed);
    ak_rng_seed(&g->player, seed * 7919 + 17);
    g->n = 0;
}

void ak_player_free(struct ak_player_game *g)
{
    free(g->log);
    free(g->hash);
    g->log = NULL;
    g->hash = NULL;
}
