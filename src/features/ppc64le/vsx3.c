/* SPDX-License-Identifier: MIT */
// VSX3: an absolute difference and a trailing-zero count (POWER9); compiled with the target's flags, never run
#include <altivec.h>
int main(int argc, char **argv) {
  (void)argv;
  __vector unsigned int a = vec_splats((unsigned int)argc);
  __vector unsigned int d = vec_absd(a, vec_splats(7u));
  d = vec_add(d, vec_cnttz(a));
  return (int)vec_extract(d, 0);
}
