/* SPDX-License-Identifier: MIT */
// AVX512VNNI: a 512-bit unsigned-by-signed byte dot product; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m512i a = _mm512_dpbusd_epi32(_mm512_set1_epi32(argc), _mm512_set1_epi8(2), _mm512_set1_epi8(3));
  return _mm_cvtsi128_si32(_mm512_castsi512_si128(a));
}
