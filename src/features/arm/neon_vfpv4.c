/* SPDX-License-Identifier: MIT */
// NEON_VFPV4: a 4 x float fused multiply-add (VFMA.F32, VFPv4); compiled with the target's flags, never run
#include <arm_neon.h>
int main(int argc, char **argv) {
  (void)argv;
  float32x4_t x = vdupq_n_f32((float)argc);
  return (int)vgetq_lane_f32(vfmaq_f32(x, x, x), 0);
}
