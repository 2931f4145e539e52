// docs/api.md's redispatch example ("Redispatch: handing work to the build
// below"), compiled once per target of test/docs/meson.build's list; the
// block between the markers is the docs block, verbatim. api_cxx_test.cpp
// checks its sums and the order the builds ran in.
/* api-redispatch:start */
// bulk.dispatch.cpp, compiled once per target of
// "baseline SSE42 X86_V3 AVX512_SKX ASIMDDP VSX3"
#include <cstddef>

#include "bulk.dispatch.h"
#include "cpudispatch/dispatch.hpp"

// The function's own dispatcher, so that its builds can name the one below.
CPUD_DISPATCH(float, bulk_sum, (const float *, std::size_t, int *));

namespace CPUD_TARGET_NS {
#if defined(CPUD_HAVE_AVX512F)
constexpr std::size_t lanes = 16;
#elif defined(CPUD_HAVE_AVX2)
constexpr std::size_t lanes = 8;
#else
constexpr std::size_t lanes = 4;
#endif
}  // namespace CPUD_TARGET_NS

// Each build sums whole blocks of its width and hands the tail, and inputs
// too short to pay for its unit, to the build below it; the baseline build
// has nothing below (CPUD_BELOW is a constant null there) and does the rest.
// *hops counts the builds that ran.
float CPUD_FN(bulk_sum)(const float *p, std::size_t n, int *hops) {
  using CPUD_TARGET_NS::lanes;
  ++*hops;
  auto below = CPUD_BELOW(bulk_sum);
  if (below && n < 2 * lanes) return below(p, n, hops);
  float lane[lanes] = {};
  std::size_t i = 0;
  for (; i + lanes <= n; i += lanes)
    for (std::size_t j = 0; j < lanes; ++j) lane[j] += p[i + j];  // vectorised with this build's flags
  float s = 0;
  for (float x : lane) s += x;
  if (below && i < n) return s + below(p + i, n - i, hops);
  for (; i < n; ++i) s += p[i];
  return s;
}
/* api-redispatch:end */
