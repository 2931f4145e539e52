/* SPDX-License-Identifier: MIT */
// AVX512_SPR: the group: a bfloat16 dot product and half-precision arithmetic; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m512h a = _mm512_set1_ph((_Float16)argc);
  __m512 x = _mm512_set1_ps((float)argc);
  x = _mm512_dpbf16_ps(x, _mm512_cvtne2ps_pbh(x, x), _mm512_cvtne2ps_pbh(x, x));
  a = _mm512_mul_ph(a, a);
  return (int)_mm512_cvtss_f32(x) + (int)_mm512_reduce_add_ph(a);
}
