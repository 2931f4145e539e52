/* A library's API functions over the small kernel, each another way to
 * reach it (bench/small_input.cpp times them):
 *   bench_small_direct  a direct call to its baseline build (no dispatch)
 *   bench_small_cached  CPUD_DISPATCH_CALL_CACHED (the selection out of line)
 *   bench_small_own     a library's own dispatcher: a pointer set by a
 *                       noinline init on the first call (xxHash's shape)
 * small_api_inline.c is this file's cached call with the selection inline,
 * the shape before it moved out of line. */
#include <stdint.h>

#include "small.dispatch.h"

CPUD_DISPATCH_DEFINE(uint64_t, small_hash, (const void *, size_t, uint64_t));

uint64_t bench_small_direct(const void *p, size_t n, uint64_t seed);
uint64_t bench_small_cached(const void *p, size_t n, uint64_t seed);
uint64_t bench_small_own(const void *p, size_t n, uint64_t seed);

uint64_t bench_small_direct(const void *p, size_t n, uint64_t seed) { return small_hash_baseline(p, n, seed); }

uint64_t bench_small_cached(const void *p, size_t n, uint64_t seed) {
  return CPUD_DISPATCH_CALL_CACHED(small_hash, (p, n, seed));
}

typedef uint64_t (*small_fn)(const void *, size_t, uint64_t);
static small_fn g_small;
static __attribute__((noinline)) void small_own_init(void) { g_small = CPUD_DISPATCH_SELECT(small_hash); }
uint64_t bench_small_own(const void *p, size_t n, uint64_t seed) {
  if (!g_small) small_own_init();
  return g_small(p, n, seed);
}
