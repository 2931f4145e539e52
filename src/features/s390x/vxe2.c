/* SPDX-License-Identifier: MIT */
// VXE2: an int -> float conversion and a shift-left-double by bits (z15); compiled with the target's flags, never run
#include <vecintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __vector signed int i = vec_splats(argc);
  __vector float f = vec_float(i);
  i = vec_sldb(i, vec_splats(argc * 3), 5);
  return vec_extract(i, 0) + (int)vec_extract(f, 1);
}
