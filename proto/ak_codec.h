/* ak_codec: the message shapes of the wire protocol (proto/PROTOCOL.md).
 *
 * Requests are JSON objects with an "id" and a "cmd"; replies echo the id
 * with "ok": true and a "result", or "ok": false and an "error" carrying a
 * stable machine code and a message in words; pushes carry "push" instead
 * of an id. Every message is one line of compact JSON.
 */
#ifndef AK_CODEC_H
#define AK_CODEC_H

#include <jansson.h>

/* Parse one line; NULL with a message if it is not a JSON object. */
json_t *ak_msg_parse(const char *line, size_t len, char *err, size_t errlen);
/* Compact JSON plus '\n'; caller frees. */
char *ak_msg_encode(const json_t *msg, size_t *len);
/* The same line written into buf if it fits in cap bytes; returns its
 * length either way (more than cap: call again with that much room), 0 if
 * msg cannot be encoded. For a server that writes into buffers it keeps. */
size_t ak_msg_encode_to(const json_t *msg, char *buf, size_t cap);
/* Any value as compact JSON text (what json_dumps gives with JSON_COMPACT,
 * faster); _to writes into buf if it fits and returns the length either
 * way, 0 if j cannot be encoded. */
char *ak_json_text(const json_t *j);
size_t ak_json_text_to(const json_t *j, char *buf, size_t cap);
/* The line of ak_msg_ok(id, result) when the result is already JSON text
 * (written into buf as ak_msg_encode_to does). */
size_t ak_msg_ok_text_to(const json_t *id, const char *result, size_t result_len, char *buf, size_t cap);
json_t *ak_msg_ok(const json_t *id, json_t *result);
/* The "id" of a request line, picked out of the text without parsing it
 * (an integer or a plain string), for answering a request that will not
 * be parsed; NULL if none is found. */
json_t *ak_msg_peek_id(const char *line, size_t len);
/* Replace every byte of s that is not part of valid UTF-8 with '?'. */
void ak_utf8_clean(char *s);
json_t *ak_msg_error(const json_t *id, const char *code, const char *message);

#endif
