/* The kernels, compiled once per target. Every library made of this
 * template has them under the same names: simd_add_AVX2, simd_target_AVX2,
 * ... Each adds its own library's number, so a program can tell whose
 * kernel served a call. */
#include "simd.dispatch.h"

/* Each build above the baseline hands the call to the build below it in
 * this library (redispatch), so the baseline build computes every result:
 * a hand-on that reached another library's kernel would show in the number,
 * one that reached a build the CPU lacks would die of SIGILL.
 * (A library built with a cpudispatch before 0.5, which has no
 * redispatch: run_multilib.py's versions case, computes in each build.) */
#if defined(CPUD_DISPATCH_BELOW)
CPUD_DISPATCH_DEFINE(int, simd_add, (int));
int CPUD_FN(simd_add)(int x) {
  int (*below)(int) = CPUD_DISPATCH_BELOW(simd_add);
  return below ? below(x) : x + @ADD@;
}
#else
int CPUD_FN(simd_add)(int x) { return x + @ADD@; }
#endif
const char *CPUD_FN(simd_target)(void) { return CPUD_TARGET_NAME; }
