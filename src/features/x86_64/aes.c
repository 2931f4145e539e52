/* SPDX-License-Identifier: MIT */
// AES: one AES encryption round; compiled with the target's flags, never run
#include <wmmintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m128i a = _mm_aesenc_si128(_mm_set1_epi32(argc), _mm_set1_epi32(7));
  return _mm_cvtsi128_si32(a);
}
