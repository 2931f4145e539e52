// The C++ dispatch source of docs/api.md ("Code inside a dispatch source"),
// compiled once per target of test/docs/meson.build's list. The block between
// the markers is the docs block, verbatim (api_doc.py compares them); the
// functions after it are test probes that report this build's compile-time
// macros to api_cxx_test.cpp.
/* api-source:start */
// scale.dispatch.cpp, compiled once per target of
// "baseline SSE42 X86_V3 AVX512_SKX ASIMDDP VSX3"
#include <cstddef>

#include "scale.dispatch.h"

namespace CPUD_TARGET_NS {  // NAMESPACE__cpud_target_X86_V3, ...__cpud_target_baseline, ...
inline float times(float x, float k) { return x * k; }
}  // namespace CPUD_TARGET_NS

// Defines scale_AVX512_SKX, scale_X86_V3, ..., scale_baseline.
const char *CPUD_FN(scale)(float *p, std::size_t n, float k) {
  std::size_t i = 0;
#if defined(CPUD_HAVE_AVX2)  // this build may use AVX2 (X86_V3 and above)
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(p + i, _mm256_mul_ps(_mm256_loadu_ps(p + i), _mm256_set1_ps(k)));
#endif
  for (; i < n; ++i) p[i] = CPUD_TARGET_NS::times(p[i], k);
  return CPUD_TARGET_NAME;  // "X86_V3", ..., "baseline": the build that ran
}
/* api-source:end */

#include <cstdint>

// 1 when the macro M is defined as 1 here (M itself is spelled otherwise).
#define DOCS_IS_ONE(M) (CPUD_STR(M)[0] == '1' && CPUD_STR(M)[1] == 0)
#define DOCS_HAVE_BIT(NAME, ...) | (DOCS_IS_ONE(CPUD_HAVE_##NAME) ? CPUD_BIT(NAME) : cpud::feature_set())
#define DOCS_TARGET_BIT(NAME, ...) | (DOCS_IS_ONE(CPUD_TARGET_##NAME) ? CPUD_BIT(NAME) : cpud::feature_set())

// Which CPUD_HAVE_<F> this build defines, as a mask.
cpud_mask CPUD_FN(scale_have)() { return cpud::feature_set() CPUD_FEATURES(DOCS_HAVE_BIT); }

// Which CPUD_TARGET_<F> this build defines, as a mask; bit 0: CPUD_TARGET_IS_BASELINE.
cpud_mask CPUD_FN(scale_target)() {
  cpud::feature_set m = cpud::feature_set() CPUD_FEATURES(DOCS_TARGET_BIT);
#if defined(CPUD_TARGET_IS_BASELINE)
  m.w[0] |= 1;
#endif
  return m;
}

// The per-target namespace's name, and this build's copy of its inline helper.
const char *CPUD_FN(scale_ns)(const void **helper) {
  *helper = reinterpret_cast<const void *>(&CPUD_TARGET_NS::times);
  return CPUD_STR(CPUD_TARGET_NS);
}
