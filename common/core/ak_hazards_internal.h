/* ak_hazards_internal: what the hazard checks of each ruleset share
 * (ak_hazards.c): the list they fill and how a hazard is written. */
#ifndef AK_HAZARDS_INTERNAL_H
#define AK_HAZARDS_INTERNAL_H

#include "ak_hazards.h"

struct ak_hz_list {
    const struct ak_state *s;
    struct ak_hazard *out;
    int n, max;
};

/* A hazard with its rule (code), the ending action it bites at (0: none)
 * and its sentence; when the list is full it is dropped (a spare is
 * returned, never written out of bounds). */
struct ak_hazard *ak_hz_add(struct ak_hz_list *l, int kind, const char *code, int bites_at, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* A hazard about units: the text names them; fmt has one %s for the names
 * and one %s for "is"/"are". */
struct ak_hazard *ak_hz_units(struct ak_hz_list *l, int kind, const char *code, int bites_at,
                              const uint8_t *units, int n, const char *fmt);
bool ak_hz_has_code(const struct ak_hz_list *l, const char *code);


#endif
