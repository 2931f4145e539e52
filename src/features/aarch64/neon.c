/* SPDX-License-Identifier: MIT */
// NEON: a 4 x float add; compiled with the target's flags, never run
#include <arm_neon.h>
int main(int argc, char **argv) {
  (void)argv;
  float32x4_t a = vaddq_f32(vdupq_n_f32((float)argc), vdupq_n_f32(1.0f));
  return (int)vgetq_lane_f32(a, 0);
}
