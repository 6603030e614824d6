/* ak_notation: the game in JSON, apart from the rules.
 *
 * Actions as players and the wire write them, the public state a client
 * draws and diffs, and events as JSON and as readable lines. Kept apart
 * from the rules as scalachess keeps its notations apart: the engine works
 * on structs; only this file knows the spelling.
 *
 * Action JSON (documented in proto/PROTOCOL.md):
 *   {"action":"move","units":["21pz5","21pz3"],"to":"W16"}
 *   {"action":"move","units":["7arm7"],"path":["H16","H17"]}
 *   {"action":"place","unit":"15pz8","at":"W3"}
 *   {"action":"embark","units":["9ainf20"]}
 *   {"action":"end_movement"}  {"action":"destroy_supply","units":["asup2"]}
 *   {"action":"end_turn"}
 *   {"action":"battle","attackers":["7arm3im"],"defenders":["trenta"],"supply":"asup1"}
 *   {"action":"cancel","battle":1}   {"action":"resolve","battle":1}
 *   {"action":"abandon","units":["22gdsinf"]}
 *   {"action":"retreat","units":["trenta"],"path":["H16","H17"]}
 *   {"action":"exchange","units":["7arm3im"]}
 *   {"action":"advance","units":["7arm3im"],"to":"H16"}   {"action":"advance"}
 *   {"action":"substitute","out":["7arm3im","2arm3"],"in":["subarm1"]}
 */
#ifndef AK_NOTATION_H
#define AK_NOTATION_H

#include <jansson.h>

#include "ak_rules.h"

/* Parse an action for `side`; false with a message in err. */
bool ak_action_from_json(const json_t *j, int side, struct ak_action *a, char *err, int errlen);
json_t *ak_action_to_json(const struct ak_action *a);
/* The same; a substitution needs the state before it to tell which units
 * go off the board and which come on. */
json_t *ak_action_to_json_in(const struct ak_action *a, const struct ak_state *s);
const char *ak_action_kind_name(int kind);

/* Everything a client needs to draw the game and check moves locally:
 * the whole state except the dice generator, which stays secret. */
json_t *ak_state_to_json(const struct ak_state *s);
/* The RFC 6902 JSON Patch from a's public state to b's, worked out from
 * the structs (only the units that changed are compared as JSON): the same
 * result as diffing the two ak_state_to_json documents, far cheaper. */
json_t *ak_state_patch(const struct ak_state *a, const struct ak_state *b);
/* Rebuild a state from ak_state_to_json output (the dice are zero). */
bool ak_state_from_json(const json_t *j, struct ak_state *s, char *err, int errlen);
/* A game that starts from a given position (a public state, say a training
 * situation) with dice from seed: the position must be in play, without
 * battles or decisions pending, and every unit on board on a playable
 * square. */
bool ak_state_from_position(const json_t *j, uint64_t seed, struct ak_state *s, char *err,
                            int errlen);

json_t *ak_event_to_json(const struct ak_event *e);
/* The events an action gave, as a list, read with the state after it: a
 * battle fought on the game's own table (the Updated ruleset) gets its
 * cell in words ("result", and at the end of "text"), which the event
 * alone does not carry. */
json_t *ak_events_to_json(const struct ak_state *after, const struct ak_events *ev);
/* A line for people: "21pz5 moved W6 to W16 (10 squares, 10 by road)". */
void ak_event_text(const struct ak_event *e, char *buf, int len);

const char *ak_phase_name(int phase);
const char *ak_where_name(int where);
const char *ak_result_name(int result);

/* The hazards for the side to move (ak_hazards.h) as a JSON array:
 * [{"kind","rule","section","text","units":[...],"square","count","of",
 *   "confirm_before"}] (square, count/of and confirm_before when set). */
json_t *ak_hazards_to_json(const struct ak_state *s);
/* The exact chances of the mover's declared, unfought battles (ak_odds.h),
 * at most max_resolutions faces fought (0: all); NULL when there are none
 * or the game waits for a decision (ak_odds_json.c). */
json_t *ak_odds_to_json(const struct ak_state *s, int max_resolutions);

/* The board for a client that draws it (ak_board_json.c): {"grid":{"rows",
 * "numbers","neighbour_steps"},"squares":[{"hex","row","number","terrain"}],
 * "road":[[A,B]...],"blocked":[[A,B]...],"names":[{"hex","name"}],
 * "home_bases":{"axis","allied"},"fortresses":[...],"counters":[{"unit",
 * "counter","nationality","side","type","attack","defense","movement",
 * "substitute"}]}. */
json_t *ak_board_to_json(void);

#endif
