/* SPDX-License-Identifier: MIT */
// X86_V4: the x86-64-v4 group: a masked 256-bit byte op and pdep; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m256i a = _mm256_mask_abs_epi8(_mm256_setzero_si256(), (__mmask32)argc, _mm256_set1_epi8((char)argc));
  return _mm_cvtsi128_si32(_mm256_castsi256_si128(a)) + (int)_pdep_u32((unsigned)argc, 0xFFu);
}
