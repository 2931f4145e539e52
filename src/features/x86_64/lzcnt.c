/* SPDX-License-Identifier: MIT */
// LZCNT: a leading-zero count; compiled with the target's flags, never run
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  return (int)_lzcnt_u32((unsigned)argc);
}
