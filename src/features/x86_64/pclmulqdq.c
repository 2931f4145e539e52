/* SPDX-License-Identifier: MIT */
// PCLMULQDQ: a carry-less 64-bit multiply; compiled with the target's flags, never run
#include <wmmintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m128i a = _mm_clmulepi64_si128(_mm_set1_epi32(argc), _mm_set1_epi32(5), 0x00);
  return _mm_cvtsi128_si32(a);
}
