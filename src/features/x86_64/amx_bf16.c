/* SPDX-License-Identifier: MIT */
// AMX_BF16: a bfloat16 tile dot product; compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argc, (void)argv;
  _tile_dpbf16ps(0, 1, 2);
  return 0;
}
