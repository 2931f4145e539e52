/* SPDX-License-Identifier: MIT */
// AVX512_VP2INTERSECT: the pair of masks of equal elements; compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  __mmask16 k1, k2;
  (void)argv;
  __m512i a = _mm512_set1_epi32(argc);
  _mm512_2intersect_epi32(a, _mm512_set1_epi32(3), &k1, &k2);
  return (int)k1 + (int)k2;
}
