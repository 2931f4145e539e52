/* SPDX-License-Identifier: MIT */
// ASIMD: a 2 x double fused multiply-add and across-vector adds (A64); compiled with the target's flags, never run
#include <arm_neon.h>
int main(int argc, char **argv) {
  (void)argv;
  float64x2_t a = vfmaq_f64(vdupq_n_f64((double)argc), vdupq_n_f64(2.0), vdupq_n_f64(3.0));
  return (int)vaddvq_f64(a) + (int)vaddvq_u32(vdupq_n_u32((unsigned)argc));
}
