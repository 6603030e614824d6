/* ak_victory: HOW TO WIN.
 *
 * A side wins when the enemy has no combat unit left on the board or at
 * sea; or when it has held both fortresses and both home bases at the start
 * of two consecutive own player turns; or, for the Allied player, when the
 * last October 1942 turn ends without a German victory. The state records
 * the result and the reason (enum ak_win_reason).
 */
#ifndef AK_VICTORY_H
#define AK_VICTORY_H

#include "ak_rules.h"

/* End the game with a winner and a reason. */
void ak_victory_declare(struct ak_state *s, int winner, int reason, struct ak_events *ev);
/* After losses: a side without combat units has lost. True if over. */
bool ak_victory_by_elimination(struct ak_state *s, struct ak_events *ev);
/* At the start of a player turn, after control is judged. True if over. */
bool ak_victory_by_key_squares(struct ak_state *s, struct ak_events *ev);
const char *ak_win_reason_name(int reason);
/* RESIGN and TIMEOUT: the acting side loses, whoever the game waits for. */
bool ak_victory_adjudicate(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                           struct ak_events *ev, struct ak_reject *rej);
bool ak_victory_concede(const struct ak_ruleset *r, struct ak_state *s, const struct ak_action *a,
                        struct ak_events *ev, struct ak_reject *rej);

#endif
