/* SPDX-License-Identifier: MIT */
// ASIMDHP: half-precision vector arithmetic; compiled with the target's flags, never run
#include <arm_neon.h>
int main(int argc, char **argv) {
  (void)argv;
  float16x8_t a = vdupq_n_f16((float16_t)argc);
  a = vfmaq_f16(a, a, vaddq_f16(a, a));
  return (int)vgetq_lane_f16(a, 0);
}
