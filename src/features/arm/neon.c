/* SPDX-License-Identifier: MIT */
// NEON: a 4 x 32-bit integer multiply-accumulate (VMLA.I32, Advanced SIMD); compiled with the target's flags, never run
#include <arm_neon.h>
int main(int argc, char **argv) {
  (void)argv;
  uint32x4_t a = vdupq_n_u32((unsigned)argc);
  a = vmlaq_u32(a, a, vdupq_n_u32(3u));
  return (int)vgetq_lane_u32(a, 0);
}
