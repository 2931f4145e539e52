/* SPDX-License-Identifier: MIT */
// AVX512DQ: a 512-bit 64-bit multiply (low half); compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m512i a = _mm512_mullo_epi64(_mm512_set1_epi64(argc), _mm512_set1_epi64(3));
  return _mm_cvtsi128_si32(_mm512_castsi512_si128(a));
}
