/* SPDX-License-Identifier: MIT */
// AVX512VBMI: a 512-bit byte permute; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m512i a = _mm512_permutexvar_epi8(_mm512_set1_epi8((char)argc), _mm512_set1_epi8(5));
  return _mm_cvtsi128_si32(_mm512_castsi512_si128(a));
}
