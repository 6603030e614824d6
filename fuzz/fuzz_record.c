/* fuzz_record: the game record loader and verifier.
 *
 * What it fuzzes: ak_record_verify (proto/ak_record.h), which `akc verify`
 * runs on a record fetched from akd or read from a file (--file): the
 * format, the dice commitment and scheme (proto/ak_dice.h), the starting
 * position if there is one, every action with its side, nonce and number,
 * the final hash and the result. The seed corpus holds valid records (so
 * the fuzzer starts past the commitment check, which it cannot forge).
 *
 * Input: JSON text (any value, no duplicate keys).
 *
 * What it asserts:
 *   - a record that does not verify says why (a non-empty error);
 *   - a record that verifies has no error, counts as many actions as it
 *     lists, and verifies again to the same final hash and result (the
 *     replay depends on nothing but the record).
 */
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_record.h"

#define AK_FUZZ_NAME "fuzz_record"
#include "ak_fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (sodium_init() < 0)
        fail("libsodium failed to initialise");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error_t je;
    json_t *j = json_loadb((const char *)data, size, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);
    if (!j)
        return 0;
    struct ak_verify_report r, again;
    if (!ak_record_verify(j, &r)) {
        if (!r.error[0])
            fail("a record was refused without a reason");
        json_decref(j);
        return 0;
    }
    if (r.error[0])
        fail("a record verified with an error: %s", r.error);
    if ((size_t)r.actions != json_array_size(json_object_get(j, "actions")))
        fail("a record of %zu actions verified %d", json_array_size(json_object_get(j, "actions")),
             r.actions);
    if (!ak_record_verify(j, &again) || again.final_hash != r.final_hash || strcmp(again.result, r.result) != 0)
        fail("a record verified once does not verify the same again");
    json_decref(j);
    return 0;
}
