/* SPDX-License-Identifier: MIT */
// AVX512IFMA: a 512-bit 52-bit integer multiply-add; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m512i a = _mm512_madd52lo_epu64(_mm512_set1_epi64(argc), _mm512_set1_epi64(2), _mm512_set1_epi64(3));
  return _mm_cvtsi128_si32(_mm512_castsi512_si128(a));
}
