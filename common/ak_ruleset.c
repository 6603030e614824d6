/* ak_ruleset: the registry, the table of rulesets a game's ak_state.ruleset
 * indexes. It sits above core/ and both rulesets because it names them;
 * core/ declares the two lookups it needs (ak_rules.h) and reaches a
 * ruleset only through the struct ak_ruleset they return (the one
 * dependency that points up, by design: docs/architecture.md). */
#include <string.h>

#include "ak_rules.h"

extern const struct ak_ruleset ak_rules_classic, ak_rules_updated;

/* The order is part of the stored games (ak_state.ruleset): append only. */
static const struct ak_ruleset *const rulesets[] = {&ak_rules_classic, &ak_rules_updated};

const struct ak_ruleset *ak_ruleset_get(int index)
{
    if (index < 0 || index >= (int)(sizeof rulesets / sizeof rulesets[0]))
        index = 0;
    return rulesets[index];
}

int ak_ruleset_find(const char *name)
{
    for (int i = 0; i < ak_ruleset_count(); i++)
        if (strcmp(rulesets[i]->name, name) == 0)
            return i;
    return -1;
}

int ak_ruleset_count(void) { return (int)(sizeof rulesets / sizeof rulesets[0]); }
