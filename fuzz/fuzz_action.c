/* fuzz_action: action JSON applied to many mid-game states.
 *
 * What it fuzzes: the action reader (ak_action_from_json, the `action`
 * object of `act` and of the game record) and the rules behind ak_apply,
 * from 256 states met in self-play. At start-up random players
 * (tests/ak_player.c) play six campaigns from fixed seeds, chosen for
 * their battles (about 3,800 actions), and one of the Updated ruleset as
 * far as it is built. Of the states before each action and at each
 * game's end, the 256 are 48 of the Updated game, those that owe a
 * decision (retreat, exchange, advance; up to 64), those with battles
 * declared (up to 64), combat portions (32) and the rest spread evenly
 * over the games, starts and ends included: the same states on every run.
 *
 * Input: byte 0 picks the state (of 256), byte 1's low bit the acting side
 * (0: the side the game waits for, 1: the other one), the rest is the
 * action's JSON text (any JSON value, read as akd reads a request: no
 * duplicate keys).
 *
 * What it asserts:
 *   - an action that cannot be read is refused with a message;
 *   - ak_try and ak_apply agree;
 *   - a rejection names a rule code of the rule table (so it has its
 *     seed section) and a sentence, and leaves the state byte for byte as
 *     it was (memcmp);
 *   - after an accepted action ak_state_check holds, every event has a
 *     JSON form and a line of text, and the JSON Patch of the push
 *     (ak_state_patch) turns the public state before into the one after;
 *   - the player then awaited still has a way to finish the part of the
 *     turn he is in (ak_way_forward: no dead ends);
 *   - the action as stored (ak_action_to_json_in, written out as text, as
 *     the log and the record keep it) reads back, encodes the same, and
 *     replays on the state before to the same ak_state_hash.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_patch.h"
#include "ak_player.h"
#include "ak_query.h"

#define AK_FUZZ_NAME "fuzz_action"
#include "ak_fuzz.h"

#define NSTATES 256
#define CANDIDATES_MAX 8192

static struct ak_state *states;     /* NSTATES of them */
static struct ak_state *candidates;
static int ncandidates;

static void keep(const struct ak_state *s)
{
    if (ncandidates < CANDIDATES_MAX)
        candidates[ncandidates++] = *s;
}

/* Called before each action the random players choose: g->s is the state
 * it will be applied to. */
static void sample(struct ak_player_game *g, const struct ak_action *a)
{
    (void)a;
    keep(&g->s);
}

/* 0: owes a decision, 1: battles declared, 2: combat portion, 3: the
 * rest, 4: another ruleset than classic. */
static int category(const struct ak_state *s)
{
    return s->ruleset != 0 ? 4 : s->pending.kind != AK_PEND_NONE ? 0 : s->nbattles > 0 ? 1
                                 : s->phase == AK_PHASE_COMBAT ? 2 : 3;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    static struct ak_player_game g;
    states = malloc(sizeof *states * NSTATES);
    candidates = malloc(sizeof *candidates * CANDIDATES_MAX);
    if (!states || !candidates)
        fail("out of memory");
    /* Seeds whose random players meet in battle more than most. */
    static const uint64_t seeds[] = {3, 6, 13, 15, 16, 17};
    for (size_t k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
        uint64_t seed = seeds[k];
        ak_player_start(&g, seed);
        keep(&g.s);
        g.before_apply = sample;
        if (!ak_player_play(&g, 39))
            fail("self-play from seed %llu stopped", (unsigned long long)seed);
        keep(&g.s);     /* the end of the game */
    }
    /* The Updated ruleset as far as it is built: one campaign. */
    g.ruleset = ak_ruleset_find("updated");
    g.toward_enemy = true;
    ak_player_start(&g, 1);
    keep(&g.s);
    g.before_apply = sample;
    if (g.ruleset < 0 || !ak_player_play(&g, 39))
        fail("self-play of the updated ruleset stopped");
    keep(&g.s);
    ak_player_free(&g);
    if (ncandidates < NSTATES)
        fail("only %d states met in self-play", ncandidates);
    /* Combat is rare in random play: first every state that owes a
     * decision (up to 64), then those with battles declared (up to 64),
     * then combat portions (up to 32), then the rest spread evenly over
     * the games, starts and ends included. */
    static const struct {
        int kind, quota;
    } take[] = {{4, 48}, {0, 64}, {1, 64}, {2, 32}};
    int n = 0;
    static bool taken[CANDIDATES_MAX];
    for (int t = 0; t < 4; t++) {
        int found = 0, got = 0;
        for (int i = 0; i < ncandidates; i++)
            found += !taken[i] && category(&candidates[i]) == take[t].kind;
        for (int i = 0, seen = 0; i < ncandidates && got < take[t].quota; i++) {
            if (taken[i] || category(&candidates[i]) != take[t].kind)
                continue;
            /* evenly: the seen-th of found, when it passes the next step */
            if ((long)seen++ * take[t].quota >= (long)got * found) {
                states[n++] = candidates[i];
                taken[i] = true;
                got++;
            }
        }
    }
    int rest = NSTATES - n, left = 0;
    for (int i = 0; i < ncandidates; i++)
        left += !taken[i];
    for (int i = 0, seen = 0, got = 0; i < ncandidates && got < rest; i++)
        if (!taken[i] && (long)seen++ * rest >= (long)got * left) {
            states[n++] = candidates[i];
            got++;
        }
    if (n != NSTATES)
        fail("picked %d states", n);
    free(candidates);
    return 0;
}

static char *text_of(const json_t *j)
{
    char *t = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!t)
        fail("a value the engine made has no JSON text");
    return t;
}

static void check_events(const struct ak_events *ev)
{
    if (ev->n < 0 || ev->n > AK_EVENTS_MAX)
        fail("%d events", ev->n);
    for (int i = 0; i < ev->n; i++) {
        json_t *j = ak_event_to_json(&ev->ev[i]);
        if (!j || !json_is_string(json_object_get(j, "event")))
            fail("event %d (kind %d) has no JSON form", i, ev->ev[i].kind);
        json_decref(j);
        char text[240];
        ak_event_text(&ev->ev[i], text, sizeof text);
        if (!text[0])
            fail("event %d (kind %d) has no text", i, ev->ev[i].kind);
    }
}

/* The push after an action: the patch turns the public state before into
 * the public state after. */
static void check_patch(const struct ak_state *before, const struct ak_state *after)
{
    json_t *doc = ak_state_to_json(before), *want = ak_state_to_json(after);
    json_t *ops = ak_state_patch(before, after);
    if (!doc || !want || !ops)
        fail("no public state or patch");
    if (ak_patch_apply(doc, ops) != 0 || !json_equal(doc, want))
        fail("the patch of action %u does not give the state after it", (unsigned)after->actions);
    json_decref(doc);
    json_decref(want);
    json_decref(ops);
}

/* The action as the log stores it reads back and replays to the same state. */
static void check_replay(const struct ak_state *before, const struct ak_action *a,
                         const struct ak_state *after, const struct ak_events *ev)
{
    json_t *stored = ak_action_to_json_in(a, before);
    if (!stored)
        fail("an accepted %s has no JSON form", ak_action_kind_name(a->kind));
    char *text = text_of(stored);
    json_error_t je;
    json_t *back = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    struct ak_action b;
    char err[200] = "";
    if (!back || !ak_action_from_json(back, a->side, &b, err, sizeof err))
        fail("the stored action %s does not read back: %s", text, back ? err : je.text);
    json_t *again = ak_action_to_json_in(&b, before);
    if (!json_equal(again, stored)) {
        char *t2 = text_of(again);
        fail("the stored action %s reads back as %s", text, t2);
    }
    struct ak_state replay = *before;
    struct ak_events ev2 = {0};
    struct ak_reject rej;
    if (!ak_apply(&replay, &b, &ev2, &rej))
        fail("the stored action %s is refused on replay: %s %s", text, rej.code, rej.text);
    if (ak_state_hash(&replay) != ak_state_hash(after) || ev2.n != ev->n)
        fail("the stored action %s replays to another state", text);
    json_decref(again);
    json_decref(back);
    json_decref(stored);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const struct ak_state *base = &states[data[0] % NSTATES];
    int waiting = ak_waiting_for(base);
    int side = waiting < AK_SIDES ? waiting : base->side;
    if (data[1] & 1)
        side = !side;
    json_error_t je;
    json_t *j = json_loadb((const char *)data + 2, size - 2, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);
    if (!j)
        return 0;
    struct ak_action a;
    char err[200] = "";
    if (!ak_action_from_json(j, side, &a, err, sizeof err)) {
        if (!err[0])
            fail("an action was refused without a message");
        json_decref(j);
        return 0;
    }
    json_decref(j);

    struct ak_reject tried;
    bool would = ak_try(base, &a, &tried);
    struct ak_state s = *base;
    struct ak_events ev = {0};
    struct ak_reject rej;
    memset(&rej, 0, sizeof rej);
    bool ok = ak_apply(&s, &a, &ev, &rej);
    if (ok != would)
        fail("ak_try says %s, ak_apply %s", would ? "yes" : "no", ok ? "yes" : "no");
    if (!ok) {
        if (!rej.code || !rej.code[0] || !rej.text[0])
            fail("a %s was rejected without a rule code or a sentence", ak_action_kind_name(a.kind));
        if (!rej.section || strcmp(rej.section, "?") == 0)
            fail("rule code %s is not in the rule table (ak_rule_table)", rej.code);
        if (memcmp(&s, base, sizeof s) != 0)
            fail("a %s rejected with %s changed the state", ak_action_kind_name(a.kind), rej.code);
        return 0;
    }
    char why[200];
    if (!ak_state_check(&s, why, sizeof why))
        fail("after an accepted %s the state is not valid: %s", ak_action_kind_name(a.kind), why);
    /* No dead ends (issue 34): the player now awaited can still finish
     * the part of the turn he is in (a search that runs out of budget
     * proves nothing either way and passes). */
    if (ak_way_forward(&s, 3000) == AK_FORWARD_DEAD_END)
        fail("after an accepted %s the player awaited has no way to finish the %s", ak_action_kind_name(a.kind),
             ak_phase_words(&s));
    check_events(&ev);
    check_patch(base, &s);
    check_replay(base, &a, &s, &ev);
    return 0;
}
