/* fuzz_position: the position loaders.
 *
 * What it fuzzes: ak_state_from_json (what akc reads from `show` and the
 * pushes, and what akd's `new` and the record's "position" go through) and
 * ak_state_from_position (a game started from a given position), then the
 * engine's queries on whatever they accept.
 *
 * Input: JSON text (any value, read as akd reads a request: no duplicate
 * keys), given to both loaders.
 *
 * What it asserts, for each loader that accepts the input:
 *   - ak_state_check holds (the loaders promise a state the engine can
 *     index with);
 *   - ak_state_from_position gives a game in play: a side, movement or
 *     combat, no battles, no decision owed, no result, no actions;
 *   - ak_state_to_json of it reads back with ak_state_from_json to the
 *     same JSON, and that state reads back to the same state
 *     (ak_state_hash);
 *   - the queries do not fail: ak_waiting_for names a side or nobody,
 *     ak_possible_actions names only action kinds, and of the actions
 *     that ak_legal_actions (without moves), ak_query_battles and, when a
 *     move is possible, ak_legal_moves of the first unit on the board of
 *     the side to move list (they promise legal actions only), the first
 *     64 of each are accepted by ak_apply, after which ak_state_check
 *     holds.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_query.h"

#define AK_FUZZ_NAME "fuzz_position"
#include "ak_fuzz.h"

#define LIST_MAX 1024
#define APPLY_MAX 64    /* listed actions applied per state (time per input) */

static void check_listed(const struct ak_state *s, const struct ak_action *list, int n, const char *query)
{
    if (n < 0 || n > LIST_MAX)
        fail("%s listed %d actions", query, n);
    for (int i = 0; i < n && i < APPLY_MAX; i++) {
        struct ak_state t = *s;
        struct ak_reject rej;
        char why[200];
        if (!ak_apply(&t, &list[i], NULL, &rej))
            fail("%s listed a %s that ak_apply refuses: %s %s", query, ak_action_kind_name(list[i].kind),
                 rej.code, rej.text);
        if (!ak_state_check(&t, why, sizeof why))
            fail("after a %s listed by %s the state is not valid: %s", ak_action_kind_name(list[i].kind),
                 query, why);
    }
}

static void query(const struct ak_state *s)
{
    static struct ak_action list[LIST_MAX];
    int w = ak_waiting_for(s);
    if (w != AK_AXIS && w != AK_ALLIED && w != AK_NOBODY)
        fail("the game waits for side %d", w);
    unsigned kinds = ak_possible_actions(s);
    if (kinds >> AK_ACT_KINDS)
        fail("possible action kinds %#x", kinds);
    check_listed(s, list, ak_legal_actions(s, 0, list, LIST_MAX), "ak_legal_actions");
    check_listed(s, list, ak_query_battles(s, list, LIST_MAX), "ak_query_battles");
    /* Moves, when the game waits for one (ak_legal_moves lists routes
     * whatever the portion, as ak_legal_actions asks it only then). */
    for (int u = 0; u < s->units && (kinds & (1u << AK_ACT_MOVE)); u++)
        if (ak_def(u)->side == w && ak_on_board(s, u)) {
            check_listed(s, list, ak_legal_moves(s, u, list, LIST_MAX), "ak_legal_moves");
            break;
        }
}

/* The public state reads back as itself: the same JSON, and from then on
 * the same state (a loaded state may carry what the JSON form leaves out,
 * such as the result of a battle not yet resolved, so the first reading
 * is compared by its JSON, the second by ak_state_hash). */
static void round_trip(const struct ak_state *s, const char *loader)
{
    static struct ak_state back, again;
    char err[200] = "";
    json_t *j = ak_state_to_json(s);
    if (!j)
        fail("a state from %s has no JSON form", loader);
    if (!ak_state_from_json(j, &back, err, sizeof err))
        fail("a state from %s does not read back: %s", loader, err);
    json_t *j2 = ak_state_to_json(&back);
    if (!json_equal(j, j2))
        fail("a state from %s reads back with another JSON form", loader);
    if (!ak_state_from_json(j2, &again, err, sizeof err) || ak_state_hash(&again) != ak_state_hash(&back))
        fail("a state from %s, read back, reads back as another state", loader);
    json_decref(j);
    json_decref(j2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct ak_state s;
    char err[200], why[200];
    json_error_t je;
    json_t *j = json_loadb((const char *)data, size, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);
    if (!j)
        return 0;
    err[0] = '\0';
    if (ak_state_from_json(j, &s, err, sizeof err)) {
        if (!ak_state_check(&s, why, sizeof why))
            fail("ak_state_from_json accepted a state that is not valid: %s", why);
        round_trip(&s, "ak_state_from_json");
        query(&s);
    } else if (!err[0]) {
        fail("ak_state_from_json refused a state without a message");
    }
    err[0] = '\0';
    if (ak_state_from_position(j, 1941, &s, err, sizeof err)) {
        if (!ak_state_check(&s, why, sizeof why))
            fail("ak_state_from_position accepted a state that is not valid: %s", why);
        if (s.side >= AK_SIDES || s.phase > AK_PHASE_COMBAT || s.nbattles || s.pending.kind ||
            s.result != AK_RESULT_NONE || s.actions)
            fail("ak_state_from_position accepted a game that is not in play");
        round_trip(&s, "ak_state_from_position");
        query(&s);
    } else if (!err[0]) {
        fail("ak_state_from_position refused a position without a message");
    }
    json_decref(j);
    return 0;
}
