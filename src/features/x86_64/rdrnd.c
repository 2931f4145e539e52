/* SPDX-License-Identifier: MIT */
// RDRND: one hardware random number; compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  unsigned int v = 0;
  (void)argv;
  return _rdrand32_step(&v) + (int)v + argc;
}
