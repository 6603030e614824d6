/* ak_patch: JSON Patch diff and apply (add, remove, replace). */
#include "ak_patch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void pointer_append(char *out, size_t cap, const char *base, const char *key)
{
    size_t n = strlen(base);
    snprintf(out, cap, "%s/", base);
    n++;
    for (const char *k = key; *k && n + 3 < cap; k++) {
        if (*k == '~' || *k == '/') {
            out[n++] = '~';
            out[n++] = *k == '~' ? '0' : '1';
        } else {
            out[n++] = *k;
        }
    }
    out[n] = '\0';
}

static void op(json_t *ops, const char *kind, const char *path, const json_t *value)
{
    json_t *o = json_pack("{s:s,s:s}", "op", kind, "path", path);
    if (value)
        json_object_set_new(o, "value", json_deep_copy(value));
    json_array_append_new(ops, o);
}

static void diff(json_t *ops, const char *path, const json_t *a, const json_t *b)
{
    char sub[512];
    if (json_is_object(a) && json_is_object(b)) {
        const char *key;
        json_t *va;
        json_object_foreach((json_t *)a, key, va) {
            pointer_append(sub, sizeof sub, path, key);
            json_t *vb = json_object_get(b, key);
            if (!vb)
                op(ops, "remove", sub, NULL);
            else
                diff(ops, sub, va, vb);
        }
        json_t *vb;
        json_object_foreach((json_t *)b, key, vb) {
            if (!json_object_get(a, key)) {
                pointer_append(sub, sizeof sub, path, key);
                op(ops, "add", sub, vb);
            }
        }
        return;
    }
    if (json_is_array(a) && json_is_array(b) && json_array_size(a) == json_array_size(b)) {
        for (size_t i = 0; i < json_array_size(a); i++) {
            char idx[24];
            snprintf(idx, sizeof idx, "%zu", i);
            pointer_append(sub, sizeof sub, path, idx);
            diff(ops, sub, json_array_get(a, i), json_array_get(b, i));
        }
        return;
    }
    if (!json_equal((json_t *)a, (json_t *)b))
        op(ops, "replace", path, b);
}

json_t *ak_patch_diff(const json_t *from, const json_t *to)
{
    json_t *ops = json_array();
    diff(ops, "", from, to);
    return ops;
}

void ak_patch_diff_at(json_t *ops, const char *path, const json_t *from, const json_t *to)
{
    diff(ops, path, from, to);
}

void ak_patch_replace(json_t *ops, const char *path, json_t *value)
{
    json_t *o = json_object();
    json_object_set_new(o, "op", json_string("replace"));
    json_object_set_new(o, "path", json_string(path));
    json_object_set_new(o, "value", value);
    json_array_append_new(ops, o);
}

/* Split "/a/b~1c" into its parent container and the unescaped last key. */
static json_t *resolve_parent(json_t *doc, const char *path, char *last, size_t cap)
{
    if (path[0] != '/')
        return NULL;
    json_t *cur = doc;
    const char *p = path + 1;
    for (;;) {
        size_t n = 0;
        while (*p && *p != '/' && n + 1 < cap) {
            if (*p == '~' && (p[1] == '0' || p[1] == '1')) {
                last[n++] = p[1] == '0' ? '~' : '/';
                p += 2;
            } else {
                last[n++] = *p++;
            }
        }
        last[n] = '\0';
        if (*p != '/')
            return cur;
        p++;
        cur = json_is_object(cur) ? json_object_get(cur, last)
              : json_is_array(cur) ? json_array_get(cur, (size_t)strtoul(last, NULL, 10))
                                   : NULL;
        if (!cur)
            return NULL;
    }
}

int ak_patch_apply(json_t *doc, const json_t *patch)
{
    size_t i;
    json_t *o;
    if (!json_is_array(patch))
        return -1;
    json_array_foreach(patch, i, o) {
        const char *kind = json_string_value(json_object_get(o, "op"));
        const char *path = json_string_value(json_object_get(o, "path"));
        json_t *value = json_object_get(o, "value");
        char key[256];
        json_t *parent = (kind && path) ? resolve_parent(doc, path, key, sizeof key) : NULL;
        if (!parent)
            return -1;
        int rc = -1;
        if (json_is_object(parent)) {
            if (strcmp(kind, "remove") == 0)
                rc = json_object_del(parent, key);
            else if (value && (strcmp(kind, "add") == 0 ||
                               (strcmp(kind, "replace") == 0 && json_object_get(parent, key))))
                rc = json_object_set(parent, key, value);
        } else if (json_is_array(parent)) {
            size_t idx = (size_t)strtoul(key, NULL, 10);
            if (strcmp(kind, "remove") == 0)
                rc = json_array_remove(parent, idx);
            else if (strcmp(kind, "replace") == 0 && value)
                rc = json_array_set(parent, idx, value);
            else if (strcmp(kind, "add") == 0 && value)
                rc = strcmp(key, "-") == 0 ? json_array_append(parent, value)
                                           : json_array_insert(parent, idx, value);
        }
        if (rc != 0)
            return -1;
    }
    return 0;
}
