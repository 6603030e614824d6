/* ak_arrival: units coming on and off the board.
 *
 * REINFORCEMENTS 1-7 and the Order of Appearance, new supply units
 * (LOGISTICS, MOVEMENT 1, 2, 6 and the quotas), and sea movement between
 * Tobruch and the own home base (FORTRESSES 3-4). All arrivals use the same
 * ports: the own home base or Tobruch, controlled at the start of the turn.
 */
#ifndef AK_ARRIVAL_H
#define AK_ARRIVAL_H

#include "ak_rules.h"

bool ak_arrival_place(const struct ak_ruleset *r, struct ak_state *s,
                      const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej);
bool ak_arrival_embark(const struct ak_ruleset *r, struct ak_state *s,
                       const struct ak_action *a, struct ak_events *ev, struct ak_reject *rej);
/* Could `side` place a unit at h this turn (port and control)? */
bool ak_arrival_port_ok(const struct ak_state *s, int side, ak_hex h, const char *code,
                        struct ak_reject *rej);

/* The one unit of the mover a place action names, or -1 with *rej. */
int ak_arrival_unit(const struct ak_state *s, const struct ak_action *a, struct ak_reject *rej);
/* The 1964 ports of arrival: the own home base and Tobruch. */
int ak_arrival_ports(const struct ak_state *s, int side, ak_hex *out, int max);

#endif
