/* The wire protocol: framing limits, the message codec, JSON Patch. */
#include "ak_check.h"
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ak_codec.h"
#include "ak_frame.h"
#include "ak_json_pool.h"
#include "ak_engine.h"
#include "ak_notation.h"
#include "ak_patch.h"

static int lines_seen;
static char last[256];

static int on_line(void *ud, char *line, size_t len)
{
    (void)ud;
    lines_seen++;
    snprintf(last, sizeof last, "%.*s", (int)len, line);
    return 0;
}

START_TEST(framing)
{
    struct ak_frame f;
    ak_frame_init(&f, 16);
    lines_seen = 0;
    ck_assert_int_eq(ak_frame_feed(&f, "ab", 2, on_line, NULL), 0);
    ck_assert_int_eq(lines_seen, 0);
    ck_assert_int_eq(ak_frame_feed(&f, "c\r\n\nxy\n", 7, on_line, NULL), 0);
    ck_assert_int_eq(lines_seen, 2);        /* empty lines are skipped */
    ck_assert_str_eq(last, "xy");
    ck_assert_int_eq(ak_frame_feed(&f, "0123456789abcdefg", 17, on_line, NULL), -1);
    ak_frame_free(&f);
}
END_TEST

START_TEST(codec)
{
    char err[128];
    ck_assert_ptr_null(ak_msg_parse("{bad", 4, err, sizeof err));
    ck_assert(strstr(err, "malformed JSON") != NULL);
    ck_assert_ptr_null(ak_msg_parse("[1]", 3, err, sizeof err));
    json_t *m = ak_msg_parse("{\"id\":1,\"cmd\":\"hello\"}", 22, err, sizeof err);
    ck_assert_ptr_nonnull(m);
    json_t *e = ak_msg_error(json_object_get(m, "id"), "unknown_command", "no such");
    size_t len;
    char *s = ak_msg_encode(e, &len);
    ck_assert_str_eq(s, "{\"id\":1,\"ok\":false,\"error\":{\"code\":\"unknown_command\",\"message\":\"no such\"}}\n");
    ck_assert_int_eq(len, strlen(s));
    /* Into a buffer: too small says how much is needed and writes nothing
     * past it; with that much room, the same line. */
    char buf[128];
    memset(buf, '#', sizeof buf);
    ck_assert_int_eq(ak_msg_encode_to(e, buf, 10), len);
    ck_assert_int_eq(buf[10], '#');
    ck_assert_int_eq(ak_msg_encode_to(e, buf, len), len);
    ck_assert_int_eq(memcmp(buf, s, len), 0);
    ck_assert_int_eq(buf[len], '#');
    free(s);
    json_decref(e);
    /* A reply whose result is already text: the line ak_msg_ok gives,
     * for a request id of any shape and for none. */
    const char *result = "{\"seq\":3,\"events\":[{\"event\":\"moved\",\"text\":\"a \\\"b\\\"\"}]}";
    json_error_t je;
    json_t *ids[] = {json_object_get(m, "id"), json_pack("{s:[i,s]}", "k", 1, "x\ty"), NULL};
    for (int i = 0; i < 3; i++) {
        json_t *ok = ak_msg_ok(ids[i], json_loads(result, 0, &je));
        char *want = ak_msg_encode(ok, &len);
        ck_assert_uint_eq(ak_msg_ok_text_to(ids[i], result, strlen(result), NULL, 0), len);
        char line[256];
        ck_assert_uint_eq(ak_msg_ok_text_to(ids[i], result, strlen(result), line, sizeof line), len);
        ck_assert_int_eq(memcmp(line, want, len), 0);
        free(want);
        json_decref(ok);
    }
    json_decref(ids[1]);
    json_decref(m);
}
END_TEST

START_TEST(patch_roundtrip)
{
    json_t *a = json_loads("{\"turn\":1,\"units\":{\"x\":{\"hex\":\"W6\"},\"y/z\":{\"hex\":null}},\"l\":[1,2]}", 0, NULL);
    json_t *b = json_loads("{\"turn\":2,\"units\":{\"x\":{\"hex\":\"W7\"},\"q\":1},\"l\":[1,3]}", 0, NULL);
    json_t *p = ak_patch_diff(a, b);
    ck_assert_int_eq(json_array_size(p), 5);
    ck_assert_int_eq(ak_patch_apply(a, p), 0);
    ck_assert(json_equal(a, b));
    json_t *bad = json_loads("[{\"op\":\"replace\",\"path\":\"/nope/x\",\"value\":1}]", 0, NULL);
    ck_assert_int_eq(ak_patch_apply(a, bad), -1);
    json_decref(bad);
    json_decref(p);
    json_decref(a);
    json_decref(b);
}
END_TEST

/* The encoder writes what jansson writes, for every kind of value:
 * escapes, control characters, UTF-8, extreme integers, reals, nesting,
 * empty containers. */
START_TEST(encoder_matches_jansson)
{
    json_t *v = json_pack("{s:s,s:s,s:s,s:I,s:I,s:i,s:f,s:f,s:f,s:b,s:b,s:n,s:[],s:{},s:[i,[s,{s:[]}],f]}",
                          "plain", "bologna moved W6 to W7", "escapes", "quote \" back \\ slash / tab \t nl \n cr \r bs \b ff \f",
                          "utf8 \xc3\xa9", "caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x98\x80 \x7f",
                          "max", (json_int_t)INT64_MAX, "min", (json_int_t)INT64_MIN, "zero", 0,
                          "real", 3.25, "tiny", 1e-300, "big", 1e300, "t", 1, "f", 0, "null",
                          "empty", "obj", "nest", -7, "x", "k", 0.1);
    json_object_set_new(v, "control", json_stringn("\x01\x1f\0end", 6));
    json_t *top = json_pack("[o,s,i]", v, "", 42);
    const json_t *cases[] = {top, v, json_object_get(v, "escapes"), json_object_get(v, "max")};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *want = json_dumps(cases[i], JSON_COMPACT | JSON_ENCODE_ANY), *got = ak_json_text(cases[i]);
        ck_assert_ptr_nonnull(got);
        ck_assert_str_eq(got, want);
        char small[8];
        ck_assert_uint_eq(ak_json_text_to(cases[i], small, sizeof small), strlen(want));
        free(want);
        free(got);
    }
    /* As deep as the parser allows: still encoded (a request id is echoed). */
    char deep[2 * 2000 + 1];
    memset(deep, '[', 2000);
    memset(deep + 2000, ']', 2000);
    deep[4000] = '\0';
    json_error_t e;
    json_t *d = json_loads(deep, 0, &e);
    ck_assert_ptr_nonnull(d);
    char *text = ak_json_text(d);
    ck_assert_str_eq(text, deep);
    free(text);
    json_decref(d);
    json_decref(top);
}
END_TEST

static json_t *sample_message(int i)
{
    char big[700];
    memset(big, 'a' + i % 26, sizeof big - 1);
    big[sizeof big - 1] = '\0';
    return json_pack("{s:s,s:i,s:[s,s,{s:i}],s:s}", "push", "game", "seq", i, "patch", "x", "yz",
                     "n", i * 7, "big", big);
}

static void *build_off_thread(void *arg)
{
    json_t *m = sample_message(3);
    *(bool *)arg = json_integer_value(json_object_get(m, "seq")) == 3;
    json_decref(m);
    return NULL;
}

/* The allocator akd gives jansson: values come out whole, freed blocks are
 * reused (a second round of the same messages takes no new slab), values
 * larger than its classes and values made on another thread come from
 * malloc, and release hands jansson back to malloc. */
START_TEST(json_pool_reuses_blocks)
{
    ak_json_pool_install();
    json_t *batch[300];
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 300; i++)
            batch[i] = sample_message(i);
        for (int i = 0; i < 300; i++) {
            json_t *want = sample_message(i);
            ck_assert(json_equal(batch[i], want));
            json_decref(want);
        }
        size_t held = ak_json_pool_slab_bytes();
        ck_assert_uint_gt(held, 0);
        for (int i = 0; i < 300; i++)
            json_decref(batch[i]);
        static size_t after_first;
        if (round == 0)
            after_first = held;
        else
            ck_assert_uint_eq(held, after_first);
    }
    size_t held = ak_json_pool_slab_bytes();
    pthread_t t;
    bool ok = false;
    ck_assert_int_eq(pthread_create(&t, NULL, build_off_thread, &ok), 0);
    pthread_join(t, NULL);
    ck_assert(ok);
    ck_assert_uint_eq(ak_json_pool_slab_bytes(), held);
    ak_json_pool_release();
    ck_assert_uint_eq(ak_json_pool_slab_bytes(), 0);
    json_t *after = sample_message(1);     /* plain malloc again */
    json_decref(after);
}
END_TEST

/* A burst beyond the cap (a million small values alive at once, some
 * 48 MiB) keeps at most AK_JSON_POOL_CAP in slabs: the rest comes from
 * malloc and goes back to it, so the burst's peak is not kept for ever. */
START_TEST(json_pool_caps_its_slabs)
{
    enum { N = 1000000 };
    ak_json_pool_install();
    json_t **many = malloc(N * sizeof *many);
    ck_assert_ptr_nonnull(many);
    for (int i = 0; i < N; i++)
        many[i] = json_integer(i);
    size_t held = ak_json_pool_slab_bytes();
    ck_assert_uint_le(held, AK_JSON_POOL_CAP);
    ck_assert_uint_ge(held, AK_JSON_POOL_CAP - (64u << 10));   /* it did fill up to the cap */
    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(json_integer_value(many[i]), i);
        json_decref(many[i]);
    }
    for (int i = 0; i < N; i++)     /* again: the slabs are reused, none added */
        many[i] = json_integer(i);
    ck_assert_uint_eq(ak_json_pool_slab_bytes(), held);
    for (int i = 0; i < N; i++)
        json_decref(many[i]);
    free(many);
    ak_json_pool_release();
}
END_TEST

/* The struct-level patch akd pushes equals the diff of the two public
 * states, along a played stretch of game (moves, an end of movement). */
START_TEST(state_patch_matches_diff)
{
    struct ak_state a, b;
    ak_state_init(&a, 0, 7);
    static const char *const moves[][2] = {{"21pz5", "W14"}, {"savena", "W8"}, {"bologna", "W9"},
                                           {"brescia", "X8"}, {"pavia", "X9"}, {"trenta", "W10"}};
    for (size_t i = 0; i <= sizeof moves / sizeof moves[0]; i++) {
        struct ak_action act = {.side = AK_AXIS, .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
        if (i < sizeof moves / sizeof moves[0]) {
            act.kind = AK_ACT_MOVE;
            act.nunits = 1;
            act.units[0] = (uint8_t)ak_unit_find(ak_data(), moves[i][0]);
            act.hex = ak_hex_parse(moves[i][1]);
        } else {
            act.kind = AK_ACT_END_MOVEMENT;
        }
        struct ak_reject rej;
        b = a;
        ck_assert_msg(ak_apply(&b, &act, NULL, &rej), "action %zu: %s", i, rej.text);
        json_t *ja = ak_state_to_json(&a), *jb = ak_state_to_json(&b);
        json_t *ops = ak_state_patch(&a, &b);
        ck_assert_int_gt(json_array_size(ops), 0);
        ck_assert_int_eq(ak_patch_apply(ja, ops), 0);
        ck_assert(json_equal(ja, jb));
        json_decref(ja);
        json_decref(jb);
        json_decref(ops);
        a = b;
    }
}
END_TEST

/* The id of a line not parsed (over the rate) is picked out of its text
 * for the reply: a number or a plain string; anything else, null. */
START_TEST(peek_id)
{
    static const struct {
        const char *line;
        size_t len;
        const char *want;     /* its JSON, or NULL for none */
    } cases[] = {
        {"{\"id\":12,\"cmd\":\"x\"}", 0, "12"},
        {"{\"id\": \"abc\"}", 0, "\"abc\""},
        {"{\"id\":\"a\\\"b\"}", 0, NULL},              /* an escape */
        {"{\"id\":\"va\0\0cat\"}", 17, NULL},            /* raw NUL bytes */
        {"{\"id\":\"a\tb\"}", 0, NULL},                   /* a raw control byte */
        {"{\"id\":-7}", 0, "-7"},
        {"{\"id\":1234567890123456789}", 0, NULL},          /* too many digits */
        {"{\"cmd\":\"x\"}", 0, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = cases[i].len ? cases[i].len : strlen(cases[i].line);
        json_t *id = ak_msg_peek_id(cases[i].line, len);
        char *got = id ? json_dumps(id, JSON_ENCODE_ANY) : NULL;
        ck_assert_msg(cases[i].want ? got && strcmp(got, cases[i].want) == 0 : !got, "case %zu: %s", i,
                      got ? got : "none");
        free(got);
        json_decref(id);
    }
}
END_TEST

AK_CHECK_MAIN("proto", framing, codec, encoder_matches_jansson, json_pool_reuses_blocks, json_pool_caps_its_slabs,
              patch_roundtrip, state_patch_matches_diff,
              peek_id)
