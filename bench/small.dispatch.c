/* A small-input kernel (a hash of up to a few hundred bytes, in the manner
 * of xxHash's short paths): at 16 bytes the call is most of the cost, so how
 * a dispatched call reaches it shows (bench/small_input.cpp). Built as its
 * baseline build alone (bench/meson.build): every variant then runs the same
 * machine code, and the differences are the calls' alone. */
#include <stdint.h>
#include <string.h>

#include "small.dispatch.h"

uint64_t CPUD_FN(small_hash)(const void *p, size_t n, uint64_t seed);
uint64_t CPUD_FN(small_hash)(const void *p, size_t n, uint64_t seed) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = seed ^ ((uint64_t)n * 0x9E3779B185EBCA87ull);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, b + i, 8);
    h = (h ^ (w * 0xC2B2AE3D27D4EB4Full)) * 0x165667B19E3779F9ull;
    h ^= h >> 29;
  }
  for (; i < n; ++i) h = (h ^ b[i]) * 0x100000001B3ull;
  return h ^ (h >> 32);
}
