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
static int usage(FILE *to, int code)
{
    fprintf(to, "usage: ak-scenario FILE...       run rules scenarios, one line per expectation\n"
                "       ak-scenario --dump FILE   run one and print its final state as JSON\n"
                "                                 (a position for akd's `new`)\n"
                "       ak-scenario --help        this text\n"
                "The format is described in tests/scenarios/README.md.\n");
    return code;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
        return usage(stdout, 0);
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-' && strcmp(argv[i], "--dump") != 0) {
            fprintf(stderr, "ak-scenario: unknown option %s\n", argv[i]);
            return usage(stderr, 2);
        }
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
    if (argc < 2 || strcmp(argv[1], "--dump") == 0)
        return usage(stderr, 2);
    ak_scenario_out = stdout;
    for (int i = 1; i < argc; i++)
        if (ak_scenario_run_file(argv[i]) != 0)
            ak_scenario_failed++;
    printf("%d passed, %d failed\n", ak_scenario_passed, ak_scenario_failed);
    return ak_scenario_failed ? 1 : 0;
}
