/* fuzz_scenario: the scenario parser.
 *
 * What it fuzzes: the interpreter of rules scenarios
 * (tests/ak_scenario_lib.c, format in tests/scenarios/README.md), the
 * code ak-scenario runs on files, here on text from memory: its directives
 * (setup, put, set, dice, actor, start-turn, ok, reject, expect ...), the
 * words of its actions, and the rules library underneath, from positions
 * set up by hand (put, set), which no game reaches. The seed corpus is the
 * scenario files of tests/scenarios/ and tests/positions/.
 *
 * Input: scenario text. Results are counted, not printed. `dice` tries
 * 100,000 seeds instead of ten million (a roll it cannot find is a failed
 * expectation, not seconds of search per line).
 *
 * What it asserts:
 *   - after every run, the state where it ended passes ak_state_check
 *     (each line that sets up the position is checked and undone if it
 *     broke it, so no line leaves the engine a state it cannot index);
 *   - that state, as `ak-scenario --dump` prints it (ak_state_to_json),
 *     reads back with ak_state_from_json to the same JSON (no operation in
 *     ak_state_patch) and the same state (ak_state_hash, the dice
 *     generator aside): a dumped position always loads, as what was
 *     dumped.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "ak_notation.h"
#include "ak_scenario_lib.h"

#define AK_FUZZ_NAME "fuzz_scenario"
#include "ak_fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    ak_scenario_out = NULL;
    ak_scenario_dice_seeds = 100000;
    fuzz_arena_install();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ak_scenario_passed = ak_scenario_failed = 0;    /* counted per run, never wrapping */
    ak_scenario_run_text("fuzz.scn", (const char *)data, size);
    const struct ak_state *s = ak_scenario_state();
    char why[200];
    if (!ak_state_check(s, why, sizeof why))
        fail("a scenario ended in a state that is not valid: %s", why);
    /* The round trip's JSON goes into the arena (ak_fuzz.h): with malloc
     * under AddressSanitizer it took half of the harness's time. */
    fuzz_arena_begin();
    json_t *j = ak_state_to_json(s);
    static struct ak_state back;
    char err[200] = "";
    if (!j || !ak_state_from_json(j, &back, err, sizeof err))
        fail("the state a scenario ended in does not load as a position: %s", err);
    back.crt = s->crt;      /* the table is the process's, not in the JSON (its odds are) */
    /* The same JSON: ak_state_patch is the diff of the two documents
     * worked out from the structs. A second ak_state_to_json and
     * json_equal did this until November 2026, at half of the harness's
     * time. And the same state for the rules (ak_state_hash, what replays
     * compare), less the dice generator, which a position does not carry. */
    json_t *patch = ak_state_patch(s, &back);
    if (json_array_size(patch) != 0) {
        char *ops = json_dumps(patch, JSON_COMPACT);
        fail("the state a scenario ended in loads with another JSON form: %.300s", ops ? ops : "?");
    }
    json_decref(patch);
    back.rng = s->rng;
    if (ak_state_hash(&back) != ak_state_hash(s))
        fail("the state a scenario ended in loads as another state");
    json_decref(j);
    fuzz_arena_end();
    return 0;
}
