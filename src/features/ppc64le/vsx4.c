/* SPDX-License-Identifier: MIT */
// VSX4: a vector modulo (POWER10); compiled with the target's flags, never run
#include <altivec.h>
int main(int argc, char **argv) {
  (void)argv;
  __vector unsigned int a = vec_splats((unsigned int)argc + 10u);
  __vector unsigned int m = vec_mod(a, vec_splats(3u));
  return (int)vec_extract(m, 0);
}
