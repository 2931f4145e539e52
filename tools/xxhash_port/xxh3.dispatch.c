/* SPDX-License-Identifier: MIT */
/*
 * xxHash's XXH3 one-shot and streaming entry points, compiled once per
 * cpudispatch target (tools/xxhash-port.py puts this file in the ported
 * tree; docs/porting-a-cmake-library.md). Each build includes xxhash.h
 * whole (XXH_INLINE_ALL: every xxHash function static to this build, so no
 * two builds share one) with the XXH_VECTOR its CPUD_HAVE_* macros allow,
 * and defines the eight functions xxh_x86dispatch.h dispatches, each named
 * by CPUD_FN: xxh3_64_AVX2, xxh3_64_baseline, ... (the generator reads the
 * names from CPUD_FN's arguments, in comments too: write none here).
 *
 * In place of xxh_x86dispatch.c: no __attribute__((target)), no CPUID code
 * of its own; the build's flags are the target's, and cpudispatch's runtime
 * picks the build (xxh3_dispatch_api.c calls it).
 */
#include "xxh3.dispatch.h" /* first: this build's CPUD_HAVE_* */

#if defined(CPUD_HAVE_AVX512F)
#define XXH_VECTOR XXH_AVX512
#elif defined(CPUD_HAVE_AVX2)
#define XXH_VECTOR XXH_AVX2
#elif defined(CPUD_HAVE_SSE2)
#define XXH_VECTOR XXH_SSE2
#elif defined(CPUD_ARCH_X86_64) || defined(CPUD_ARCH_X86)
#define XXH_VECTOR XXH_SCALAR /* 32-bit x86 below SSE2 */
#endif
/* Elsewhere xxhash.h chooses from the build's own predefined macros (NEON,
 * SVE, VSX): the target's flags, as on x86. */

#define XXH_INLINE_ALL
#include "xxhash.h"

XXH64_hash_t CPUD_FN(xxh3_64)(const void *input, size_t len) { return XXH3_64bits(input, len); }

XXH64_hash_t CPUD_FN(xxh3_64_seed)(const void *input, size_t len, XXH64_hash_t seed) {
  return XXH3_64bits_withSeed(input, len, seed);
}

XXH64_hash_t CPUD_FN(xxh3_64_secret)(const void *input, size_t len, const void *secret, size_t secret_len) {
  return XXH3_64bits_withSecret(input, len, secret, secret_len);
}

/* The state as void *: under XXH_INLINE_ALL xxhash.h renames its struct
 * (XXH_INLINE_XXH3_state_s), the same layout as the baseline code's
 * XXH3_state_t that XXH3_createState and the resets of xxhash.c made. */
XXH_errorcode CPUD_FN(xxh3_64_update)(void *state, const void *input, size_t len) {
  return XXH3_64bits_update((XXH3_state_t *)state, input, len);
}

XXH128_hash_t CPUD_FN(xxh3_128)(const void *input, size_t len) { return XXH3_128bits(input, len); }

XXH128_hash_t CPUD_FN(xxh3_128_seed)(const void *input, size_t len, XXH64_hash_t seed) {
  return XXH3_128bits_withSeed(input, len, seed);
}

XXH128_hash_t CPUD_FN(xxh3_128_secret)(const void *input, size_t len, const void *secret, size_t secret_len) {
  return XXH3_128bits_withSecret(input, len, secret, secret_len);
}

XXH_errorcode CPUD_FN(xxh3_128_update)(void *state, const void *input, size_t len) {
  return XXH3_128bits_update((XXH3_state_t *)state, input, len);
}
