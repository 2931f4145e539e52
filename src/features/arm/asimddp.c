/* SPDX-License-Identifier: MIT */
// ASIMDDP: an unsigned byte dot product (VUDOT.U8); compiled with the target's flags, never run
#include <arm_neon.h>
int main(int argc, char **argv) {
  (void)argv;
  uint8x16_t b = vdupq_n_u8((uint8_t)argc);
  uint32x4_t a = vdotq_u32(vdupq_n_u32(1u), b, b);
  return (int)vgetq_lane_u32(a, 0);
}
