/* SPDX-License-Identifier: MIT */
// F16C: a half <-> single precision conversion; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m128 a = _mm_cvtph_ps(_mm_cvtps_ph(_mm_set1_ps((float)argc), 0));
  return (int)_mm_cvtss_f32(a);
}
