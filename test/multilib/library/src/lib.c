/* @NAME@'s API, built for its baseline (the dependency's flags). */
#include "@NAME@.h"
#include "simd.dispatch.h"

CPUD_DISPATCH_DECLARE(int simd_add, (int))
CPUD_DISPATCH_DECLARE(const char *simd_target, (void))

/* Stands for what the compiler may put anywhere in code built for the
 * baseline: above x86-64-v2, one AVX2 instruction for certain. */
static void baseline_code(void) {
#if defined(__AVX2__)
  __asm__ volatile("vpaddd %%ymm0, %%ymm0, %%ymm0\n\tvzeroupper" ::: "xmm0");
#endif
}

int @NAME@_compute(int x) {
  baseline_code();
  return CPUD_DISPATCH_CALL(simd_add, (x));
}

const char *@NAME@_target(void) { return CPUD_DISPATCH_CALL(simd_target, ()); }
