/* ak_substitute: ALLIED SUBSTITUTE COUNTERS (from August 1942).
 *
 * The Allied player exchanges units standing on one square for substitute
 * counters of the same total attack factors, armor for armor and armored
 * infantry, infantry for infantry and recce; or the reverse, substitute
 * counters for the units they stood for. The counters that come in may not
 * move this turn but may fight (point 1). The units taken off wait off the
 * board as "withdrawn" until a reverse exchange brings them back.
 */
#ifndef AK_SUBSTITUTE_H
#define AK_SUBSTITUTE_H

#include "ak_rules.h"

bool ak_substitute(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                   struct ak_events *ev, struct ak_reject *rej);

#endif
