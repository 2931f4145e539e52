// The one exported function of each twin library: calls its own dispatched
// cpud_twin (hidden), and can mask features inside its own runtime copy.
#include "cpudispatch/testing.h"
#include TWIN_HEADER
#include "cpudispatch/dispatch.hpp"

CPUD_DISPATCH(const char *, cpud_twin, ());
CPUD_DISPATCH(void, cpud_twin_chain, (char *));

#define TWIN_EXPORT extern "C" __attribute__((visibility("default")))
#define TWIN_CAT_(a, b) a##b
#define TWIN_CAT(a, b) TWIN_CAT_(a, b)

TWIN_EXPORT const char *TWIN_CAT(twin_call_, TWIN_LIB)() { return cpud_twin(); }
// The builds a call passed through, top first ("a:X86_V3 a:SSE42 a:baseline ").
TWIN_EXPORT void TWIN_CAT(twin_chain_, TWIN_LIB)(char *out) {
  out[0] = 0;
  cpud_twin_chain(out);
}
TWIN_EXPORT void TWIN_CAT(twin_mask_baseline_only_, TWIN_LIB)() { cpud_set_usable_mask(cpud_mask_none()); }
