/* SPDX-License-Identifier: MIT */
// POPCNT: the 64- and 32-bit population counts; compiled with the target's flags, never run
#include <popcntintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  return (int)_mm_popcnt_u64((unsigned long long)argc) + _mm_popcnt_u32((unsigned)argc);
}
