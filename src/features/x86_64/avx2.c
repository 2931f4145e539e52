/* SPDX-License-Identifier: MIT */
// AVX2: a 256-bit integer absolute value; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m256i a = _mm256_abs_epi16(_mm256_set1_epi16((short)argc));
  return _mm_cvtsi128_si32(_mm256_castsi256_si128(a));
}
