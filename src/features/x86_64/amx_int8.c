/* SPDX-License-Identifier: MIT */
// AMX_INT8: a signed 8-bit tile dot product; compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argc, (void)argv;
  _tile_dpbssd(0, 1, 2);
  return 0;
}
