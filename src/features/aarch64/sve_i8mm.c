/* SPDX-License-Identifier: MIT */
// SVE_I8MM: an SVE 8-bit integer matrix multiply-accumulate; compiled with the target's flags, never run.
#include <arm_sve.h>
int main(int argc, char **argv) {
  (void)argv;
  svint8_t a = svdup_n_s8((int8_t)argc);
  svint32_t acc = svmmla_s32(svdup_n_s32(0), a, a);
  return (int)svaddv_s32(svptrue_b32(), acc);
}
