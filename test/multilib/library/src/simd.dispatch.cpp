// The kernels, compiled once per target (C++). Every library made of this
// template has them under the same names; each adds its own library's
// number, so a program can tell whose kernel served a call. The helper is
// an inline function of the same name in every library and target: the
// build's namespace in CPUD_TARGET_NS keeps each copy its own.
#include "simd.dispatch.h"

namespace CPUD_TARGET_NS {
inline int add_own(int x) { return x + @ADD@; }
}  // namespace CPUD_TARGET_NS

// Each build above the baseline hands the call to the build below it in
// this library (redispatch), so the baseline build computes every result:
// a hand-on that reached another library's kernel would show in the
// number, one that reached a build the CPU lacks would die of SIGILL. (A
// library built with a cpudispatch before 0.5, which has no redispatch:
// run_multilib.py's versions case, computes in each build.)
#include "cpudispatch/dispatch.hpp"
#if defined(CPUD_BELOW)
CPUD_DISPATCH(int, simd_add, (int));
int CPUD_FN(simd_add)(int x) {
  if (auto below = CPUD_BELOW(simd_add)) return below(x);
  return CPUD_TARGET_NS::add_own(x);
}
#else
int CPUD_FN(simd_add)(int x) { return CPUD_TARGET_NS::add_own(x); }
#endif
const char *CPUD_FN(simd_target)() { return CPUD_TARGET_NAME; }
