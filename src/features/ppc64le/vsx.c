/* SPDX-License-Identifier: MIT */
// VSX: a 2 x double multiply-add; compiled with the target's flags, never run
#include <altivec.h>
int main(int argc, char **argv) {
  (void)argv;
  __vector double a = vec_splats((double)argc);
  a = vec_madd(a, a, vec_splats(1.0));
  return (int)vec_extract(a, 0);
}
