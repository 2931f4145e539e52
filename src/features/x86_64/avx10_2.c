/* SPDX-License-Identifier: MIT */
// AVX10_2: an AVX10.2-only instruction (a 512-bit signed 8-bit dot
// product); compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m512i a = _mm512_set1_epi32(argc);
  a = _mm512_dpbssd_epi32(a, a, a);
  return _mm512_reduce_add_epi32(a);
}
