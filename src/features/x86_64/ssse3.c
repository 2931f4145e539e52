/* SPDX-License-Identifier: MIT */
// SSSE3: a byte shuffle and a byte absolute value; compiled with the target's flags, never run
#include <tmmintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m128i a = _mm_shuffle_epi8(_mm_set1_epi8((char)argc), _mm_setzero_si128());
  return _mm_cvtsi128_si32(_mm_abs_epi8(a));
}
