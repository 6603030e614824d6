/* ak_asan: marking memory unusable for AddressSanitizer, for allocators
 * of our own (ak_json_pool's free blocks, the fuzz harnesses' arena), so
 * that a use after free there is caught as with malloc. Without ASan the
 * marks are nothing. gcc says ASan is on with __SANITIZE_ADDRESS__,
 * clang with __has_feature(address_sanitizer). */
#ifndef AK_ASAN_H
#define AK_ASAN_H

#if defined(__SANITIZE_ADDRESS__)
#define AK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AK_ASAN 1
#endif
#endif

#ifdef AK_ASAN
#include <sanitizer/asan_interface.h>
#define AK_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define AK_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define AK_POISON(p, n) ((void)(p), (void)(n))
#define AK_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#endif
