/* ak_capture: supply units changing hands, and Rommel's escape.
 *
 * CAPTURE 1-2, 5-7: a combat unit that moves next to (or onto) an enemy
 * supply unit captures it at once, mid-move: the counter goes back to its
 * owner's pool and one of the captor's "captured" counters takes its place.
 * Supply in a fortress is safe while combat units of its side are there.
 * ROMMEL 2: Rommel is never captured; left in a position of capture he is
 * placed with the nearest friendly unit.
 */
#ifndef AK_CAPTURE_H
#define AK_CAPTURE_H

#include "ak_rules.h"

/* A combat unit of `side` has just entered h: capture what it reaches. */
void ak_capture_around(struct ak_state *s, int side, ak_hex h, struct ak_events *ev);
/* After a battle (CAPTURE 4): every combat unit on board captures the
 * enemy supply it stands on or next to, and Rommel escapes if endangered. */
void ak_capture_sweep(struct ak_state *s, struct ak_events *ev);
/* ROMMEL 2, isolation: when mover's movement portion ends, an enemy
 * Rommel without combat units beside him who is isolated as a unit would
 * be (encircled with no supply unit and no way to his home base:
 * ak_isolation_map, ak_isolated) is placed with the
 * nearest unit of his side. */
void ak_rommel_isolation(struct ak_state *s, int mover, struct ak_events *ev);
/* Take supply unit u from its owner for side `captor`, at its square. */
void ak_capture_supply(struct ak_state *s, int u, int captor, struct ak_events *ev);
/* Is supply unit u in a position of capture by an enemy unit at h? */
bool ak_capturable_from(const struct ak_state *s, int u, ak_hex h);

#endif
