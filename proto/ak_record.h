/* ak_record: the game record and replaying it.
 *
 * The record (format "akd-record-1", documented in proto/PROTOCOL.md) is
 * the export format of a game: players, the dice commitment and scheme
 * (ak_dice.h), the secret once the game is over, every action in order
 * with the side that sent it and its nonce, the result and the hash of the
 * final state. ak_record_verify replays it with the rules library. Shared
 * by akd (which writes records) and akc (which verifies them).
 */
#ifndef AK_RECORD_H
#define AK_RECORD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AK_RECORD_FORMAT "akd-record-1"
#define AK_RECORD_CRT_MAX (256 * 1024)     /* a combat results table's text, as akd reads it */

/* A combat results table's digest: BLAKE2b-256 of its text, in hex (what
 * akd stores it under and shows as a game's crt_digest). */
void ak_crt_digest(const char *text, size_t len, char out[65]);


struct ak_verify_report {
    int actions;            /* actions replayed */
    int rolls;              /* dice rolled in them (supply table, battles, attrition) */
    int rolls_checked;      /* ... of them compared with the record's own (0: a record without) */
    uint64_t final_hash;
    char result[32], reason[32];
    char error[240];        /* why it failed, empty if it did not */
    char crt_name[120];     /* the Updated ruleset: the table fought on, by its name line ... */
    char crt_digest[65];    /* ... and its BLAKE2b-256 (hex), as the game's summary showed it */
    bool not_over;          /* failed only because the game is still running */
};

struct ak_events;
/* The outcomes of the rolls an action made, in the order made, as the
 * record carries them beside its nonce: the supply table's die, each
 * battle's roll (the sum where a table is rolled on two dice), each
 * attrition roll. */
json_t *ak_record_rolls(const struct ak_events *ev);

/* Replay a record: check the dice commitment, every action, every roll
 * against the outcome the record gives beside the action's nonce (the
 * first that differs is named), the final state's hash and the result. */
bool ak_record_verify(const json_t *record, struct ak_verify_report *r);

#endif
