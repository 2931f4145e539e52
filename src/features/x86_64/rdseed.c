/* SPDX-License-Identifier: MIT */
// RDSEED: one seed from the entropy source; compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  unsigned int v = 0;
  (void)argv;
  return _rdseed32_step(&v) + (int)v + argc;
}
