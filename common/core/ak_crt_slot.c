/* ak_crt_slot: the combat results table a game's battles are fought on,
 * where a ruleset has one of the game's own (the Updated ruleset's,
 * needs_crt_table): attached to the state by a small number, so that
 * every ruleset, the engine's callers and the formats reach it through
 * the engine's door (ak_engine.h) rather than through a ruleset. */
#include "ak_engine.h"

#include <stddef.h>

/* The tables states are attached to, by slot (the state's crt; 0 is
 * none). The state holds a small number rather than a pointer because it
 * is a plain value: copied whole, stored whole as a snapshot and read back
 * by another process, where a pointer would dangle and a slot number at
 * worst names no table (its holder attaches the right one on loading).
 * Tables are the caller's and must outlive the states attached to them. */
static const struct ak_crt_table *crt_slot[AK_CRT_SLOTS];

int ak_crt_attach(struct ak_state *s, const struct ak_crt_table *t)
{
    if (!t) {
        s->crt = 0;
        return 0;
    }
    for (int i = 1; i < AK_CRT_SLOTS; i++)
        if (crt_slot[i] == t || !crt_slot[i]) {
            crt_slot[i] = t;
            s->crt = (uint8_t)i;
            return 0;
        }
    s->crt = 0;
    return -1;
}

const struct ak_crt_table *ak_crt_of(const struct ak_state *s)
{
    return s->crt < AK_CRT_SLOTS ? crt_slot[s->crt] : NULL;
}
