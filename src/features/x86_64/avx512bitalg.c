/* SPDX-License-Identifier: MIT */
// AVX512BITALG: a 512-bit per-byte population count; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m512i a = _mm512_popcnt_epi8(_mm512_set1_epi8((char)argc));
  return _mm_cvtsi128_si32(_mm512_castsi512_si128(a));
}
