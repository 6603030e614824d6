/* ak_codec: parse and build protocol messages. */
#include "ak_codec.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

json_t *ak_msg_parse(const char *line, size_t len, char *err, size_t errlen)
{
    json_error_t je;
    json_t *j = json_loadb(line, len, JSON_REJECT_DUPLICATES, &je);
    if (!j) {
        snprintf(err, errlen, "malformed JSON at character %d: %s", je.position, je.text);
        return NULL;
    }
    if (!json_is_object(j)) {
        snprintf(err, errlen, "a message must be a JSON object");
        json_decref(j);
        return NULL;
    }
    return j;
}

json_t *ak_msg_peek_id(const char *line, size_t len)
{
    static const char key[] = "\"id\"";
    const char *end = line + len, *p = line;
    while (p + sizeof key - 1 <= end && memcmp(p, key, sizeof key - 1) != 0)
        p++;
    if (p + sizeof key - 1 > end)
        return NULL;
    p += sizeof key - 1;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p >= end || *p++ != ':')
        return NULL;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p < end && *p == '"') {
        /* A plain string only: no escape, no control byte (a raw one is not
         * JSON, and echoed as \u0000 it would make the reply unreadable to
         * clients that refuse NUL in strings, jansson's default). */
        const char *q = ++p;
        while (q < end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20 && q - p < 64)
            q++;
        if (q >= end || *q != '"')
            return NULL;
        return json_stringn(p, (size_t)(q - p));   /* NULL if not UTF-8 */
    }
    const char *q = p + (p < end && *p == '-');
    long long v = 0;
    int digits = 0;
    for (; q < end && *q >= '0' && *q <= '9' && digits < 18; q++, digits++)
        v = v * 10 + (*q - '0');
    if (!digits || (q < end && *q >= '0' && *q <= '9'))
        return NULL;
    return json_integer(*p == '-' ? -v : v);
}

/* The encoder. jansson's json_dumpb guards against cycles by recording
 * every container it enters in a hash table keyed by its address printed
 * as text: a malloc and a snprintf per object, which made encoding the
 * largest cost of a busy akd. Messages are trees built here, never cyclic,
 * so this walks them directly. The text is exactly what json_dumps with
 * JSON_COMPACT gives (tests/test_proto.c compares the two). */
struct text_out {
    char *buf;
    size_t cap, len;
};

static void put(struct text_out *o, const char *s, size_t n)
{
    if (o->len + n <= o->cap)
        memcpy(o->buf + o->len, s, n);
    o->len += n;
}

static void put_string(struct text_out *o, const char *s, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    put(o, "\"", 1);
    size_t run = 0;     /* characters that need no escape, written at once */
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch >= 0x20 && ch != '"' && ch != '\\')
            continue;
        put(o, s + run, i - run);
        run = i + 1;
        char esc[6] = {'\\', (char)ch};
        size_t len = 2;
        switch (ch) {
        case '"': case '\\': break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default:
            memcpy(esc + 1, "u00", 3);
            esc[4] = hex[ch >> 4];
            esc[5] = hex[ch & 15];
            len = 6;
        }
        put(o, esc, len);
    }
    put(o, s + run, n - run);
    put(o, "\"", 1);
}

static void put_integer(struct text_out *o, json_int_t v)
{
    char digits[24], *p = digits + sizeof digits;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--p = '-';
    put(o, p, (size_t)(digits + sizeof digits - p));
}

/* Reals are rare in messages: jansson's own text for them (its rules for
 * precision and exponents). */
static bool put_real(struct text_out *o, const json_t *j)
{
    char text[64];
    size_t n = json_dumpb(j, text, sizeof text, JSON_ENCODE_ANY | JSON_COMPACT);
    if (n == 0 || n > sizeof text)
        return false;
    put(o, text, n);
    return true;
}

static bool put_value(struct text_out *o, const json_t *j, int depth)
{
    if (depth > 2048)   /* the parser's limit: anything parsed can be echoed */
        return false;
    const char *key;
    json_t *v;
    size_t i;
    bool first = true;
    switch (json_typeof(j)) {
    case JSON_OBJECT:
        put(o, "{", 1);
        json_object_foreach((json_t *)j, key, v) {
            if (!first)
                put(o, ",", 1);
            first = false;
            put_string(o, key, strlen(key));
            put(o, ":", 1);
            if (!put_value(o, v, depth + 1))
                return false;
        }
        put(o, "}", 1);
        return true;
    case JSON_ARRAY:
        put(o, "[", 1);
        json_array_foreach(j, i, v) {
            if (i > 0)
                put(o, ",", 1);
            if (!put_value(o, v, depth + 1))
                return false;
        }
        put(o, "]", 1);
        return true;
    case JSON_STRING:
        put_string(o, json_string_value(j), json_string_length(j));
        return true;
    case JSON_INTEGER:
        put_integer(o, json_integer_value(j));
        return true;
    case JSON_REAL:
        return put_real(o, j);
    case JSON_TRUE:
        put(o, "true", 4);
        return true;
    case JSON_FALSE:
        put(o, "false", 5);
        return true;
    case JSON_NULL:
        put(o, "null", 4);
        return true;
    }
    return false;
}

size_t ak_json_text_to(const json_t *j, char *buf, size_t cap)
{
    struct text_out o = {buf, cap, 0};
    return j && put_value(&o, j, 0) ? o.len : 0;
}

#define SCRATCH_KEEP (256 * 1024)

/* Encode into a scratch buffer kept between calls (one pass, not one to
 * measure and one to write), then copy out with extra bytes at the end. */
static char *encode_copy(const json_t *j, size_t extra, size_t *len)
{
    static _Thread_local char *scratch;
    static _Thread_local size_t cap;
    size_t n = ak_json_text_to(j, scratch, cap);
    if (n > cap) {
        char *bigger = realloc(scratch, n);
        if (!bigger)
            return NULL;
        scratch = bigger;
        cap = n;
        n = ak_json_text_to(j, scratch, cap);
    }
    char *s = n ? malloc(n + extra + 1) : NULL;
    if (s)
        memcpy(s, scratch, n);
    if (cap > SCRATCH_KEEP) {     /* a rare large message: not kept */
        free(scratch);
        scratch = NULL;
        cap = 0;
    }
    *len = n;
    return s;
}

char *ak_json_text(const json_t *j)
{
    size_t n;
    char *s = encode_copy(j, 0, &n);
    if (s)
        s[n] = '\0';
    return s;
}

size_t ak_msg_encode_to(const json_t *msg, char *buf, size_t cap)
{
    size_t n = ak_json_text_to(msg, buf, cap);
    if (n == 0)
        return 0;
    if (n < cap)
        buf[n] = '\n';
    return n + 1;
}

char *ak_msg_encode(const json_t *msg, size_t *len)
{
    size_t n;
    char *out = encode_copy(msg, 1, &n);
    if (!out)
        return NULL;
    out[n] = '\n';
    out[n + 1] = '\0';
    if (len)
        *len = n + 1;
    return out;
}

size_t ak_msg_ok_text_to(const json_t *id, const char *result, size_t result_len, char *buf, size_t cap)
{
    static const char ok[] = ",\"ok\":true,\"result\":";
    struct text_out o = {buf, cap, 0};
    put(&o, "{\"id\":", 6);
    if (!id)
        put(&o, "null", 4);
    else if (!put_value(&o, id, 0))
        return 0;
    put(&o, ok, sizeof ok - 1);
    put(&o, result, result_len);
    put(&o, "}\n", 2);
    return o.len;
}

static json_t *id_copy(const json_t *id)
{
    return id ? json_deep_copy(id) : json_null();
}

json_t *ak_msg_ok(const json_t *id, json_t *result)
{
    return json_pack("{s:o,s:b,s:o}", "id", id_copy(id), "ok", 1, "result",
                     result ? result : json_object());
}

/* Length of the valid UTF-8 sequence at s (1 to 4), 0 if none starts
 * there (a stray continuation byte, an overlong or cut-off sequence). */
static int utf8_seq(const unsigned char *s)
{
    int n = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
          : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((n == 3 && s[0] == 0xe0 && s[1] < 0xa0) || (n == 3 && s[0] == 0xed && s[1] >= 0xa0) ||
        (n == 4 && s[0] == 0xf0 && s[1] < 0x90) || (n == 4 && s[0] == 0xf4 && s[1] >= 0x90))
        return 0;   /* overlong, surrogate, beyond U+10FFFF */
    return n;
}

void ak_utf8_clean(char *s)
{
    for (unsigned char *p = (unsigned char *)s; *p;) {
        int n = utf8_seq(p);
        if (n == 0)
            *p++ = '?';
        else
            p += n;
    }
}

json_t *ak_msg_error(const json_t *id, const char *code, const char *message)
{
    /* Error texts quote what the client sent, cut to a buffer's size: a cut
     * through a character, or bytes that were never UTF-8, would make
     * jansson refuse the string and the request go unanswered. */
    char text[1024];
    snprintf(text, sizeof text, "%s", message ? message : "");
    ak_utf8_clean(text);
    json_t *m = json_pack("{s:o,s:b,s:{s:s,s:s}}", "id", id_copy(id), "ok", 0, "error",
                          "code", code, "message", text);
    return m ? m : json_pack("{s:n,s:b,s:{s:s,s:s}}", "id", "ok", 0, "error", "code", code, "message", "");
}
