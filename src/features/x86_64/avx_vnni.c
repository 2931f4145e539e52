/* SPDX-License-Identifier: MIT */
// AVX_VNNI: the VEX-encoded 8-bit dot product (no AVX-512); compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m256i a = _mm256_set1_epi32(argc);
  a = _mm256_dpbusd_avx_epi32(a, a, _mm256_set1_epi32(3));
  return _mm256_extract_epi32(a, 1);
}
