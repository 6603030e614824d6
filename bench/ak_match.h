/* ak_match: one game between two configurations of the computer player,
 * refereed by the rules engine exactly as akd would referee it, and the
 * figures a match of them gives (issue 31). Shared by ai-bench (the
 * strength of the levels) and ai-tune (the evaluation's weights tuned by
 * self-play), so both measure the same thing the same way.
 *
 * A game starts from the 1941 campaign and stops at its end or after
 * turn stop_turn; a stopped game is adjudicated by the evaluation at the
 * judge's weights: a side ahead by more than AK_MATCH_ADJUDICATE factors
 * wins, else a draw; or, for a judge with a scale, a score between 0 and
 * 1 that grows with the lead (1 / (1 + e^(-lead/scale))), which tells
 * the tuner more than a draw does of two close positions. An action the
 * AI proposes that the engine refuses, a state that breaks the engine's
 * own checks, or a game that runs 200,000 actions (the AI going round in
 * circles) is a failure, never a score. */
#ifndef AK_MATCH_H
#define AK_MATCH_H

#include <stdint.h>

#include "ak_ai.h"

#define AK_MATCH_ADJUDICATE 20.0

/* One side's computer player: its level, its weights, its plan budget. */
struct ak_match_player {
    int level;
    struct ak_ai_weights w;
    int plan;               /* the whole-movement plan's budget; -1: the level's own */
};

struct ak_match_tally {
    double score[AK_SIDES];     /* the first player's, by its side */
    int games[AK_SIDES], played_out, adjudicated, failures;
    long decisions, player_turns;
    double seconds;
};

struct ak_match_judge {
    const struct ak_ai_weights *w;
    double scale;           /* 0: win, draw or loss by AK_MATCH_ADJUDICATE; else the soft score */
};

/* A player at level with the default weights and the level's plan. */
struct ak_match_player ak_match_player(int level);
/* One game, player a taking a_side; a's score (1, 0.5, 0), or -1 on a
 * failure (reported on stderr). Exits 2 when the ruleset needs a table
 * and AK_AI_CRT names none. */
double ak_match_game(int ruleset, const struct ak_match_player *a, const struct ak_match_player *b, int a_side,
                     int stop_turn, uint64_t seed, const struct ak_match_judge *judge, struct ak_match_tally *t);
/* The Wilson interval of a score p over n games, 95%. */
void ak_match_wilson(double p, int n, double *lo, double *hi);
double ak_match_now(void);

#endif
