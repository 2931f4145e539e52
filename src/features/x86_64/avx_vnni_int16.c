/* SPDX-License-Identifier: MIT */
// AVX_VNNI_INT16: 16-bit dot product; compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m256i a = _mm256_set1_epi32(argc);
  a = _mm256_dpwsud_avx_epi32(a, a, a);
  return _mm256_extract_epi32(a, 1);
}
