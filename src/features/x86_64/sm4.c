/* SPDX-License-Identifier: MIT */
// SM4: four SM4 key-expansion rounds (VEX, 256-bit); compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m256i a = _mm256_set1_epi32(argc);
  a = _mm256_sm4key4_epi32(a, a);
  return _mm256_extract_epi32(a, 1);
}
