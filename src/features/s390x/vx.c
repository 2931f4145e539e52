/* SPDX-License-Identifier: MIT */
// VX: double-precision sqrt and abs, an integer maximum (z13); compiled with the target's flags, never run
#include <vecintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __vector double d = vec_sqrt(vec_abs(vec_splats((double)argc)));
  __vector signed int i = vec_splats(argc);
  i = vec_max(i, vec_splats(3)) + i;
  return (int)vec_extract(d, 0) + vec_extract(i, 1);
}
