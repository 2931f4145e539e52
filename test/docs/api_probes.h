// Probes of scale.dispatch.cpp, declared in a header as src/demo/kernels.h
// does: both translation units of api_cxx_test include it and must share one
// dispatcher (and one cache) per function.
#ifndef DOCS_API_PROBES_H_
#define DOCS_API_PROBES_H_

#include <cstdint>

#include "scale.dispatch.h"
#include "cpudispatch/dispatch.hpp"

CPUD_DISPATCH(cpud_mask, scale_have, ());
CPUD_DISPATCH(cpud_mask, scale_target, ());
CPUD_DISPATCH(const char *, scale_ns, (const void **));

// api_cxx_tu2.cpp: selects scale_have from the other translation unit and
// returns how many registered functions are named scale_have.
int docs_api_tu2_select_scale_have();

#endif
