/* SPDX-License-Identifier: MIT */
// AVX: a 256-bit single-precision add; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m256 a = _mm256_add_ps(_mm256_set1_ps((float)argc), _mm256_set1_ps(1.0f));
  return (int)_mm256_cvtss_f32(a);
}
