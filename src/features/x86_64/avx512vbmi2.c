/* SPDX-License-Identifier: MIT */
// AVX512VBMI2: a byte compress and a concatenate-and-shift; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m512i a = _mm512_maskz_compress_epi8((__mmask64)argc, _mm512_set1_epi8((char)argc));
  return _mm_cvtsi128_si32(_mm512_castsi512_si128(_mm512_shldi_epi16(a, a, 3)));
}
