/* test_dice: the dice schemes of proto/ak_dice.h and records that use them.
 *
 * The known answers below were computed apart from this code (Python's
 * hashlib.blake2b(b"akd-dice-2" + seq.to_bytes(4, "little") + nonce,
 * key=secret, digest_size=32), read as four little-endian 64-bit words),
 * so they check the scheme PROTOCOL.md documents, not just this code
 * against itself.
 */
#include <sodium.h>
#include <string.h>

#include "ak_check.h"
#include "ak_dice.h"
#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_player.h"
#include "ak_record.h"

static void known_dice(struct ak_dice *d)
{
    memset(d, 0, sizeof *d);
    d->scheme = AK_DICE_KEYED;
    for (int i = 0; i < 32; i++)
        d->key[i] = (uint8_t)i;
}

START_TEST(keyed_scheme_known_answers)
{
    struct ak_dice d;
    known_dice(&d);
    struct ak_state s;
    memset(&s, 0, sizeof s);
    ak_dice_before_action(&d, 1, "abc", &s);
    ck_assert_uint_eq(s.rng.s[0], 0x365c82a38855a286ull);
    ck_assert_uint_eq(s.rng.s[3], 0x14031221dd400b59ull);
    ak_dice_before_action(&d, 7, "00ff", &s);
    ck_assert_uint_eq(s.rng.s[0], 0x3680e6f5c3d3111aull);
    ck_assert_uint_eq(s.rng.s[1], 0x0cde44a14041e24aull);
    /* No nonce is the empty nonce. */
    ak_dice_before_action(&d, 1, NULL, &s);
    ck_assert_uint_eq(s.rng.s[0], 0x7d5b0f6fbc8f52b0ull);
    ak_dice_before_action(&d, 1, "", &s);
    ck_assert_uint_eq(s.rng.s[0], 0x7d5b0f6fbc8f52b0ull);
    /* The game's set-up is action 0 with no nonce. */
    ak_dice_start(&d, 0, &s);
    struct ak_state t;
    struct ak_rng r0 = {{0x88c44f55131f4ce3ull, 0x95ff4cd9a05ed190ull, 0xce670ba658d00aa2ull, 0x8b66b65e10474eb7ull}};
    ak_state_init_rng(&t, 0, &r0);
    ck_assert_uint_eq(ak_state_hash(&s), ak_state_hash(&t));
}
END_TEST

/* The nonce changes the rolls; the secret does too; the same pair gives
 * the same rolls (a verifier can replay them). */
START_TEST(nonce_and_secret_both_matter)
{
    struct ak_dice d, other;
    known_dice(&d);
    known_dice(&other);
    other.key[31] ^= 1;
    int differ_nonce = 0, differ_secret = 0;
    for (uint32_t seq = 1; seq <= 200; seq++) {
        struct ak_state a, b, c, e;
        memset(&a, 0, sizeof a);
        b = c = e = a;
        ak_dice_before_action(&d, seq, "01", &a);
        ak_dice_before_action(&d, seq, "02", &b);
        ak_dice_before_action(&other, seq, "01", &c);
        ak_dice_before_action(&d, seq, "01", &e);
        ck_assert(memcmp(&a.rng, &e.rng, sizeof a.rng) == 0);
        differ_nonce += ak_rng_die(&a.rng) != ak_rng_die(&b.rng);
        ak_dice_before_action(&d, seq, "01", &a);
        differ_secret += ak_rng_die(&a.rng) != ak_rng_die(&c.rng);
    }
    /* Independent dice differ 5 times in 6: about 167 of 200. */
    ck_assert_int_gt(differ_nonce, 130);
    ck_assert_int_gt(differ_secret, 130);
}
END_TEST

START_TEST(nonce_syntax)
{
    ck_assert(ak_nonce_valid(NULL));
    ck_assert(ak_nonce_valid(""));
    ck_assert(ak_nonce_valid("0123456789abcdefABCDEF"));
    char n[AK_NONCE_MAX + 1];
    ck_assert(sodium_init() >= 0);
    ak_nonce_new(n);
    ck_assert_int_eq(strlen(n), AK_NONCE_MAX / 2);
    ck_assert(ak_nonce_valid(n));
    char longest[AK_NONCE_MAX + 2];
    memset(longest, 'a', sizeof longest);
    longest[AK_NONCE_MAX] = '\0';
    ck_assert(ak_nonce_valid(longest));
    longest[AK_NONCE_MAX] = 'a';
    longest[AK_NONCE_MAX + 1] = '\0';
    ck_assert(!ak_nonce_valid(longest));
    ck_assert(!ak_nonce_valid("xyz"));
    ck_assert(!ak_nonce_valid("12 34"));
}
END_TEST

/* A game played with the keyed scheme, as akd plays it: random players
 * (tests/ak_player.c) choose, and the dice of each action are set up from
 * a fresh nonce just before it is applied. The record carries the scheme
 * and the nonces; ak_record_verify must replay it to the same end. */
struct keyed_game {
    struct ak_dice dice;
    json_t *actions;
    struct ak_state before;     /* the state the last action was chosen in */
};

static void set_dice(struct ak_player_game *g, const struct ak_action *a)
{
    struct keyed_game *k = g->ud;
    char nonce[AK_NONCE_MAX + 1];
    ak_nonce_new(nonce);
    json_array_append_new(k->actions, json_pack("{s:I,s:s,s:o,s:s}", "seq", (json_int_t)g->s.actions + 1,
                                                "side", a->side == AK_AXIS ? "axis" : "allied",
                                                "action", ak_action_to_json_in(a, &g->s), "nonce", nonce));
    ak_dice_before_action(&k->dice, g->s.actions + 1, nonce, &g->s);
}

static json_t *play_keyed_game(uint64_t seed, int turns, int *battles)
{
    static struct ak_player_game g;
    static struct keyed_game k;
    char secret[65], commit[65];
    ck_assert(sodium_init() >= 0);      /* idempotent */
    ak_dice_new(&k.dice, secret, commit);
    k.actions = json_array();
    ak_player_start(&g, seed);
    ak_dice_start(&k.dice, 0, &g.s);
    g.before_apply = set_dice;
    g.ud = &k;
    ck_assert(ak_player_play(&g, turns));
    *battles = 0;
    size_t i;
    json_t *x;
    json_array_foreach(k.actions, i, x)
        *battles += strcmp(json_string_value(json_object_get(json_object_get(x, "action"), "action")), "resolve") == 0;
    char hash[20];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)ak_state_hash(&g.s));
    json_t *rec = json_pack("{s:s,s:s,s:s,s:s,s:i,s:o,s:s,s:s}", "format", AK_RECORD_FORMAT, "ruleset", "classic",
                            "dice_commit", commit, "dice_secret", secret, "dice_scheme", AK_DICE_KEYED,
                            "actions", k.actions, "result", ak_result_name(g.s.result), "final_hash", hash);
    ak_player_free(&g);
    return rec;
}

START_TEST(keyed_record_verifies_and_tampering_shows)
{
    int battles = 0;
    json_t *rec = NULL;
    /* Random players do not always meet: the first game with a battle. */
    for (uint64_t seed = 1; seed < 40 && !battles; seed++) {
        json_decref(rec);
        rec = play_keyed_game(seed, 39, &battles);
    }
    ck_assert_int_gt(battles, 0);
    struct ak_verify_report r;
    ck_assert_msg(ak_record_verify(rec, &r), "%s", r.error);
    ck_assert_int_gt(r.rolls, 1);
    ck_assert_int_eq(r.rolls_checked, 0);      /* the record gives no rolls of its own */
    /* A record that gives each action's rolls (issue 27) is checked roll by
     * roll: saying no action rolled anything fails at the first that did. */
    json_t *actions0 = json_object_get(rec, "actions");
    size_t k;
    json_t *y;
    json_array_foreach(actions0, k, y)
        json_object_set_new(y, "rolls", json_array());
    ck_assert(!ak_record_verify(rec, &r));
    ck_assert_msg(strstr(r.error, "rolled [") && strstr(r.error, "where the record says []"), "%s", r.error);
    json_array_foreach(actions0, k, y)
        json_object_del(y, "rolls");
    /* Other nonces: other supply rolls and battles, so the replay differs
     * (the final hash, or an action no longer legal). One changed nonce
     * may give the same roll by chance (1 in 6); every one changed cannot
     * give a whole campaign's rolls. */
    json_t *actions = json_object_get(rec, "actions");
    size_t i;
    json_t *x;
    json_array_foreach(actions, i, x)
        json_object_set_new(x, "nonce", json_string("ffff"));
    ck_assert(!ak_record_verify(rec, &r));
    /* The same record claiming the legacy scheme does not verify either. */
    json_decref(rec);
    rec = play_keyed_game(1, 39, &battles);
    json_object_set_new(rec, "dice_scheme", json_integer(AK_DICE_LEGACY));
    ck_assert(!ak_record_verify(rec, &r));
    json_object_set_new(rec, "dice_scheme", json_integer(3));
    ck_assert(!ak_record_verify(rec, &r));
    ck_assert_msg(strstr(r.error, "scheme"), "%s", r.error);
    json_decref(rec);
}
END_TEST

/* Records from before the scheme had a name (no dice_scheme, no nonces)
 * keep verifying: the seed is the secret's first 8 bytes. */
/* Records from before the scheme had a name (no dice_scheme, no nonces)
 * keep verifying: the seed is the secret's first 8 bytes, set once. */
static void drop_nonce(struct ak_player_game *g, const struct ak_action *a)
{
    json_array_append_new(g->ud, json_pack("{s:I,s:s,s:o}", "seq", (json_int_t)g->s.actions + 1,
                                           "side", a->side == AK_AXIS ? "axis" : "allied",
                                           "action", ak_action_to_json_in(a, &g->s)));
}

START_TEST(legacy_record_still_verifies)
{
    struct ak_dice d;
    char secret[65], commit[65];
    ck_assert(sodium_init() >= 0);
    ak_dice_new(&d, secret, commit);
    ck_assert(ak_dice_open(secret, commit, AK_DICE_LEGACY, &d));
    static struct ak_player_game g;
    json_t *list = json_array();
    ak_player_start(&g, 4);
    ak_state_init(&g.s, 0, d.seed);
    g.before_apply = drop_nonce;
    g.ud = list;
    ck_assert(ak_player_play(&g, 6));
    char hash[20];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)ak_state_hash(&g.s));
    json_t *rec = json_pack("{s:s,s:s,s:s,s:s,s:o,s:s,s:s}", "format", AK_RECORD_FORMAT, "ruleset", "classic",
                            "dice_commit", commit, "dice_secret", secret, "actions", list,
                            "result", ak_result_name(g.s.result), "final_hash", hash);
    ak_player_free(&g);
    struct ak_verify_report r;
    ck_assert_msg(ak_record_verify(rec, &r), "%s", r.error);
    ck_assert_int_gt(r.rolls, 1);
    json_decref(rec);
}
END_TEST

/* The player's own nonce (issue 27): the same key, server, game and action
 * number give the same nonce (a retry), any other input another one, and
 * only the key's holder can know it. */
START_TEST(derived_nonces)
{
    uint8_t key[32] = {1}, other[32] = {2};
    char a[AK_NONCE_MAX + 1], b[AK_NONCE_MAX + 1], c[AK_NONCE_MAX + 1];
    ak_nonce_derive(key, "play.example.org:7140", 12, 34, a);
    ak_nonce_derive(key, "play.example.org:7140", 12, 34, b);
    ck_assert_str_eq(a, b);
    ck_assert_int_eq((int)strlen(a), 32);
    ck_assert(ak_nonce_valid(a));
    ak_nonce_derive(key, "play.example.org:7140", 12, 35, c);
    ck_assert_str_ne(a, c);
    ak_nonce_derive(key, "play.example.org:7140", 13, 34, c);
    ck_assert_str_ne(a, c);
    ak_nonce_derive(key, "other.example.org:7140", 12, 34, c);
    ck_assert_str_ne(a, c);
    ak_nonce_derive(other, "play.example.org:7140", 12, 34, c);
    ck_assert_str_ne(a, c);
}
END_TEST

AK_CHECK_MAIN("dice", keyed_scheme_known_answers, nonce_and_secret_both_matter, nonce_syntax,
              keyed_record_verifies_and_tampering_shows, legacy_record_still_verifies, derived_nonces)
