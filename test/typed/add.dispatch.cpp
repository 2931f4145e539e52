// Element-wise add for several element types, compiled once per target:
// the kernels of the operator tests. One type-erased signature for all.
#include "add.dispatch.h"

#include <complex>
#include <cstddef>
#include <cstdint>

namespace CPUD_TARGET_NS {
template <class T>
void add(const void *a, const void *b, void *out, std::size_t n) {
  const T *x = static_cast<const T *>(a), *y = static_cast<const T *>(b);
  T *o = static_cast<T *>(out);
  for (std::size_t i = 0; i < n; ++i) o[i] = x[i] + y[i];
}
}  // namespace CPUD_TARGET_NS

void CPUD_FN(add_i32)(const void *a, const void *b, void *o, std::size_t n) { CPUD_TARGET_NS::add<std::int32_t>(a, b, o, n); }
void CPUD_FN(add_i64)(const void *a, const void *b, void *o, std::size_t n) { CPUD_TARGET_NS::add<std::int64_t>(a, b, o, n); }
void CPUD_FN(add_f32)(const void *a, const void *b, void *o, std::size_t n) { CPUD_TARGET_NS::add<float>(a, b, o, n); }
void CPUD_FN(add_f64)(const void *a, const void *b, void *o, std::size_t n) { CPUD_TARGET_NS::add<double>(a, b, o, n); }
void CPUD_FN(add_c64)(const void *a, const void *b, void *o, std::size_t n) {
  CPUD_TARGET_NS::add<std::complex<float>>(a, b, o, n);
}

// Which build ran, written to *(const char **)o: the guard tests see what a
// call actually executed, not what introspection says.
void CPUD_FN(add_which)(const void *, const void *, void *o, std::size_t) {
  *static_cast<const char **>(o) = CPUD_TARGET_NAME;
}
