/* SPDX-License-Identifier: MIT */
// VAES: an AES round on 256-bit vectors; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m256i a = _mm256_aesenc_epi128(_mm256_set1_epi32(argc), _mm256_set1_epi32(7));
  return _mm_cvtsi128_si32(_mm256_castsi256_si128(a));
}
