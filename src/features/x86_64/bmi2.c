/* SPDX-License-Identifier: MIT */
// BMI2: pext and bzhi; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  return (int)_pext_u32((unsigned)argc, 0xF0F0u) + (int)_bzhi_u32((unsigned)argc, 3u);
}
