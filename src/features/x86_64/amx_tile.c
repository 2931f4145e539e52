/* SPDX-License-Identifier: MIT */
// AMX_TILE: configure, zero and release the tiles; compiled with the target's flags, never run.
#include <immintrin.h>
int main(int argc, char **argv) {
  static unsigned char cfg[64];
  (void)argv;
  cfg[0] = 1;
  cfg[16] = (unsigned char)(argc * 4);
  cfg[48] = 1;
  _tile_loadconfig(cfg);
  _tile_zero(0);
  _tile_release();
  return 0;
}
