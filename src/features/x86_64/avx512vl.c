/* SPDX-License-Identifier: MIT */
// AVX512VL: an AVX-512 rotate on a 256-bit vector; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m256i a = _mm256_ror_epi32(_mm256_set1_epi32(argc), 3);
  return _mm_cvtsi128_si32(_mm256_castsi256_si128(a));
}
