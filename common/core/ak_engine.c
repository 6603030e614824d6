/* ak_engine: apply an action on a copy, commit it only when legal. */
#include "ak_engine.h"

#include <stdio.h>
#include <string.h>

#include "ak_zoc.h"


/* An action kind in words, for "... is not possible now". */
static const char *action_words(int kind)
{
    static const char *const words[AK_ACT_KINDS] = {
        [AK_ACT_MOVE] = "moving", [AK_ACT_PLACE] = "placing a unit", [AK_ACT_EMBARK] = "embarking",
        [AK_ACT_END_MOVEMENT] = "ending the movement portion", [AK_ACT_DESTROY_SUPPLY] = "destroying supply",
        [AK_ACT_END_TURN] = "ending the turn", [AK_ACT_BATTLE] = "declaring a battle",
        [AK_ACT_CANCEL] = "withdrawing a battle", [AK_ACT_ABANDON] = "removing a unit",
        [AK_ACT_RESOLVE] = "resolving a battle", [AK_ACT_RETREAT] = "a retreat", [AK_ACT_EXCHANGE] = "an exchange",
        [AK_ACT_ADVANCE] = "an advance", [AK_ACT_SUBSTITUTE] = "a substitution", [AK_ACT_RESIGN] = "resigning",
        [AK_ACT_TIMEOUT] = "a loss on time", [AK_ACT_ADJUDICATE] = "an adjudication",
        [AK_ACT_END_PHASE] = "ending the phase", [AK_ACT_BURN_SUPPLY] = "burning a supply unit",
        [AK_ACT_SUPPLY_ATTACKS] = "spending supply on attacks", [AK_ACT_LOSSES] = "assigning losses",
        [AK_ACT_REBUILD] = "rebuilding a unit", [AK_ACT_BREAK_OUT] = "breaking out", [AK_ACT_FORTIFY] = "fortifying",
        [AK_ACT_PORT_MOVE] = "moving by sea",
    };
    return kind >= 0 && kind < AK_ACT_KINDS && words[kind] ? words[kind] : "that action";
}



static bool in_sequence(const struct ak_state *s, const struct ak_action *a, struct ak_reject *rej)
{
    if (s->phase == AK_PHASE_OVER)
        return ak_reject(rej, "PLAY-5", "the game is over");
    if (a->kind >= AK_ACT_KINDS)
        return ak_reject(rej, "ACTION", "unknown action");
    /* An action this edition does not have says so, whatever the phase. */
    const struct ak_ruleset *r = ak_ruleset_get(s->ruleset);
    if (!r->apply[a->kind])
        return ak_reject(rej, "RULESET", "%s is not part of the %s", action_words(a->kind), r->title);
    if (a->kind == AK_ACT_RESIGN || a->kind == AK_ACT_TIMEOUT)
        return a->side < AK_SIDES || ak_reject(rej, "ACTION", "no side to concede");
    if (a->kind == AK_ACT_ADJUDICATE)
        return a->side <= AK_NOBODY || ak_reject(rej, "ACTION", "an adjudication names a winner or a draw");
    int waiting = ak_waiting_for(s);
    if (a->side != waiting && waiting == s->side)
        return ak_reject(rej, "PLAY-1", "it is the %s player's turn; no %s movement is allowed",
                         ak_side_name(s->side), ak_side_name(a->side));
    char h[8];
    if (a->side != waiting && s->pending.kind == AK_PEND_LOSSES && s->pending.percent == AK_LOSS_ATTRITION)
        return ak_reject(rej, "PLAY-1", "the game waits for the %s player's isolation attrition losses at %s",
                         ak_side_name(waiting), ak_hex_format(s->pending.hex, h));
    if (a->side != waiting)
        return ak_reject(rej, "PLAY-1", "the game waits for the %s player's decision on battle %d",
                         ak_side_name(waiting), s->pending.battle + 1);
    unsigned allowed = ak_possible_actions(s);
    if (!(allowed & (1u << a->kind)))
        return ak_reject(rej, r->sequence_code, "%s is not possible now (%s%s)", action_words(a->kind),
                         ak_phase_words(s), s->pending.kind ? ", a battle decision is owed" :
                         s->combat_locked ? ", battles are being resolved" : "");
    return true;
}

/* The units that can be in a battle at all: combat units on board. */
static int fighters(const struct ak_state *s, const uint8_t *in, int n, uint8_t *out)
{
    int k = 0;
    for (int i = 0; i < n && k < AK_GROUP_MAX; i++)
        if (in[i] < s->units && ak_on_board(s, in[i]) && ak_unit_is_combat(ak_def(in[i])))
            out[k++] = in[i];
    return k;
}

void ak_battle_preview(const struct ak_state *s, const uint8_t *att, int na, const uint8_t *def, int nd, int supply,
                       struct ak_battle_preview *p)
{
    uint8_t a[AK_GROUP_MAX], d[AK_GROUP_MAX];
    memset(p, 0, sizeof *p);
    p->supply = AK_UNIT_NONE;
    p->column = -1;
    na = fighters(s, att, na, a);
    nd = fighters(s, def, nd, d);
    if (supply != AK_UNIT_NONE && (supply < 0 || supply >= s->units || !ak_on_board(s, supply) ||
                                   ak_def(supply)->type != AK_TYPE_SUPPLY))
        supply = AK_UNIT_NONE;
    if (na > 0 && nd > 0)
        ak_ruleset_get(s->ruleset)->battle_preview(s, a, na, d, nd, supply, p);
}

void ak_overlay(const struct ak_state *s, int side, uint8_t *zone, uint8_t *supply)
{
    if (zone) {
        struct ak_hexset z;
        ak_enemy_zones(s, side, &z);
        ak_hexset_to_bytes(&z, zone);
    }
    if (supply)
        ak_ruleset_get(s->ruleset)->supply_map(s, side, supply);
}

void ak_isolation_overlay(const struct ak_state *s, int side, uint8_t *open)
{
    ak_ruleset_get(s->ruleset)->isolation_map(s, side, open);
}

const char *ak_phase_words(const struct ak_state *s)
{
    static const char *const phase[] = {"movement", "combat", "", "mechanized movement", "supply", "replacement"};
    static char buf[48];
    snprintf(buf, sizeof buf, "%s %s", s->phase < sizeof phase / sizeof phase[0] ? phase[s->phase] : "",
             ak_ruleset_get(s->ruleset)->phase_word);
    return buf;
}

/* Apply a to a copy of s in *work; s itself is never touched. */
static bool apply_to_copy(const struct ak_state *s, struct ak_state *work,
                          const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej)
{
    if (!in_sequence(s, a, rej))
        return false;
    for (int i = 0; i < a->nunits; i++)
        if (a->units[i] >= s->units)
            return ak_reject(rej, "ACTION", "unknown unit");
    const struct ak_ruleset *r = ak_ruleset_get(s->ruleset);
    memcpy(work, s, sizeof *work);
    return r->apply[a->kind](r, work, a, ev, rej);     /* in_sequence checked that it has one */
}

bool ak_apply(struct ak_state *s, const struct ak_action *a, struct ak_events *ev,
              struct ak_reject *rej)
{
    struct ak_state work;
    int mark = ev ? ev->n : 0;
    if (!apply_to_copy(s, &work, a, ev, rej)) {
        if (ev)
            ev->n = mark;
        return false;
    }
    work.actions++;
    memcpy(s, &work, sizeof work);
    return true;
}

bool ak_try(const struct ak_state *s, const struct ak_action *a, struct ak_reject *rej)
{
    static struct ak_state work;
    return apply_to_copy(s, &work, a, NULL, rej);
}

int ak_waiting_for(const struct ak_state *s)
{
    if (s->phase == AK_PHASE_OVER)
        return AK_NOBODY;
    return s->pending.kind ? s->pending.side : s->side;
}

unsigned ak_possible_actions(const struct ak_state *s)
{
    if (s->phase == AK_PHASE_OVER)
        return 0;
    return ak_ruleset_get(s->ruleset)->possible_actions(s);
}

int ak_ending_action(const struct ak_state *s)
{
    unsigned kinds = ak_possible_actions(s);
    return kinds & (1u << AK_ACT_END_MOVEMENT) ? AK_ACT_END_MOVEMENT
         : kinds & (1u << AK_ACT_END_PHASE)    ? AK_ACT_END_PHASE
                                                : AK_ACT_END_TURN;
}
