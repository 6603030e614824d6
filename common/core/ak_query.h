/* ak_query: the concrete actions open to the player the game waits for.
 *
 * ak_possible_actions() (ak_engine.h) says which kinds of action make sense
 * now; these queries list actual actions, each checked by applying it to a
 * copy of the state, so everything listed is legal. Clients use them to
 * offer choices (battles to declare, retreat routes, exchange picks), the
 * self-play test plays only from them, and the benchmark times them.
 * Moves are listed per unit from ak_move_destinations().
 */
#ifndef AK_QUERY_H
#define AK_QUERY_H

#include "ak_rules.h"

enum {
    AK_LIST_MOVES = 1 << 0,     /* include every move of every unit (costly) */
};

/* Every legal action of the waiting player, up to max; returns the count. */
int ak_legal_actions(const struct ak_state *s, unsigned flags, struct ak_action *out, int max);
/* The legal moves of one unit: one action per destination, with the path
 * the engine would choose for it (of its first max destinations). */
int ak_legal_moves(const struct ak_state *s, int unit, struct ak_action *out, int max);
/* The moves of the stack units[0..n) (on one square, of the waiting
 * player) to each destination of the movement search, staying put left
 * out, with the search's paths, up to max; how many. Untried: the search
 * has checked the steps and their costs, not what depends on the whole
 * position after the move (SUSTAIN ATTACKS 2; LOGISTICS, MOVEMENT 5),
 * which ak_legal_moves checks and ak_apply judges. For a playout or a
 * search that applies what it picks anyway. */
int ak_untried_moves(const struct ak_state *s, const uint8_t *units, int n, struct ak_action *out, int max);
/* Where unit could end a move if its side moved now, whoever's turn it is
 * (the squares, up to max): the enemy's reach, for a player (or the
 * computer) weighing what the enemy can do next turn. Its own movement as
 * the ruleset counts it, through the position as it stands, with what it
 * carries from its own last turn: in the Updated ruleset an enemy unit
 * that built a box stays put, and during the mover's mechanized movement
 * phase only mechanized units reach, at that phase's allowance (an
 * under-estimate of the enemy's next movement phase). */
int ak_reach(const struct ak_state *s, int unit, ak_hex *out, int max);
/* Battles the attacker could declare now: against each enemy square next
 * to his units, by all his free units next to it and by each alone, with
 * the first supply unit that makes the battle legal. */
int ak_query_battles(const struct ak_state *s, struct ak_action *out, int max);
/* The waiting player's combat units that the rules oblige to attack and
 * that are in no declared battle yet (ATTACKING 6: a unit that ended its
 * move in an enemy zone): how many, up to max of them in out. */
int ak_query_owed(const struct ak_state *s, uint8_t *out, int max);

/* Whether the waiting player can still finish the part of the turn he is
 * in (the turn, side or phase changes, or the game ends) by legal actions
 * other than resigning: found, a dead end (no sequence within the search's
 * depth), or unknown (budget actions applied without an answer). The
 * search and its limits: ak_forward.c. */
enum ak_forward { AK_FORWARD_FOUND, AK_FORWARD_DEAD_END, AK_FORWARD_UNKNOWN };
enum ak_forward ak_way_forward(const struct ak_state *s, int budget);
/* The same, and with a way found, its first action in *first (the ending
 * action itself when it is legal now): what a computer player falls back
 * on when its own choices cannot finish the part of the turn. */
enum ak_forward ak_way_forward_first(const struct ak_state *s, int budget, struct ak_action *first);
/* The whole way found, up to max actions in order (the part's ending
 * action last when it ends now, else left to follow): its length, or -1
 * when none was found. A player that follows it step by step never goes
 * round in circles, as one asking for the first action each time can
 * (a battle declared, then called off, again and again). */
int ak_way_forward_path(const struct ak_state *s, int budget, struct ak_action *path, int max);

#endif
