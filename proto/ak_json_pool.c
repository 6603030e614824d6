/* ak_json_pool: a free-list allocator for jansson's values.
 *
 * A busy akd builds and frees a few hundred small jansson values per
 * action (each request, reply, push, patch operation and event), a batch
 * of actions at a time; with the C library's malloc that churn cost more
 * than the rules engine. This keeps freed blocks on one list per size
 * class and hands them out again, carving new ones from 64 KiB slabs:
 * an allocation is a pointer pop. Blocks above the largest class come from
 * malloc. Memory in slabs is kept for reuse, never returned, up to
 * AK_JSON_POOL_CAP: beyond it (a burst of huge requests) blocks come from malloc
 * and go back to it, so a burst does not keep its peak for ever.
 *
 * Not thread-safe, by design: it serves the thread that installed it (the
 * event loop, where every message is built and freed); an allocation on
 * any other thread goes to malloc. Freeing a pooled value on another
 * thread is a bug and aborts.
 */
#include "ak_json_pool.h"
#include "ak_asan.h"

#include <jansson.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>


#define SLAB_BYTES (64 * 1024)
#define HEADER 16               /* keeps the payload 16-byte aligned */
#define FROM_MALLOC 0xff

static const size_t class_size[] = {16, 32, 48, 64, 80, 96, 128, 160, 192, 256, 320, 384, 512};
#define NCLASSES (sizeof class_size / sizeof class_size[0])
#define LARGEST 512

/* Every block has a header before the value: its class, and while it is
 * free the next free block of that class. Under AddressSanitizer a free
 * block's value is poisoned, so a use after free is still caught. */
struct header {
    uint8_t cls;
    struct header *next;
};
_Static_assert(sizeof(struct header) <= HEADER, "the header fits");

static struct header *free_list[NCLASSES];
static uint8_t class_of_16ths[LARGEST / 16 + 1];    /* size rounded up to 16ths -> class */
static pthread_t owner;
static void *slabs;             /* each slab starts with the address of the one before */
static size_t slab_bytes;

static void push_free(int cls, uint8_t *block)
{
    struct header *h = (struct header *)block;
    h->cls = (uint8_t)cls;
    h->next = free_list[cls];
    free_list[cls] = h;
    AK_POISON(block + HEADER, class_size[cls]);
}

static void *carve_slab(int cls)
{
    size_t block = HEADER + class_size[cls];
    uint8_t *slab = malloc(SLAB_BYTES);
    if (!slab)
        return NULL;
    *(void **)slab = slabs;
    slabs = slab;
    slab_bytes += SLAB_BYTES;
    /* The first block is returned, the rest go on the list. */
    size_t first = 16;
    for (size_t off = first + block; off + block <= SLAB_BYTES; off += block)
        push_free(cls, slab + off);
    ((struct header *)(slab + first))->cls = (uint8_t)cls;
    return slab + first + HEADER;
}

static void *from_malloc(size_t size)
{
    struct header *h = malloc(HEADER + size);
    if (!h)
        return NULL;
    h->cls = FROM_MALLOC;
    return (uint8_t *)h + HEADER;
}

static void *pool_malloc(size_t size)
{
    if (size > LARGEST || !pthread_equal(pthread_self(), owner))
        return from_malloc(size);
    int cls = class_of_16ths[(size + 15) / 16];
    struct header *h = free_list[cls];
    if (!h && slab_bytes >= AK_JSON_POOL_CAP)
        return from_malloc(size);
    if (!h)
        return carve_slab(cls);
    free_list[cls] = h->next;
    AK_UNPOISON((uint8_t *)h + HEADER, class_size[cls]);
    return (uint8_t *)h + HEADER;
}

static void pool_free(void *ptr)
{
    if (!ptr)
        return;
    struct header *h = (struct header *)((uint8_t *)ptr - HEADER);
    if (h->cls == FROM_MALLOC) {
        free(h);
        return;
    }
    if (!pthread_equal(pthread_self(), owner)) {
        fprintf(stderr, "ak_json_pool: a pooled JSON value freed off its thread\n");
        abort();
    }
    push_free(h->cls, (uint8_t *)h);
}

void ak_json_pool_install(void)
{
    int cls = 0;
    for (size_t s16 = 0; s16 <= LARGEST / 16; s16++) {
        while (class_size[cls] < s16 * 16)
            cls++;
        class_of_16ths[s16] = (uint8_t)cls;
    }
    owner = pthread_self();
    json_set_alloc_funcs(pool_malloc, pool_free);
}

void ak_json_pool_release(void)
{
    json_set_alloc_funcs(malloc, free);
    while (slabs) {
        uint8_t *slab = slabs;
        slabs = *(void **)slab;
        AK_UNPOISON(slab, SLAB_BYTES);
        free(slab);
    }
    for (size_t i = 0; i < NCLASSES; i++)
        free_list[i] = NULL;
    slab_bytes = 0;
}

size_t ak_json_pool_slab_bytes(void)
{
    return slab_bytes;
}
