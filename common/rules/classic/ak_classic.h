/* ak_classic.h: what the files of the 1964 rules share among themselves
 * (their table, ak_rules_classic.c, is the ruleset the rest reaches them
 * through). */
#ifndef AK_CLASSIC_H
#define AK_CLASSIC_H

#include "ak_hazards_internal.h"
#include "ak_rules.h"

/* END_MOVEMENT (ak_movement_end.c). */
bool ak_turn_end_movement(const struct ak_ruleset *r, struct ak_state *s,
                          const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej);
/* The ruleset's `hazards` (ak_hazards_classic.c). */
void ak_hazards_classic(struct ak_hz_list *l);

#endif
