/* SPDX-License-Identifier: MIT */
// I8MM: an 8-bit integer matrix multiply-accumulate (Advanced SIMD); compiled with the target's flags, never run.
#include <arm_neon.h>
int main(int argc, char **argv) {
  (void)argv;
  int8x16_t a = vdupq_n_s8((int8_t)argc);
  int32x4_t acc = vmmlaq_s32(vdupq_n_s32(0), a, a);
  return vgetq_lane_s32(acc, 1);
}
