/* ak_record: dice commitments and replaying a game record. */
#include "ak_record.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ak_dice.h"
#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_victory.h"

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

/* The roll an event reports, or 0 (an automatic victory rolls nothing). */
static int roll_of(const struct ak_event *e)
{
    if (e->kind == AK_EV_SUPPLY_ROLL || e->kind == AK_EV_ATTRITION)
        return e->a;
    return e->kind == AK_EV_BATTLE_RESOLVED ? e->b : 0;
}

json_t *ak_record_rolls(const struct ak_events *ev)
{
    json_t *list = json_array();
    for (int i = 0; ev && i < ev->n; i++)
        if (roll_of(&ev->ev[i]) > 0)
            json_array_append_new(list, json_integer(roll_of(&ev->ev[i])));
    return list;
}

/* The action's rolls against the record's (when it gives them). */
static bool rolls_match(const json_t *recorded, const json_t *rolled, struct ak_verify_report *r, int action)
{
    if (!recorded)
        return true;
    if (!json_equal((json_t *)recorded, (json_t *)rolled)) {
        char *want = json_dumps(recorded, JSON_COMPACT), *got = json_dumps(rolled, JSON_COMPACT);
        char why[200];
        snprintf(why, sizeof why, "rolled %.60s where the record says %.60s", got ? got : "?", want ? want : "?");
        free(want);
        free(got);
        return fail_at(r, action, why);
    }
    r->rolls_checked += (int)json_array_size(rolled);
    return true;
}

void ak_crt_digest(const char *text, size_t len, char out[65])
{
    unsigned char h[32];
    crypto_generichash(h, sizeof h, (const unsigned char *)text, len, NULL, 0);
    sodium_bin2hex(out, 65, h, sizeof h);
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
    /* Records made before the scheme was named carry none: scheme 1. */
    const json_t *scheme = json_object_get(record, "dice_scheme");
    struct ak_dice dice;
    if (!secret) {
        r->not_over = true;
        return fail(r, "the game is not over: its dice secret is revealed only at the end");
    }
    if (scheme && !json_is_integer(scheme))
        return fail(r, "dice_scheme is not a number");
    if (!ak_dice_open(secret, commit, scheme ? (int)json_integer_value(scheme) : AK_DICE_LEGACY, &dice))
        return fail(r, "the dice secret does not match the commitment made at the start (or the dice scheme is unknown)");
    const char *rules = json_string_value(json_object_get(record, "ruleset"));
    int ruleset = ak_ruleset_find(rules ? rules : "");
    if (ruleset < 0)
        return fail(r, "unknown ruleset");
    const json_t *position = json_object_get(record, "position");
    char err[200];
    /* The Updated ruleset's battles are fought on the table the record
     * carries (the operator's when the game began). */
    static struct ak_crt_table table;
    const json_t *crt = json_object_get(record, "crt_table");
    if (ak_ruleset_get(ruleset)->needs_crt_table) {
        if (!json_is_string(crt))
            return fail(r, "the record carries no combat results table (crt_table), and its ruleset needs one");
        if (json_string_length(crt) > AK_RECORD_CRT_MAX)
            return fail(r, "the record's combat results table is longer than 256 KiB");
        if (ak_crt_table_parse(&table, json_string_value(crt), err, sizeof err)) {
            snprintf(r->error, sizeof r->error, "the record's combat results table cannot be read: %.180s", err);
            return false;
        }
        /* The digest the game's summary showed from its start (akd's
         * crt_digest) names this very text. */
        ak_crt_digest(json_string_value(crt), json_string_length(crt), r->crt_digest);
        const char *want = json_string_value(json_object_get(record, "crt_digest"));
        if (json_object_get(record, "crt_digest") && (!want || strcmp(want, r->crt_digest) != 0))
            return fail(r, "the record's combat results table is not the one its crt_digest names");
        snprintf(r->crt_name, sizeof r->crt_name, "%s", table.name);
    } else if (crt && !json_is_null(crt)) {
        return fail(r, "the record carries a combat results table, and its ruleset has none");
    }
    if (!position)
        ak_dice_start(&dice, ruleset, &s);
    else if (!ak_state_from_position(position, dice.seed, &s, err, sizeof err)) {
        snprintf(r->error, sizeof r->error, "the record's starting position cannot be read: %.180s", err);
        return false;
    } else {
        ak_dice_position(&dice, &s);
    }
    if (ak_ruleset_get(ruleset)->needs_crt_table && ak_crt_attach(&s, &table) != 0)
        return fail(r, "too many combat results tables in use");
    struct ak_events ev = {0};
    /* The rolls of the start of the first player turn. */
    r->rolls = s.supply_roll ? 1 : 0;
    json_t *start = json_array();
    if (s.supply_roll)
        json_array_append_new(start, json_integer(s.supply_roll));
    bool start_ok = rolls_match(json_object_get(record, "start_rolls"), start, r, 0);
    json_decref(start);
    if (!start_ok)
        return fail(r, "the roll at the start differs from the record's start_rolls");
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(record, "actions"), i, x) {
        struct ak_action a;
        struct ak_reject rej;
        char err[200];
        const char *side = json_string_value(json_object_get(x, "side"));
        const json_t *nonce = json_object_get(x, "nonce");
        int sd = side ? ak_side_parse(side) : -1;
        ev.n = 0;
        if (sd < 0 || sd >= AK_SIDES ||
            !ak_action_from_json(json_object_get(x, "action"), sd, &a, err, sizeof err))
            return fail_at(r, (int)i + 1, "cannot be read");
        if ((nonce && !json_is_string(nonce)) || !ak_nonce_valid(json_string_value(nonce)))
            return fail_at(r, (int)i + 1, "has a nonce that is not 0 to 64 hex digits");
        ak_dice_before_action(&dice, s.actions + 1, json_string_value(nonce), &s);
        if (!ak_apply(&s, &a, &ev, &rej)) {
            char why[200];
            snprintf(why, sizeof why, "is refused by the rules: %.150s [%s]", rej.text, rej.code);
            return fail_at(r, (int)i + 1, why);
        }
        if (json_integer_value(json_object_get(x, "seq")) != (json_int_t)s.actions)
            return fail_at(r, (int)i + 1, "is out of sequence");
        json_t *rolled = ak_record_rolls(&ev);
        r->rolls += (int)json_array_size(rolled);
        bool same = rolls_match(json_object_get(x, "rolls"), rolled, r, (int)i + 1);
        json_decref(rolled);
        if (!same)
            return false;
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
    /* The reason too (a record that says "time" for a resignation lies). */
    const char *reason = json_string_value(json_object_get(record, "reason"));
    if (reason && strcmp(reason, r->reason) != 0)
        return fail(r, "the replayed reason differs from the record's");
    return true;
}
