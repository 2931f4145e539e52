// The two kernels, each dispatched by cpudispatch's C++ API
// (docs/quickstart.md, section 4): the first call selects the best build
// this CPU can run; `name.selected_name()` says which ("X86_V3", "baseline").
#pragma once

#include <cstddef>

#include "cpudispatch/dispatch.hpp"

// Each generated header before the dispatchers of its own source.
#include "dot_hwy.dispatch.h"
CPUD_DISPATCH(float, dot_hwy, (const float *, const float *, std::size_t));
CPUD_DISPATCH(const char *, dot_hwy_style, ());
CPUD_DISPATCH(std::size_t, dot_hwy_lanes, ());

#include "dot_stdx.dispatch.h"
CPUD_DISPATCH(float, dot_stdx, (const float *, const float *, std::size_t));
CPUD_DISPATCH(const char *, dot_stdx_style, ());
CPUD_DISPATCH(std::size_t, dot_stdx_lanes, ());

// One style's selected build, as the test and the benchmark print it:
// "dot_hwy ran on X86_V3 (Highway AVX2, 8 lanes)".
struct dot_kernel {
  const char *name;    // the function
  float (*fn)(const float *, const float *, std::size_t);
  const char *target;  // cpudispatch's build that runs
  const char *library;
  const char *style;   // what the library compiled it for
  std::size_t lanes;   // floats per vector
};

inline dot_kernel dot_kernel_hwy() {
  return {"dot_hwy", dot_hwy.get(), dot_hwy.selected_name(), "Highway", dot_hwy_style(), dot_hwy_lanes()};
}
inline dot_kernel dot_kernel_stdx() {
  return {"dot_stdx", dot_stdx.get(), dot_stdx.selected_name(), "stdx", dot_stdx_style(), dot_stdx_lanes()};
}
