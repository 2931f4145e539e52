/* SPDX-License-Identifier: MIT */
// AVX512BF16: a bfloat16 conversion and dot product; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m512 x = _mm512_set1_ps((float)argc);
  __m512 a = _mm512_dpbf16_ps(x, _mm512_cvtne2ps_pbh(x, x), _mm512_cvtne2ps_pbh(x, x));
  return (int)_mm512_cvtss_f32(a);
}
