/* ak_ai_internal: what the files of the AI library share and nobody
 * else uses (ak_ai.h is the library's door). */
#ifndef AK_AI_INTERNAL_H
#define AK_AI_INTERNAL_H

#include "ak_ai.h"

/* The best battle a unit of side on h could open next to it: its side's
 * combat units next to the best enemy square next to h, against it, by
 * ak_ai_battle_value (ak_ai_battle.c). */
double ak_ai_opened_battle(const struct ak_state *s, ak_hex h, int side);
/* The battle side's combat units next to enemy square e would fight. */
double ak_ai_battle_against(const struct ak_state *s, ak_hex e, int side);

/* The strong level's plan of the movement part of the turn s is in, by
 * online evolutionary planning within `evaluations` positions valued
 * (ak_ai_plan.c): at most cap moves, in the order to send them. */
int ak_ai_plan(struct ak_ai *ai, const struct ak_state *s, int evaluations, struct ak_action *plan, int cap);

#endif
