/* ak_player: a random player for self-play and benchmarks.
 *
 * It chooses only among the actions the engine's queries offer
 * (ak_legal_actions, ak_legal_moves), with a few preferences that keep a
 * game moving (it places arrivals, moves a handful of units, declares every
 * battle it can and removes what it cannot fight), and checks the game's
 * invariants after every action. Used by ak-selfplay and bench/.
 */
#ifndef AK_PLAYER_H
#define AK_PLAYER_H

#include "ak_engine.h"

#define AK_PLAYER_ACTIONS_MAX 60000

struct ak_player_game {
    struct ak_state s;
    struct ak_rng player;           /* the players' own choices */
    int n;                          /* actions applied */
    struct ak_action *log;          /* AK_PLAYER_ACTIONS_MAX of each */
    uint64_t *hash;                 /* state hash after each action */
    int moves_left;                 /* moves the mover still wants this portion */
    int portion_steps;
    bool give_up;                   /* combat: cancel everything, remove the owed */
    bool check;                     /* check invariants after every action */
    int ruleset;                    /* the rules played (ak_ruleset_get), 0 classic */
    bool toward_enemy;              /* half the moves go as near the enemy as they can */
    /* No dead ends (issue 34): after every action the waiting player must
     * still have a way to finish the part of the turn he is in
     * (ak_way_forward); unknown answers are counted, not failed. */
    bool forward;
    int forward_budget;             /* actions the search may apply (0: 20000) */
    long forward_checks, forward_unknown;
    /* Supply units may go next to the enemy (LOGISTICS, MOVEMENT 5) like
     * any unit, which the careful default avoids. */
    bool reckless;
    /* Called before each chosen action is applied to s (NULL: none): a
     * server's dice scheme sets the action's dice here (ak_dice.h). */
    void (*before_apply)(struct ak_player_game *g, const struct ak_action *a);
    void *ud;
};

/* The combat results table written for testing (tests/data/crt-test.txt,
 * compiled in), parsed once. */
const struct ak_crt_table *ak_test_crt(void);
/* ak_state_init, and a ruleset that fights on an operator's table gets
 * the one written for testing (what self-play, replays and benchmarks
 * play on). */
void ak_player_init_state(struct ak_state *s, int ruleset, uint64_t seed);

/* A new game from seed, with the log buffers allocated. */
void ak_player_start(struct ak_player_game *g, uint64_t seed);
void ak_player_free(struct ak_player_game *g);
/* Play until the game is over or reaches turn stop_turn; false (with a
 * message on stderr) on an invariant broken or a game that cannot go on. */
bool ak_player_play(struct ak_player_game *g, int stop_turn);

#endif
