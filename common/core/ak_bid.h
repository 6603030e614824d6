/* ak_bid: a side bid's effect on the opening position (issue 32).
 *
 * Tournament players bid for sides in supply units: the winner of the
 * auction plays the side he bid for and his opponent starts with that
 * many extra supply units. The auction itself is the server's (players,
 * turns, acceptance); what the bid does to the game is the rules', here,
 * so that akd, a record's verifier and any other engine agree on it.
 *
 * The reading (docs/rules-notes.md, "Side bids"): the extra units are
 * placed at the start as the side's initial supply is, on the square of
 * its initial supply unit (PREPARE FOR PLAY: Tobruch for the Allies, W6
 * for the Axis), within the on-board quota (LOGISTICS: Allied at most 4,
 * Axis at most 3), so a bid is at most 3 to the Allies and 2 to the Axis.
 * The quota is not lifted and nothing is held as supply due: one unit a
 * turn is all LOGISTICS, MOVEMENT 6 lets a side start, and a unit held
 * back would arrive only when the side's own schedule allows one. */
#ifndef AK_BID_H
#define AK_BID_H

#include "ak_rules.h"

/* How many extra supply units side may receive in state s, which must be
 * a game's opening position (0 otherwise). */
int ak_bid_supply_max(const struct ak_state *s, int side);
/* Place n extra supply units of side (0 <= n <= ak_bid_supply_max) on the
 * square of its initial supply unit; false with *rej (rule BID) and s
 * unchanged otherwise. */
bool ak_bid_place(struct ak_state *s, int side, int n, struct ak_reject *rej);

#endif
