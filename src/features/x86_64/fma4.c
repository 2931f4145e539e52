/* SPDX-License-Identifier: MIT */
// FMA4: an AMD four-operand 256-bit multiply-add; compiled with the target's flags, never run
#include <x86intrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m256 a = _mm256_macc_ps(_mm256_set1_ps((float)argc), _mm256_set1_ps(2.0f), _mm256_set1_ps(1.0f));
  return (int)_mm256_cvtss_f32(a);
}
