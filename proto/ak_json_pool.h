/* ak_json_pool: a free-list allocator for jansson's values, for a server
 * that builds and frees many small messages on one thread (see the .c). */
#ifndef AK_JSON_POOL_H
#define AK_JSON_POOL_H

#include <stddef.h>

/* Make jansson allocate from the pool, for this thread. Call before any
 * JSON value exists (values made before would be freed wrongly). */
void ak_json_pool_install(void);
/* Give jansson back malloc and free, and free every slab; only when no
 * value made meanwhile is alive (at exit). */
void ak_json_pool_release(void);
/* Slabs are kept up to this many bytes; beyond it blocks come from malloc
 * and go back to it. */
#define AK_JSON_POOL_CAP (32u << 20)
/* Bytes taken from malloc for slabs so far. */
size_t ak_json_pool_slab_bytes(void);

#endif
