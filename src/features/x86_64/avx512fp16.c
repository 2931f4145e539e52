/* SPDX-License-Identifier: MIT */
// AVX512FP16: a 512-bit half-precision fused multiply-add; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m512h a = _mm512_set1_ph((_Float16)argc);
  a = _mm512_fmadd_ph(a, a, a);
  return (int)_mm_cvtsh_ss(_mm_setzero_ps(), _mm512_castph512_ph128(a))[0];
}
