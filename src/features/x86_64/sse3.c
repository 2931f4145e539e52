/* SPDX-License-Identifier: MIT */
// SSE3: a horizontal single-precision add; compiled with the target's flags, never run
#include <pmmintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m128 a = _mm_hadd_ps(_mm_set1_ps((float)argc), _mm_set1_ps(2.0f));
  return (int)_mm_cvtss_f32(a);
}
