/* SPDX-License-Identifier: MIT */
// MMX: a 64-bit packed-byte add in the MMX registers; compiled with the target's flags, never run
#include <mmintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m64 a = _mm_add_pi8(_mm_cvtsi32_si64(argc), _mm_cvtsi32_si64(1));
  int r = _mm_cvtsi64_si32(a);
  _mm_empty();
  return r;
}
