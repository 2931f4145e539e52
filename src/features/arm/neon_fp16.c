/* SPDX-License-Identifier: MIT */
// NEON_FP16: a 4 x single -> half precision conversion and back (VCVT.F16.F32 / VCVT.F32.F16 on NEON registers, the
// half-precision extension); compiled with the target's flags, never run. GCC declares the half-precision vector
// types only with -mfp16-format=ieee, which Clang rejects: without them the instructions themselves (%P: a D
// register, %q: a Q register). The assembler takes them with plain NEON too, so __ARM_FP's half-precision bit
// (which -mfpu=neon-fp16 sets) must say the flags enable the extension.
#include <arm_neon.h>
int main(int argc, char **argv) {
  (void)argv;
  float32x4_t x = vdupq_n_f32((float)argc);
#if defined(__ARM_FP16_FORMAT_IEEE) || defined(__ARM_FP16_FORMAT_ALTERNATIVE)
  float16x4_t h = vcvt_f16_f32(x);
  return (int)vgetq_lane_f32(vcvt_f32_f16(h), 0);
#elif !defined(__ARM_FP) || !(__ARM_FP & 2)
#error "the flags enable no half-precision conversion"
#else
  uint16x4_t h;
  __asm__("vcvt.f16.f32 %P0, %q1" : "=w"(h) : "w"(x));
  __asm__("vcvt.f32.f16 %q0, %P1" : "=w"(x) : "w"(h));
  return (int)vgetq_lane_f32(x, 0);
#endif
}
