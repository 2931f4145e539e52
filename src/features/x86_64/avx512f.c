/* SPDX-License-Identifier: MIT */
// AVX512F: a 512-bit integer absolute value and a reduction; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m512i a = _mm512_abs_epi32(_mm512_set1_epi32(argc));
  return _mm512_reduce_add_epi32(a) + _mm_cvtsi128_si32(_mm512_castsi512_si128(a));
}
