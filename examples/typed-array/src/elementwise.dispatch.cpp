// The typed array's kernels, compiled once per target: element-wise add and
// multiply and a sum, one function per element type, all with the library's
// one type-erased signature (see typed_array.h). Plain loops: each target's
// flags let the compiler vectorise them for that target.
#include "elementwise.dispatch.h"

#include <complex>
#include <cstddef>
#include <cstdint>

namespace CPUD_TARGET_NS {
template <class T>
void add(const void *a, const void *b, void *out, std::size_t n) {
  const T *x = static_cast<const T *>(a), *y = static_cast<const T *>(b);
  T *o = static_cast<T *>(out);
  for (std::size_t i = 0; i < n; ++i) o[i] = static_cast<T>(x[i] + y[i]);
}
template <class T>
void mul(const void *a, const void *b, void *out, std::size_t n) {
  const T *x = static_cast<const T *>(a), *y = static_cast<const T *>(b);
  T *o = static_cast<T *>(out);
  for (std::size_t i = 0; i < n; ++i) o[i] = static_cast<T>(x[i] * y[i]);
}
// b is unused: a sum has one input; out receives one Acc.
template <class T, class Acc = T>
void sum(const void *a, const void *, void *out, std::size_t n) {
  const T *x = static_cast<const T *>(a);
  Acc s{};
  for (std::size_t i = 0; i < n; ++i) s = static_cast<Acc>(s + x[i]);
  *static_cast<Acc *>(out) = s;
}
}  // namespace CPUD_TARGET_NS

// Which build ran: the tests print it under each target.
const char *CPUD_FN(ta_target)() { return CPUD_TARGET_NAME; }

#define TA_KERNELS(SUFFIX, T)                                                  \
  void CPUD_FN(ta_add_##SUFFIX)(const void *a, const void *b, void *o, std::size_t n) { \
    CPUD_TARGET_NS::add<T>(a, b, o, n);                                        \
  }                                                                            \
  void CPUD_FN(ta_mul_##SUFFIX)(const void *a, const void *b, void *o, std::size_t n) { \
    CPUD_TARGET_NS::mul<T>(a, b, o, n);                                        \
  }
TA_KERNELS(i8, std::int8_t)
TA_KERNELS(i16, std::int16_t)
TA_KERNELS(i32, std::int32_t)
TA_KERNELS(i64, std::int64_t)
TA_KERNELS(u8, std::uint8_t)
TA_KERNELS(f32, float)
TA_KERNELS(f64, double)
TA_KERNELS(c64, std::complex<float>)

// Sums: integers accumulate in int64 (uint8 directly, the signed ones after
// the operator promotes them), the others in their own type.
void CPUD_FN(ta_sum_u8)(const void *a, const void *b, void *o, std::size_t n) {
  CPUD_TARGET_NS::sum<std::uint8_t, std::int64_t>(a, b, o, n);
}
void CPUD_FN(ta_sum_i64)(const void *a, const void *b, void *o, std::size_t n) {
  CPUD_TARGET_NS::sum<std::int64_t>(a, b, o, n);
}
void CPUD_FN(ta_sum_f32)(const void *a, const void *b, void *o, std::size_t n) { CPUD_TARGET_NS::sum<float>(a, b, o, n); }
void CPUD_FN(ta_sum_f64)(const void *a, const void *b, void *o, std::size_t n) { CPUD_TARGET_NS::sum<double>(a, b, o, n); }
void CPUD_FN(ta_sum_c64)(const void *a, const void *b, void *o, std::size_t n) {
  CPUD_TARGET_NS::sum<std::complex<float>>(a, b, o, n);
}
