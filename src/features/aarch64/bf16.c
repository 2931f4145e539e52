/* SPDX-License-Identifier: MIT */
// BF16: a bfloat16 dot product (Advanced SIMD); compiled with the target's flags, never run.
#include <arm_neon.h>
int main(int argc, char **argv) {
  (void)argv;
  bfloat16x8_t a = vreinterpretq_bf16_u16(vdupq_n_u16((uint16_t)argc));
  float32x4_t r = vbfdotq_f32(vdupq_n_f32(0.0f), a, a);
  return (int)vgetq_lane_f32(r, 1);
}
