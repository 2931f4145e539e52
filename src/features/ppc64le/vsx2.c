/* SPDX-License-Identifier: MIT */
// VSX2: a 64-bit integer add and a population count (POWER8); compiled with the target's flags, never run
#include <altivec.h>
int main(int argc, char **argv) {
  (void)argv;
  __vector unsigned long long a = vec_splats((unsigned long long)argc);
  a = vec_add(a, a);
  __vector unsigned int p = vec_popcnt(vec_splats((unsigned int)argc));
  return (int)vec_extract(a, 1) + (int)vec_extract(p, 0);
}
