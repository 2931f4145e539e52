/* SPDX-License-Identifier: MIT */
// SSE41: a 32-bit signed maximum and a lane extract; compiled with the target's flags, never run
#include <smmintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m128i a = _mm_max_epi32(_mm_set1_epi32(argc), _mm_set1_epi32(3));
  return _mm_extract_epi32(a, 1);
}
