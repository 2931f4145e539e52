/* SPDX-License-Identifier: MIT */
// AVX512BW: a 512-bit byte absolute value and a byte compare to a mask; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m512i a = _mm512_abs_epi8(_mm512_set1_epi8((char)argc));
  return (int)_mm512_cmpeq_epi8_mask(a, _mm512_setzero_si512());
}
