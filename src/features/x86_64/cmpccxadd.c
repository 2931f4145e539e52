/* SPDX-License-Identifier: MIT */
// CMPCCXADD: compare, and add if the condition holds, atomically; compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  static int v;
  (void)argv;
  return _cmpccxadd_epi32(&v, argc, 1, _CMPCCX_O);
}
