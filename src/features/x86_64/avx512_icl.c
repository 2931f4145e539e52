/* SPDX-License-Identifier: MIT */
// AVX512_ICL: the group: 16-bit popcount, GFNI, VAES, VPCLMULQDQ, concat-shift; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m512i a = _mm512_popcnt_epi16(_mm512_set1_epi16((short)argc));
  a = _mm512_gf2p8mul_epi8(a, _mm512_set1_epi8(3));
  a = _mm512_aesenc_epi128(a, _mm512_clmulepi64_epi128(a, a, 0x00));
  return _mm_cvtsi128_si32(_mm512_castsi512_si128(_mm512_shrdi_epi64(a, a, 7)));
}
