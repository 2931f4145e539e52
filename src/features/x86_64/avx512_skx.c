/* SPDX-License-Identifier: MIT */
// AVX512_SKX: the group: masked 256-bit byte abs (VL, BW), 64-bit mullo (DQ), conflict (CD); compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m256i a = _mm256_mask_abs_epi8(_mm256_setzero_si256(), (__mmask32)argc, _mm256_set1_epi8((char)argc));
  __m512i b = _mm512_mullo_epi64(_mm512_set1_epi64(argc), _mm512_conflict_epi64(_mm512_set1_epi64(argc)));
  return _mm_cvtsi128_si32(_mm256_castsi256_si128(a)) + _mm_cvtsi128_si32(_mm512_castsi512_si128(b));
}
