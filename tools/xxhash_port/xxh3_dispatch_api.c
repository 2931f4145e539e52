/* SPDX-License-Identifier: MIT */
/*
 * The public entry points xxh_x86dispatch.h declares (XXH3_64bits_dispatch,
 * ..., XXH3_128bits_update_dispatch: what xxhsum calls when built with
 * XXHSUM_DISPATCH), each calling the best build of xxh3.dispatch.c this CPU
 * can run through a cached dispatcher: the first call selects, later calls
 * are one load, a test and an indirect call (docs/api.md). Baseline code:
 * the selection honours the baseline check, XXHASH_DISABLE_CPU_FEATURES /
 * XXHASH_ENABLE_CPU_FEATURES and cpudispatch-run's setups.
 */
#include <stddef.h>

#include "xxh3.dispatch.h"

#define XXH_STATIC_LINKING_ONLY     /* XXH3_state_t */
#define XXH_DISPATCH_DISABLE_REPLACE /* the declarations, not the XXH3_64bits -> ..._dispatch renames */
#include "xxh_x86dispatch.h"

CPUD_DISPATCH_DEFINE(XXH64_hash_t, xxh3_64, (const void *, size_t));
CPUD_DISPATCH_DEFINE(XXH64_hash_t, xxh3_64_seed, (const void *, size_t, XXH64_hash_t));
CPUD_DISPATCH_DEFINE(XXH64_hash_t, xxh3_64_secret, (const void *, size_t, const void *, size_t));
CPUD_DISPATCH_DEFINE(XXH_errorcode, xxh3_64_update, (void *, const void *, size_t));
CPUD_DISPATCH_DEFINE(XXH128_hash_t, xxh3_128, (const void *, size_t));
CPUD_DISPATCH_DEFINE(XXH128_hash_t, xxh3_128_seed, (const void *, size_t, XXH64_hash_t));
CPUD_DISPATCH_DEFINE(XXH128_hash_t, xxh3_128_secret, (const void *, size_t, const void *, size_t));
CPUD_DISPATCH_DEFINE(XXH_errorcode, xxh3_128_update, (void *, const void *, size_t));

XXH64_hash_t XXH3_64bits_dispatch(const void *input, size_t len) {
  return CPUD_DISPATCH_CALL_CACHED(xxh3_64, (input, len));
}

XXH64_hash_t XXH3_64bits_withSeed_dispatch(const void *input, size_t len, XXH64_hash_t seed) {
  return CPUD_DISPATCH_CALL_CACHED(xxh3_64_seed, (input, len, seed));
}

XXH64_hash_t XXH3_64bits_withSecret_dispatch(const void *input, size_t len, const void *secret, size_t secret_len) {
  return CPUD_DISPATCH_CALL_CACHED(xxh3_64_secret, (input, len, secret, secret_len));
}

XXH_errorcode XXH3_64bits_update_dispatch(XXH3_state_t *state, const void *input, size_t len) {
  return CPUD_DISPATCH_CALL_CACHED(xxh3_64_update, (state, input, len));
}

XXH128_hash_t XXH3_128bits_dispatch(const void *input, size_t len) {
  return CPUD_DISPATCH_CALL_CACHED(xxh3_128, (input, len));
}

XXH128_hash_t XXH3_128bits_withSeed_dispatch(const void *input, size_t len, XXH64_hash_t seed) {
  return CPUD_DISPATCH_CALL_CACHED(xxh3_128_seed, (input, len, seed));
}

XXH128_hash_t XXH3_128bits_withSecret_dispatch(const void *input, size_t len, const void *secret,
                                               size_t secret_len) {
  return CPUD_DISPATCH_CALL_CACHED(xxh3_128_secret, (input, len, secret, secret_len));
}

XXH_errorcode XXH3_128bits_update_dispatch(XXH3_state_t *state, const void *input, size_t len) {
  return CPUD_DISPATCH_CALL_CACHED(xxh3_128_update, (state, input, len));
}
