/* SPDX-License-Identifier: MIT */
// SSE: a 128-bit single-precision add; compiled with the target's flags, never run
#include <xmmintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m128 a = _mm_add_ps(_mm_set1_ps((float)argc), _mm_set1_ps(1.0f));
  return (int)_mm_cvtss_f32(a);
}
