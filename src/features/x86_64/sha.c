/* SPDX-License-Identifier: MIT */
// SHA: two SHA-256 rounds (SHA-NI); compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m128i s = _mm_set1_epi32(argc), k = _mm_set1_epi32(argc + 1);
  s = _mm_sha256rnds2_epu32(s, s, k);
  return _mm_cvtsi128_si32(_mm_sha256msg1_epu32(s, k));
}
