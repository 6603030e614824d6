/* ak_dice: where a game's dice come from, so that nobody can know a roll
 * before the action that makes it is sent, and everybody can check every
 * roll afterwards.
 *
 * When a game is created akd draws a 32-byte secret and tells the players
 * only its commitment, the BLAKE2b-256 hash of the secret; the secret is
 * revealed when the game ends. Two schemes derive the rolls from it:
 *
 *   1 (legacy, games created before it had a number): the first 8 bytes of
 *     the secret (little-endian, top bit cleared) seed the game's
 *     generator once, and every roll follows from that seed. Whoever reads
 *     the secret (the operator, anyone with a copy of the database) knows
 *     every future roll.
 *   2 (keyed): before action number n is applied, the generator's whole
 *     256-bit state is set to BLAKE2b-256 keyed with the secret over
 *       "akd-dice-2" || n (4 bytes, little-endian) || the action's nonce,
 *     where the nonce is the text (0 to 64 hex digits) the player's client
 *     drew at random and sent with the action. Action 0 is the set-up of
 *     the game (the first supply table roll) with an empty nonce. The rolls
 *     of an action depend on a secret the player cannot see and a nonce the
 *     server cannot know in advance.
 *
 * proto/PROTOCOL.md documents the scheme for anyone writing a verifier.
 * The rules library stays pure: it only ever sees the generator's state.
 */
#ifndef AK_DICE_H
#define AK_DICE_H

#include <stdbool.h>
#include <stdint.h>

#include "ak_state.h"

enum { AK_DICE_LEGACY = 1, AK_DICE_KEYED = 2, AK_DICE_CURRENT = AK_DICE_KEYED };
#define AK_NONCE_MAX 64     /* hex digits */

struct ak_dice {
    int scheme;
    uint8_t key[32];        /* the secret */
    uint64_t seed;          /* scheme 1's seed */
};

/* A new secret and its commitment (64 hex digits each), for the current
 * scheme. */
void ak_dice_new(struct ak_dice *d, char secret[65], char commit[65]);
/* The dice a secret gives; false if the secret is not 64 hex digits, does
 * not hash to the commitment, or the scheme is unknown. */
bool ak_dice_open(const char *secret, const char *commit, int scheme, struct ak_dice *d);
/* A nonce a client may send: NULL or 0 to AK_NONCE_MAX hex digits. */
bool ak_nonce_valid(const char *nonce);
/* A fresh random nonce of AK_NONCE_MAX / 2 hex digits (akc's). */
void ak_nonce_new(char out[AK_NONCE_MAX + 1]);

/* The nonce a client sends with action number seq of game on server: a
 * keyed BLAKE2b-128 of those under the client's own 32-byte key (so a
 * retry of the same action sends the same nonce, and the server cannot
 * know it in advance), 32 hex digits. */
void ak_nonce_derive(const uint8_t key[32], const char *server, long long game, uint32_t seq,
                     char out[AK_NONCE_MAX + 1]);

/* The game's state before its first action: the campaign's (position
 * NULL) or the given position's, with the dice set up. */
void ak_dice_start(const struct ak_dice *d, int ruleset, struct ak_state *s);
/* Before action number seq (1-based) is applied to s: its dice (scheme 2;
 * scheme 1's generator runs on untouched). nonce NULL is the empty one. */
void ak_dice_before_action(const struct ak_dice *d, uint32_t seq, const char *nonce, struct ak_state *s);
/* After a position is read: its dice (scheme 1: seeded; 2: action 0). */
void ak_dice_position(const struct ak_dice *d, struct ak_state *s);

#endif
