/* SPDX-License-Identifier: MIT */
// SVE_BF16: an SVE bfloat16 dot product; compiled with the target's flags, never run.
#include <arm_sve.h>
int main(int argc, char **argv) {
  (void)argv;
  svbfloat16_t a = svreinterpret_bf16_u16(svdup_n_u16((uint16_t)argc));
  svfloat32_t r = svbfdot_f32(svdup_n_f32(0.0f), a, a);
  return (int)svaddv_f32(svptrue_b32(), r);
}
