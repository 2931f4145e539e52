/* SPDX-License-Identifier: MIT */
// AVX_NE_CONVERT: float32 to bfloat16 without exceptions; compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m128bh h = _mm256_cvtneps_avx_pbh(_mm256_set1_ps((float)argc));
  return _mm_extract_epi16((__m128i)h, 1);
}
