/* SPDX-License-Identifier: MIT */
// ASIMD: Armv8 Advanced SIMD in AArch32: round to nearest (VRINTN.F32) and IEEE 754-2008 maxNum (VMAXNM.F32), which
// Armv7's NEON lacks; compiled with the target's flags, never run
#include <arm_neon.h>
int main(int argc, char **argv) {
  (void)argv;
  float32x4_t x = vdupq_n_f32((float)argc * 0.5f);
  return (int)vgetq_lane_f32(vmaxnmq_f32(vrndnq_f32(x), x), 0);
}
