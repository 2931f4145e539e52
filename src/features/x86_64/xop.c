/* SPDX-License-Identifier: MIT */
// XOP: an AMD XOP unsigned compare; compiled with the target's flags, never run
#include <x86intrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m128i a = _mm_comge_epu32(_mm_set1_epi32(argc), _mm_setzero_si128());
  return _mm_cvtsi128_si32(a);
}
