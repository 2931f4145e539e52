// The same dot product written once with std::experimental::simd (the
// Parallelism TS 2, libstdc++'s <experimental/simd>, GCC >= 11; Clang with
// libstdc++ too): cpudispatch compiles this file once per target of its list
// (meson.build), and native_simd<float> is as wide as that build's flags
// allow: 4 lanes for SSE2/SSE4.2 and NEON, 8 for AVX2, 16 for AVX-512.
#include "dot_stdx.dispatch.h"

#include <cstddef>
#include <experimental/simd>

namespace stdx = std::experimental;
using vfloat = stdx::native_simd<float>;  // a distinct type per width: simd<float, _VecBuiltin<32>>, ...

float CPUD_FN(dot_stdx)(const float *a, const float *b, std::size_t n) {
  constexpr std::size_t N = vfloat::size();
  const auto load = [](const float *p) { return vfloat(p, stdx::element_aligned); };
  // Four independent sums, so that the loop does not wait on each add's
  // latency. `x * y + sum`, not stdx::fma: with GCC 12, libstdc++'s fma is
  // one scalar fma per lane (README.md); GCC fuses this one where the build
  // has FMA.
  vfloat sum0 = 0.0f, sum1 = 0.0f, sum2 = 0.0f, sum3 = 0.0f;
  std::size_t i = 0;
  for (; i + 4 * N <= n; i += 4 * N) {
    sum0 = load(a + i) * load(b + i) + sum0;
    sum1 = load(a + i + N) * load(b + i + N) + sum1;
    sum2 = load(a + i + 2 * N) * load(b + i + 2 * N) + sum2;
    sum3 = load(a + i + 3 * N) * load(b + i + 3 * N) + sum3;
  }
  for (; i + N <= n; i += N) sum0 = load(a + i) * load(b + i) + sum0;
  float sum = stdx::reduce((sum0 + sum1) + (sum2 + sum3));
  for (; i < n; ++i) sum += a[i] * b[i];  // the tail: fewer than N floats
  return sum;
}

// What ran: the ABI's lane count (a compile-time constant).
const char *CPUD_FN(dot_stdx_style)() { return "native_simd<float>"; }
std::size_t CPUD_FN(dot_stdx_lanes)() { return vfloat::size(); }
