/* ak_record: dice commitments and replaying a game record. */
#include "ak_record.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_victory.h"

static void to_hex(const unsigned char *b, size_t n, char *out)
{
    sodium_bin2hex(out, n * 2 + 1, b, n);
}

static uint64_t seed_of(const unsigned char *secret)
{
    uint64_t seed = 0;
    for (int i = 7; i >= 0; i--)
        seed = seed << 8 | secret[i];
    return seed & INT64_MAX;    /* SQLite integers are signed */
}

void ak_dice_new(char secret[65], char commit[65], uint64_t *seed)
{
    unsigned char s[32], h[32];
    randombytes_buf(s, sizeof s);
    crypto_generichash(h, sizeof h, s, sizeof s, NULL, 0);
    to_hex(s, sizeof s, secret);
    to_hex(h, sizeof h, commit);
    *seed = seed_of(s);
}

bool ak_dice_open(const char *secret, const char *commit, uint64_t *seed)
{
    unsigned char s[32], h[32];
    size_t len;
    char hex[65];
    if (!secret || !commit || strlen(secret) != 64 ||
        sodium_hex2bin(s, sizeof s, secret, 64, NULL, &len, NULL) != 0 || len != 32)
        return false;
    crypto_generichash(h, sizeof h, s, sizeof s, NULL, 0);
    to_hex(h, sizeof h, hex);
    if (strcmp(hex, commit) != 0)
        return false;
    *seed = seed_of(s);
    return true;
}

static bool fail(struct ak_verify_report *r, const char *why)
{
    snprintf(r->error, sizeof r->error, "%s", why);
    return false;
}

static bool fail_at(struct ak_verify_report *r, int action, const char *why)
{
    snprintf(r->error, sizeof r->error, "action %d %s", action, why);
    return false;
}

static int count_rolls(const struct ak_events *ev)
{
    int n = 0;
    for (int i = 0; i < ev->n; i++)
        n += ev->ev[i].kind == AK_EV_SUPPLY_ROLL ||
             (ev->ev[i].kind == AK_EV_BATTLE_RESOLVED && ev->ev[i].b > 0);
    return n;
}

bool ak_record_verify(const json_t *record, struct ak_verify_report *r)
{
    static struct ak_state s;
    memset(r, 0, sizeof *r);
    const char *format = json_string_value(json_object_get(record, "format"));
    if (!format || strcmp(format, AK_RECORD_FORMAT) != 0)
        return fail(r, "not a game record (format akd-record-1)");
    const char *secret = json_string_value(json_object_get(record, "dice_secret"));
    const char *commit = json_string_value(json_object_get(record, "dice_commit"));
    uint64_t seed;
    if (!secret)
        return fail(r, "the game is not over: its dice secret is revealed only at the end");
    if (!ak_dice_open(secret, commit, &seed))
        return fail(r, "the dice secret does not match the commitment made at the start");
    const char *rules = json_string_value(json_object_get(record, "ruleset"));
    int ruleset = ak_ruleset_find(rules ? rules : "");
    if (ruleset < 0)
        return fail(r, "unknown ruleset");
    const json_t *position = json_object_get(record, "position");
    char err[200];
    if (!position)
        ak_state_init(&s, ruleset, seed);
    else if (!ak_state_from_position(position, seed, &s, err, sizeof err)) {
        snprintf(r->error, sizeof r->error, "the record's starting position cannot be read: %.180s", err);
        return false;
    }
    struct ak_events ev = {0};
    /* The rolls of the start of the first player turn. */
    r->rolls = s.supply_roll ? 1 : 0;
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(record, "actions"), i, x) {
        struct ak_action a;
        struct ak_reject rej;
        char err[200];
        const char *side = json_string_value(json_object_get(x, "side"));
        int sd = side ? ak_side_parse(side) : -1;
        ev.n = 0;
        if (sd < 0 || sd >= AK_SIDES ||
            !ak_action_from_json(json_object_get(x, "action"), sd, &a, err, sizeof err))
            return fail_at(r, (int)i + 1, "cannot be read");
        if (!ak_apply(&s, &a, &ev, &rej))
            return fail_at(r, (int)i + 1, "is refused by the rules");
        if (json_integer_value(json_object_get(x, "seq")) != (json_int_t)s.actions)
            return fail_at(r, (int)i + 1, "is out of sequence");
        r->rolls += count_rolls(&ev);
        r->actions++;
    }
    r->final_hash = ak_state_hash(&s);
    snprintf(r->result, sizeof r->result, "%s", ak_result_name(s.result));
    snprintf(r->reason, sizeof r->reason, "%s", ak_win_reason_name(s.result_reason));
    char hash[20];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)r->final_hash);
    const char *want = json_string_value(json_object_get(record, "final_hash"));
    if (!want || strcmp(want, hash) != 0)
        return fail(r, "the replayed final state differs from the record's");
    const char *result = json_string_value(json_object_get(record, "result"));
    if (!result || strcmp(result, r->result) != 0)
        return fail(r, "the replayed result differs from the record's");
    return true;
}
