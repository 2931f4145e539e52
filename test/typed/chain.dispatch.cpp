// Redispatch from C++: each build writes its name at o[0] and hands on to
// the build below it (CPUD_BELOW), which writes at o[1], and so on; the
// baseline build, with nothing below, ends the list with a null. Compiled
// for FMA4 too, a target X86_V3 does not imply (AMD's Bulldozer line has
// it, later CPUs not): below X86_V3 it must be skipped where the CPU lacks
// it, which the table's plain order would not (test redispatch's control).
#include "chain.dispatch.h"

#include <cstddef>

#include "cpudispatch/dispatch.hpp"

CPUD_DISPATCH(void, add_chain, (const void *, const void *, void *, std::size_t));
void CPUD_FN(add_chain)(const void *, const void *, void *o, std::size_t n) {
  const char **names = static_cast<const char **>(o);
  names[0] = CPUD_TARGET_NAME;
  if (auto below = CPUD_BELOW(add_chain)) return below(nullptr, nullptr, names + 1, n + 1);
  names[1] = nullptr;
}

// A fallback kernel with ISA builds of its own (CPUD_FALLBACK): the boxed
// signature, and the name of the build that ran written to *o.
#include "cpudispatch/operator.hpp"
void CPUD_FN(boxed_which)(const cpud::call_types &, const void *, const void *, void *o, std::size_t) {
  *static_cast<const char **>(o) = CPUD_TARGET_NAME;
}
