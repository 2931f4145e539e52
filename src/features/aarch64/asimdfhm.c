/* SPDX-License-Identifier: MIT */
// ASIMDFHM: a half-precision multiply-add long into single; compiled with the target's flags, never run
#include <arm_neon.h>
int main(int argc, char **argv) {
  (void)argv;
  float16x8_t h = vdupq_n_f16((float16_t)argc);
  float32x4_t a = vfmlalq_low_f16(vdupq_n_f32(1.0f), h, h);
  return (int)vgetq_lane_f32(a, 0);
}
