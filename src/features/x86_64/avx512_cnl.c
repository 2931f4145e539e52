/* SPDX-License-Identifier: MIT */
// AVX512_CNL: the group: a 256-bit byte permute (VBMI, VL), a 52-bit multiply-add; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m256i a = _mm256_permutexvar_epi8(_mm256_set1_epi8((char)argc), _mm256_set1_epi8(5));
  __m256i b = _mm256_madd52hi_epu64(a, a, _mm256_set1_epi64x(argc));
  return _mm_cvtsi128_si32(_mm256_castsi256_si128(b));
}
