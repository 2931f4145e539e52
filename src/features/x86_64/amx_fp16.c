/* SPDX-License-Identifier: MIT */
// AMX_FP16: a float16 tile dot product; compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argc, (void)argv;
  _tile_dpfp16ps(0, 1, 2);
  return 0;
}
