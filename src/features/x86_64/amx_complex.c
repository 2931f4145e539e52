/* SPDX-License-Identifier: MIT */
// AMX_COMPLEX: a complex float16 tile multiply; compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  (void)argc, (void)argv;
  _tile_cmmimfp16ps(0, 1, 2);
  return 0;
}
