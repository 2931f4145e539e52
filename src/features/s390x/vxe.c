/* SPDX-License-Identifier: MIT */
// VXE: single-precision vector arithmetic (z14); compiled with the target's flags, never run
#include <vecintrin.h>
int main(int argc, char **argv) {
  (void)argv;
  __vector float f = vec_splats((float)argc);
  f = vec_nmadd(vec_sqrt(f), f, f);
  return (int)vec_extract(f, 0);
}
