/* SPDX-License-Identifier: MIT */
// GFNI: a GF(2^8) byte multiply; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m128i a = _mm_gf2p8mul_epi8(_mm_set1_epi8((char)argc), _mm_set1_epi8(3));
  return _mm_cvtsi128_si32(a);
}
