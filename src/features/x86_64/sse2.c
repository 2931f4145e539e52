/* SPDX-License-Identifier: MIT */
// SSE2: a 128-bit 64-bit-integer add; compiled with the target's flags, never run
#include <emmintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m128i a = _mm_add_epi64(_mm_set1_epi32(argc), _mm_set1_epi32(1));
  return _mm_cvtsi128_si32(a);
}
