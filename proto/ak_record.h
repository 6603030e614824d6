/* ak_record: verifiable dice and the game record.
 *
 * Dice: when a game starts akd draws a 32-byte secret; the game's dice seed
 * is its first 8 bytes (little-endian, top bit cleared) and the players are
 * told only the commitment, the BLAKE2b-256 hash of the secret. The secret
 * is revealed when the game ends, so anyone can check that the dice came
 * from the seed committed to before the first roll.
 *
 * The record (format "akd-record-1", documented in proto/PROTOCOL.md) is
 * the export format of a game: players, the commitment, the secret once the
 * game is over, every action in order with the side that sent it, the
 * result and the hash of the final state. ak_record_verify replays it with
 * the rules library. Shared by akd (which writes records) and akc (which
 * verifies them).
 */
#ifndef AK_RECORD_H
#define AK_RECORD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AK_RECORD_FORMAT "akd-record-1"

/* A new secret and its commitment (64 hex digits each) and the seed. */
void ak_dice_new(char secret[65], char commit[65], uint64_t *seed);
/* The seed a secret gives; false if the secret is not 64 hex digits or does
 * not hash to the commitment. */
bool ak_dice_open(const char *secret, const char *commit, uint64_t *seed);

struct ak_verify_report {
    int actions;            /* actions replayed */
    int rolls;              /* dice rolled in them (supply table and battles) */
    uint64_t final_hash;
    char result[32], reason[32];
    char error[240];        /* why it failed, empty if it did not */
};

/* Replay a record: check the dice commitment, every action, the final
 * state's hash and the result. */
bool ak_record_verify(const json_t *record, struct ak_verify_report *r);

#endif
