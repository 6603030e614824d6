/* ak_fuzz: what every harness of fuzz/ shares. A harness defines
 * AK_FUZZ_NAME (its name, for messages) before including this, and calls
 * fail() when an assertion breaks: the message, then abort(), which
 * libFuzzer reports as a crash and keeps the input for. */
#ifndef AK_FUZZ_H
#define AK_FUZZ_H

#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn, unused));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", AK_FUZZ_NAME);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

/* The arena: where a harness's JSON values of one stretch of work go
 * instead of malloc: fuzz_request's parsing of akd's output for its
 * checks, fuzz_scenario's round trip of a state (ak_state_to_json,
 * ak_state_patch: code under test).
 *
 * Why: under AddressSanitizer every malloc and free is costly (a
 * quarantine, a stack trace): profiled with perf, fuzz_request's parsing
 * of the replies took a quarter of its time and fuzz_scenario's round trip
 * half of it. Between fuzz_arena_begin() and fuzz_arena_end() jansson
 * takes memory from this bump arena, emptied at each begin; at any other
 * time, malloc as before (all of akd's own JSON in fuzz_request, all of
 * the scenario interpreter's).
 *
 * What is still caught in the arena: each block has a 16-byte header,
 * poisoned, between it and the block before (an overflow runs into it, or
 * into the block's poisoned padding); a freed block is poisoned (a use
 * after free); freeing a block twice, or an address that is not a block's,
 * fails; a block still in use at fuzz_arena_end fails, as a leak (which
 * LeakSanitizer, blind to the arena, would have reported), so no value
 * outlives its stretch. What is lost: ASan's reports there say
 * use-after-poison, without the stacks of the allocation and the free; to
 * see those, run the input again with FUZZ_ARENA_OFF=1 (malloc
 * throughout). Freeing looks at the address: inside the arena it is the
 * above, outside free(). A block that does not fit comes from malloc. */
#include "ak_asan.h"

#define FUZZ_ARENA_BYTES (32u << 20)
#define FUZZ_ARENA_LIVE 0x4c495645u
#define FUZZ_ARENA_FREED 0x46524545u

struct fuzz_arena_header {
    size_t size;
    uint32_t state;     /* FUZZ_ARENA_LIVE or FUZZ_ARENA_FREED */
};
_Static_assert(sizeof(struct fuzz_arena_header) <= 16, "the header fits in 16 bytes");

static _Alignas(16) unsigned char fuzz_arena[FUZZ_ARENA_BYTES];
static size_t fuzz_arena_used;
static size_t fuzz_arena_live;      /* blocks allocated and not yet freed */
static bool fuzz_arena_on;
static bool fuzz_arena_off;         /* FUZZ_ARENA_OFF=1: malloc throughout */

static void *fuzz_arena_malloc(size_t n) __attribute__((unused));
static void *fuzz_arena_malloc(size_t n)
{
    if (!fuzz_arena_on || n == 0 || n > FUZZ_ARENA_BYTES)
        return malloc(n);
    size_t need = 16 + ((n + 15) & ~(size_t)15);
    if (need > FUZZ_ARENA_BYTES - fuzz_arena_used)
        return malloc(n);
    unsigned char *h = fuzz_arena + fuzz_arena_used;
    fuzz_arena_used += need;
    fuzz_arena_live++;
    AK_UNPOISON(h, 16);
    *(struct fuzz_arena_header *)h = (struct fuzz_arena_header){n, FUZZ_ARENA_LIVE};
    AK_POISON(h, 16);
    AK_UNPOISON(h + 16, n);
    return h + 16;
}

static void fuzz_arena_free(void *p) __attribute__((unused));
static void fuzz_arena_free(void *p)
{
    unsigned char *b = p;
    if (b < fuzz_arena || b >= fuzz_arena + FUZZ_ARENA_BYTES) {
        free(p);
        return;
    }
    if (b < fuzz_arena + 16 || (size_t)(b - fuzz_arena) % 16 != 0)
        fail("a JSON value freed at an address that is no block's");
    struct fuzz_arena_header *h = (struct fuzz_arena_header *)(b - 16);
    AK_UNPOISON(h, 16);
    if (h->state != FUZZ_ARENA_LIVE)
        fail("a JSON value freed twice, or freed from the middle of a block");
    h->state = FUZZ_ARENA_FREED;
    size_t size = h->size;
    AK_POISON(h, 16);
    AK_POISON(b, size);
    fuzz_arena_live--;
}

/* Once, before the first JSON value is made. */
static void fuzz_arena_install(void) __attribute__((unused));
static void fuzz_arena_install(void)
{
    const char *off = getenv("FUZZ_ARENA_OFF");
    fuzz_arena_off = off && *off && *off != '0';
    AK_POISON(fuzz_arena, FUZZ_ARENA_BYTES);
    json_set_alloc_funcs(fuzz_arena_malloc, fuzz_arena_free);
}

static void fuzz_arena_begin(void) __attribute__((unused));
static void fuzz_arena_begin(void)
{
    AK_POISON(fuzz_arena, fuzz_arena_used);
    fuzz_arena_used = 0;
    fuzz_arena_live = 0;
    fuzz_arena_on = !fuzz_arena_off;
}

static void fuzz_arena_end(void) __attribute__((unused));
static void fuzz_arena_end(void)
{
    fuzz_arena_on = false;
    if (fuzz_arena_live != 0)
        fail("%zu JSON value(s) of this stretch never freed (a leak); FUZZ_ARENA_OFF=1 shows where "
             "LeakSanitizer sees them", fuzz_arena_live);
}

#endif
