// The kernels, compiled once per target (C++). Every library made of this
// template has them under the same names; each adds its own library's
// number, so a program can tell whose kernel served a call. The helper is
// an inline function of the same name in every library and target: the
// build's namespace in CPUD_TARGET_NS keeps each copy its own.
#include "simd.dispatch.h"

namespace CPUD_TARGET_NS {
inline int add_own(int x) { return x + @ADD@; }
}  // namespace CPUD_TARGET_NS

int CPUD_FN(simd_add)(int x) { return CPUD_TARGET_NS::add_own(x); }
const char *CPUD_FN(simd_target)() { return CPUD_TARGET_NAME; }
