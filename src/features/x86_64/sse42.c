/* SPDX-License-Identifier: MIT */
// SSE42: a 64-bit compare-greater and a CRC32 step; compiled with the target's flags, never run
#include <nmmintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m128i a = _mm_cmpgt_epi64(_mm_set1_epi64x(argc), _mm_setzero_si128());
  return _mm_cvtsi128_si32(a) + (int)_mm_crc32_u32(0u, (unsigned)argc);
}
