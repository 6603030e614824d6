/* ak_patch: RFC 6902 JSON Patch, the diff format of state pushes.
 *
 * akd computes the patch between the public state before and after an
 * action; akc applies it to its copy. Objects are diffed key by key, arrays
 * element by element (same length) or replaced whole, scalars replaced.
 */
#ifndef AK_PATCH_H
#define AK_PATCH_H

#include <jansson.h>

json_t *ak_patch_diff(const json_t *from, const json_t *to);
/* Append to ops the operations that turn the value at path (a JSON
 * Pointer, "" for the root) from `from` into `to`. */
void ak_patch_diff_at(json_t *ops, const char *path, const json_t *from, const json_t *to);
/* Append one "replace" of the value at path; value is taken over. */
void ak_patch_replace(json_t *ops, const char *path, json_t *value);
/* Apply in place; 0 on success, -1 if an operation does not fit the doc. */
int ak_patch_apply(json_t *doc, const json_t *patch);

#endif
