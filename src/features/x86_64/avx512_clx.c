/* SPDX-License-Identifier: MIT */
// AVX512_CLX: the group: the VNNI dot product on 256-bit vectors (VL); compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m256i a = _mm256_dpbusd_epi32(_mm256_set1_epi32(argc), _mm256_set1_epi8(2), _mm256_set1_epi8(3));
  return _mm_cvtsi128_si32(_mm256_castsi256_si128(a));
}
