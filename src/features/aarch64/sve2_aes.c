/* SPDX-License-Identifier: MIT */
// SVE2_AES: one AES round on SVE2 vectors; compiled with the target's flags, never run.
#include <arm_sve.h>
int main(int argc, char **argv) {
  (void)argv;
  svuint8_t a = svdup_n_u8((uint8_t)argc);
  a = svaese_u8(a, a);
  return (int)svaddv_u8(svptrue_b8(), a);
}
