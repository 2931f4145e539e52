/* SPDX-License-Identifier: MIT */
// SHA512: a SHA-512 message schedule step (VEX, 256-bit); compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m256i a = _mm256_set1_epi64x(argc);
  a = _mm256_sha512msg1_epi64(a, _mm_set1_epi64x(argc));
  return (int)_mm256_extract_epi64(a, 1);
}
