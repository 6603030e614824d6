/* ak_codec: parse and build protocol messages. */
#include "ak_codec.h"

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

size_t ak_msg_encode_to(const json_t *msg, char *buf, size_t cap)
{
    size_t n = json_dumpb(msg, buf, cap, JSON_COMPACT);
    if (n == 0)
        return 0;
    if (n < cap)
        buf[n] = '\n';
    return n + 1;
}

char *ak_msg_encode(const json_t *msg, size_t *len)
{
    char *s = json_dumps(msg, JSON_COMPACT);
    if (!s)
        return NULL;
    size_t n = strlen(s);
    char *out = realloc(s, n + 2);
    if (!out) {
        free(s);
        return NULL;
    }
    out[n] = '\n';
    out[n + 1] = '\0';
    if (len)
        *len = n + 1;
    return out;
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

json_t *ak_msg_error(const json_t *id, const char *code, const char *message)
{
    return json_pack("{s:o,s:b,s:{s:s,s:s}}", "id", id_copy(id), "ok", 0, "error",
                     "code", code, "message", message);
}
