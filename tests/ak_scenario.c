/* ak-scenario: run rules scenarios written in plain text (tests/scenarios/
 * README.md describes the format) against the rules library, through
 * ak_apply, the same door akd uses. Prints one line per expectation and
 * exits non-zero if any fails. The interpreter is tests/ak_scenario_lib.c
 * (fuzz/fuzz_scenario.c runs it too).
 *
 * usage: ak-scenario FILE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_notation.h"
#include "ak_scenario_lib.h"

/* usage: ak-scenario FILE...       run scenarios, one line per expectation
 *        ak-scenario --dump FILE   run one, print its final state as JSON
 *                                  (a position for akd's `new`) */
int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--dump") == 0) {
        ak_scenario_out = stderr;   /* expectations to stderr, the final state to stdout */
        if (ak_scenario_run_file(argv[2]) != 0 || ak_scenario_failed)
            return 1;
        json_t *j = ak_state_to_json(ak_scenario_state());
        char *text = json_dumps(j, JSON_COMPACT);
        puts(text);
        free(text);
        json_decref(j);
        return 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: ak-scenario FILE...  |  ak-scenario --dump FILE\n");
        return 2;
    }
    ak_scenario_out = stdout;
    for (int i = 1; i < argc; i++)
        if (ak_scenario_run_file(argv[i]) != 0)
            ak_scenario_failed++;
    printf("%d passed, %d failed\n", ak_scenario_passed, ak_scenario_failed);
    return ak_scenario_failed ? 1 : 0;
}
