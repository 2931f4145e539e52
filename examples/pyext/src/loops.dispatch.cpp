// fastadd's loops, compiled once per target: one NumPy inner loop per
// element type, with NumPy's loop signature (args, dimensions, steps, data)
// spelled without NumPy's headers (npy_intp is ptrdiff_t on the platforms
// NumPy supports). Contiguous arrays take a plain loop the target's flags
// vectorise; anything else (a broadcast, a reduction's step of 0, a view)
// the strided one.
#include "loops.dispatch.h"

#include <cstddef>
#include <cstdint>

namespace CPUD_TARGET_NS {
template <class T>
void add(char **args, const std::ptrdiff_t *dims, const std::ptrdiff_t *steps) {
  const std::ptrdiff_t n = dims[0];
  char *a = args[0], *b = args[1], *out = args[2];
  const std::ptrdiff_t sa = steps[0], sb = steps[1], so = steps[2];
  const std::ptrdiff_t t = static_cast<std::ptrdiff_t>(sizeof(T));
  if (sa == t && sb == t && so == t) {
    const T *x = reinterpret_cast<const T *>(a), *y = reinterpret_cast<const T *>(b);
    T *o = reinterpret_cast<T *>(out);
    for (std::ptrdiff_t i = 0; i < n; ++i) o[i] = static_cast<T>(x[i] + y[i]);
    return;
  }
  for (std::ptrdiff_t i = 0; i < n; ++i, a += sa, b += sb, out += so)
    *reinterpret_cast<T *>(out) = static_cast<T>(*reinterpret_cast<const T *>(a) + *reinterpret_cast<const T *>(b));
}
}  // namespace CPUD_TARGET_NS

#define CPUDEMO_LOOP(SUFFIX, T)                                                                           \
  void CPUD_FN(cpudemo_add_##SUFFIX)(char **args, const std::ptrdiff_t *dims, const std::ptrdiff_t *steps, \
                                     void *) {                                                            \
    CPUD_TARGET_NS::add<T>(args, dims, steps);                                                            \
  }
CPUDEMO_LOOP(i8, std::int8_t)
CPUDEMO_LOOP(i16, std::int16_t)
CPUDEMO_LOOP(i32, std::int32_t)
CPUDEMO_LOOP(i64, std::int64_t)
CPUDEMO_LOOP(f32, float)
CPUDEMO_LOOP(f64, double)
