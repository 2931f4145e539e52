/* SPDX-License-Identifier: MIT */
// SM3: an SM3 message expansion step (VEX, 128-bit); compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m128i a = _mm_set1_epi32(argc);
  a = _mm_sm3msg1_epi32(a, a, a);
  return _mm_cvtsi128_si32(a);
}
