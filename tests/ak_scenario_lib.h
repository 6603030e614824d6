/* ak_scenario_lib: the rules scenario interpreter (tests/scenarios/README.md
 * has the format), shared by ak-scenario (tests/ak_scenario.c), which runs
 * files, and fuzz/fuzz_scenario.c, which runs text from memory.
 */
#ifndef AK_SCENARIO_LIB_H
#define AK_SCENARIO_LIB_H

#include <stddef.h>
#include <stdio.h>

#include "ak_state.h"

/* Expectations met and failed, over every run so far. */
extern int ak_scenario_passed, ak_scenario_failed;
/* Where each expectation's line ("ok   FILE:LINE: ...") goes; NULL: nowhere. */
extern FILE *ak_scenario_out;
/* Seeds `dice R...` tries before it gives up (10,000,000: any six rolls). */
extern unsigned long ak_scenario_dice_seeds;

/* Run a scenario from len bytes of text, read line by line as fgets reads
 * a file into a 1,024-byte buffer; name is the file named in messages. */
void ak_scenario_run_text(const char *name, const char *text, size_t len);
/* The same for a file: -1 (after perror) if it cannot be read. */
int ak_scenario_run_file(const char *path);
/* The state where the last run ended. */
const struct ak_state *ak_scenario_state(void);

#endif
