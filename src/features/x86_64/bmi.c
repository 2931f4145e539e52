/* SPDX-License-Identifier: MIT */
// BMI: tzcnt and andn; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  return (int)_tzcnt_u32((unsigned)argc) + (int)_andn_u32((unsigned)argc, 3u);
}
