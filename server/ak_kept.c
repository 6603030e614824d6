/* ak_kept: answers kept by game and position (a game's id, its number of
 * actions and its state's hash: an undo and another action give the same
 * number, never the same hash), so that many clients asking for the same
 * costly answer about the same position cost one computation: the map
 * overlay (ak_play.c) and the record (ak_records.c). A small ring per
 * kind, the oldest answer replaced first; each kind bounds its own
 * memory by its number of slots. */
#include <stdlib.h>

#include "ak_server.h"

const struct ak_kept *ak_kept_find(const struct ak_keep *k, const struct ak_game *g, uint64_t hash)
{
    for (int i = 0; i < k->n; i++)
        if (k->slot[i].text && k->slot[i].game == g->id && k->slot[i].seq == g->state->actions &&
            k->slot[i].hash == hash)
            return &k->slot[i];
    return NULL;
}

void ak_kept_put(struct ak_keep *k, const struct ak_game *g, uint64_t hash, char *text, size_t len)
{
    struct ak_kept *s = &k->slot[k->next];
    k->next = (k->next + 1) % k->n;
    free(s->text);
    *s = (struct ak_kept){g->id, g->state->actions, hash, text, len};
}

void ak_kept_free(struct ak_keep *k)
{
    for (int i = 0; i < k->n; i++) {
        free(k->slot[i].text);
        k->slot[i].text = NULL;
    }
}
