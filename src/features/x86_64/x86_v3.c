/* SPDX-License-Identifier: MIT */
// X86_V3: the x86-64-v3 group: FMA, 256-bit integer ops, pext, lzcnt; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m256 a = _mm256_fmadd_ps(_mm256_set1_ps((float)argc), _mm256_set1_ps(2.0f), _mm256_set1_ps(1.0f));
  __m256i b = _mm256_abs_epi32(_mm256_cvtps_epi32(a));
  return _mm_cvtsi128_si32(_mm256_castsi256_si128(b)) + (int)_pext_u32((unsigned)argc, 0xFFu)
         + (int)_lzcnt_u32((unsigned)argc);
}
