/* ak_verify: akc's side of verifiable dice.
 *
 * Checks a game record (fetched with `record` or read from a file): the
 * revealed dice secret against the commitment given at the start, then
 * every action replayed by the shared rules library, the count of dice
 * rolled and each against the outcome the record gives, the final
 * state's hash and the result (ak_record_verify), then
 * the nonces this akc sent for the game against the recorded ones.
 */
#include <stdio.h>

#include "ak_client.h"
#include "ak_record.h"

/* The player's own nonces (ak_nonces.c) against the record: the replay
 * above proves the rolls follow from the recorded nonces; this proves the
 * recorded nonces of the player's actions are the ones he sent. */
static int check_kept_nonces(const json_t *record, const char *server, long long game, FILE *out)
{
    char why[300];
    int checked = 0;
    if (!server || ak_nonces_check(record, server, &checked, why, sizeof why) == 0) {
        if (checked)
            fprintf(out, "The %d dice nonce(s) this akc sent for its actions in game %lld are the ones recorded.\n",
                    checked, game);
        return 0;
    }
    fprintf(out, "game %lld: NOT VERIFIED: %s\n", game, why);
    return 1;
}

int ak_verify_print(const json_t *record, const char *server, FILE *out)
{
    struct ak_verify_report r;
    long long game = (long long)json_integer_value(json_object_get(record, "game"));
    if (!ak_record_verify(record, &r) && r.not_over) {
        fprintf(out, "game %lld cannot be verified until it is over: its dice secret is revealed only at the end\n",
                game);
        return AK_VERIFY_NOT_OVER;
    }
    if (r.error[0]) {
        fprintf(out, "game %lld: NOT VERIFIED: %s\n", game, r.error);
        return 1;
    }
    fprintf(out, "game %lld: verified. The dice secret matches the commitment %.16s...;\n"
                 "%d action(s) replayed by the rules with %d dice rolled from its seed;\n"
                 "final state %016llx as recorded; %s by %s.\n",
            game, json_string_value(json_object_get(record, "dice_commit")), r.actions, r.rolls,
            (unsigned long long)r.final_hash, r.result, r.reason);
    if (r.rolls_checked)
        fprintf(out, "Every roll recomputed is the one the record gives beside its action's nonce (%d).\n",
                r.rolls_checked);
    else if (r.rolls)
        fprintf(out, "The record gives no rolls of its own to compare (an older akd's).\n");
    if (r.crt_digest[0] && json_object_get(record, "crt_digest"))
        fprintf(out, "Its battles were fought on the combat results table \"%s\", digest %.16s..., the crt_digest "
                     "the record names: compare it with the one the game showed from its start.\n",
                r.crt_name, r.crt_digest);
    else if (r.crt_digest[0])
        fprintf(out, "Its battles were replayed on the combat results table the record carries, \"%s\", digest "
                     "%.16s...; the record names no crt_digest, so nothing ties that table to the game: compare the "
                     "digest with the one the game showed from its start.\n", r.crt_name, r.crt_digest);
    return check_kept_nonces(record, server, game, out);
}

int ak_verify_file(const char *path, const char *server, FILE *out)
{
    json_error_t e;
    json_t *record = json_load_file(path, 0, &e);
    if (!record) {
        if (e.line > 0)
            fprintf(stderr, "akc: %s: %s (line %d)\n", path, e.text, e.line);
        else
            fprintf(stderr, "akc: %s: %s\n", path, e.text);
        return 2;
    }
    int rc = ak_verify_print(record, server, out);
    json_decref(record);
    return rc;
}
