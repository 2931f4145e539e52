/* SPDX-License-Identifier: MIT */
// X86_V2: the x86-64-v2 group: POPCNT, CRC32, 16-byte compare-and-swap; compiled with the target's flags, never run
#include <nmmintrin.h>
int main(int argc, char **argv) {
  static __int128 v;
  (void)argv;
  return _mm_popcnt_u32((unsigned)argc) + (int)_mm_crc32_u8(0u, (unsigned char)argc)
         + __sync_bool_compare_and_swap(&v, (__int128)0, (__int128)argc);
}
