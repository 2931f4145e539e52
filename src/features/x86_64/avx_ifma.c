/* SPDX-License-Identifier: MIT */
// AVX_IFMA: the VEX-encoded 52-bit multiply-add; compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m256i a = _mm256_set1_epi64x(argc);
  a = _mm256_madd52lo_avx_epu64(a, a, a);
  return (int)_mm256_extract_epi64(a, 1);
}
