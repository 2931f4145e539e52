// y = a * x + y over floats, one C++ source with its own target list
// (meson.build): FMA on X86_V3, fused NEON on ASIMDHP, a plain loop elsewhere.
#include "scale.dispatch.h"

#include <cstddef>

namespace CPUD_TARGET_NS {
// Per-target namespace: this inline helper can never be merged with
// another target's copy.
inline void axpy_tail(float a, const float *x, float *y, std::size_t i, std::size_t n) {
  for (; i < n; ++i) y[i] = a * x[i] + y[i];
}
}  // namespace CPUD_TARGET_NS

void CPUD_FN(axpy)(float a, const float *x, float *y, std::size_t n) {
  std::size_t i = 0;
#if defined(CPUD_HAVE_FMA3)
  const __m256 va = _mm256_set1_ps(a);
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(y + i, _mm256_fmadd_ps(va, _mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i)));
#elif defined(CPUD_HAVE_ASIMD)
  const float32x4_t va = vdupq_n_f32(a);
  for (; i + 4 <= n; i += 4) vst1q_f32(y + i, vfmaq_f32(vld1q_f32(y + i), va, vld1q_f32(x + i)));
#endif
  CPUD_TARGET_NS::axpy_tail(a, x, y, i, n);
}

const char *CPUD_FN(axpy_target)() { return CPUD_TARGET_NAME; }
