/* SPDX-License-Identifier: MIT */
/*
 * Forced include (gcc -include) for xxHash's tests/sanity_test.c, so that the
 * test checks a build's dispatched entry points instead of its own inline
 * copy: xxHash's implementation is compiled here first, under its own names
 * (as the test asks, XXH_IMPLEMENTATION), then xxh_x86dispatch.h renames
 * XXH3_64bits, XXH3_64bits_withSeed, ..._withSecret, ..._update, XXH3_128bits,
 * ..., XXH128 to their _dispatch entry points, which the build's libxxhash
 * provides (xxHash's xxh_x86dispatch.c, or the port's xxh3_dispatch_api.c).
 * The test's own #define XXH_IMPLEMENTATION and #include "../xxhash.h" then
 * find everything already included. The rest (the resets, the digests, the
 * secret generator, XXH32, XXH64) stays the test's inline copy, as xxhsum
 * built with XXHSUM_DISPATCH keeps xxhash.c's.
 */
#ifndef XXHASH_PORT_SANITY_DISPATCH_H
#define XXHASH_PORT_SANITY_DISPATCH_H
#define XXH_STATIC_LINKING_ONLY
#define XXH_IMPLEMENTATION
#include "xxhash.h"
#include "xxh_x86dispatch.h"
#endif
