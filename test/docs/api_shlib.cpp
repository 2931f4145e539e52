// A shared library that dispatches a C++ and a C source, built with the
// default (visible) symbol visibility: api_doc.py checks that it exports
// nothing of cpudispatch, only its own two functions (docs/api.md,
// "Symbols and linkage").
#include <cstddef>

#include "scale.dispatch.h"
#include "cpudispatch/dispatch.hpp"

CPUD_DISPATCH(const char *, scale, (float *, std::size_t, float));

#include "fast.dispatch.h"
extern "C" {
CPUD_DISPATCH(int, fast, (const int *, int, char *));
}

extern "C" const char *docs_api_shlib_scale(float *p, std::size_t n) { return scale(p, n, 2.0f); }
extern "C" int docs_api_shlib_fast_count() { return CPUD_fast__TARGET_COUNT + (fast.get() != nullptr); }
