/* SPDX-License-Identifier: MIT */
// AVX10_1: AVX10.1 is the Sapphire Rapids AVX-512 set (here a float16 add at
// 512 bits), named by a version in CPUID leaf 0x24; compiled with the
// target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __m512h a = _mm512_set1_ph((_Float16)argc);
  a = _mm512_add_ph(a, a);
  return (int)_mm512_reduce_add_ph(a);
}
