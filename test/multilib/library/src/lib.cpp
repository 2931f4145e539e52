// @NAME@'s API in C++ (the C++ dispatcher and feature sets), built for its
// baseline; the functions are C for any program.
#include "@NAME@.h"
#include "simd.dispatch.h"

#include "cpudispatch/dispatch.hpp"

CPUD_DISPATCH(int, simd_add, (int));
CPUD_DISPATCH(const char *, simd_target, ());

// Stands for what the compiler may put anywhere in code built for the
// baseline: above x86-64-v2, one AVX2 instruction for certain.
static void baseline_code() {
#if defined(__AVX2__)
  __asm__ volatile("vpaddd %%ymm0, %%ymm0, %%ymm0\n\tvzeroupper" ::: "xmm0");
#endif
}

extern "C" int @NAME@_compute(int x) {
  baseline_code();
  // The C++ API's inline functions (cpud::feature_set, the dispatcher)
  // read this library's runtime, whatever other C++ library is linked.
  if (!cpud::feature_set(cpud_usable_mask()).has(CPUD_FEATURE_NONE + 1) && cpud_baseline_mask().w[0]) return -1;
  return simd_add(x);
}

extern "C" const char *@NAME@_target(void) { return simd_target(); }
