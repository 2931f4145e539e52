/* bench_small_cached with the first call's selection inline
 * (CPUD__INLINE_COLD_PATH, set by bench/meson.build): the caller's shape
 * before the selection moved out of line, timed beside it. */
#include <stdint.h>

#include "small.dispatch.h"

CPUD_DISPATCH_DEFINE(uint64_t, small_hash, (const void *, size_t, uint64_t));

uint64_t bench_small_cached_inline(const void *p, size_t n, uint64_t seed);
uint64_t bench_small_cached_inline(const void *p, size_t n, uint64_t seed) {
  return CPUD_DISPATCH_CALL_CACHED(small_hash, (p, n, seed));
}
