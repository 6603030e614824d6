/* ak_stacking: how many combat units a square may hold, by the ruleset's
 * parameters: three (MORE THAN ONE UNIT PER SQUARE 1), and in the Updated
 * ruleset two when an Italian division is among them (NEW STACKING; its
 * supply units and Rommel stack freely, reading A-18 (a) in
 * docs/rules-notes.md). One function serves moves, retreats, advances and
 * the end of movement, so they cannot disagree (the 1964 limits of a
 * besieged Tobruch and of substitution keep their own checks). */
#ifndef AK_STACKING_H
#define AK_STACKING_H

#include "ak_rules.h"

/* The limit for side's combat units on h if units (n of them, possibly
 * already there) joined those there. */
int ak_stack_limit(const struct ak_ruleset *r, const struct ak_state *s, ak_hex h, int side,
                   const uint8_t *units, int n);
/* The side's combat units on h once units join (those already on h count
 * once). */
int ak_stack_count(const struct ak_state *s, ak_hex h, int side, const uint8_t *units, int n);
/* Would h hold too many? With rej, the STACK-1 (or UPD-STACK) rejection. */
bool ak_stack_room(const struct ak_ruleset *r, const struct ak_state *s, ak_hex h, int side,
                   const uint8_t *units, int n, struct ak_reject *rej);
bool ak_unit_is_italian_division(int u);

#endif
