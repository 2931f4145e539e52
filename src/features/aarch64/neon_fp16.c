/* SPDX-License-Identifier: MIT */
// NEON_FP16: a half <-> single precision conversion; compiled with the target's flags, never run
#include <arm_neon.h>
int main(int argc, char **argv) {
  (void)argv;
  float16x4_t h = vcvt_f16_f32(vdupq_n_f32((float)argc));
  return (int)vgetq_lane_f32(vcvt_f32_f16(h), 0);
}
