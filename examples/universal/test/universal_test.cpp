// Each style's kernel, the build this CPU selects, against a scalar
// double-precision reference, on lengths around every lane count (the tails)
// up to 4099 floats. Prints one line per kernel, which the harness reads
// under each target and each emulated CPU:
//   dot_hwy ran on X86_V3 (Highway AVX2, 8 lanes): 22 lengths up to 4099 within 1e-04 of the reference
// Exit status 0 when every result is within the tolerance.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "dot.h"

int main() {
  const std::size_t lengths[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 1000, 4096, 4099};
  const std::size_t n_max = 4099;
  // Tolerance relative to sum |a[i] * b[i]|: far above the rounding of any
  // summation order for this data, far below one wrong or missing product.
  const double rel_tol = 1e-4;
  std::vector<float> a(n_max), b(n_max);
  std::uint32_t state = 12345;
  auto next = [&state] {  // uniform in [-1, 1)
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
  };
  for (std::size_t i = 0; i < n_max; ++i) {
    a[i] = next();
    b[i] = next();
  }
  bool all_ok = true;
  for (const dot_kernel &k : {dot_kernel_hwy(), dot_kernel_stdx()}) {
    bool ok = k.fn != nullptr;
    for (std::size_t n : lengths) {
      if (!ok) break;
      double want = 0, magnitude = 0;
      for (std::size_t i = 0; i < n; ++i) {
        want += static_cast<double>(a[i]) * b[i];
        magnitude += std::fabs(static_cast<double>(a[i]) * b[i]);
      }
      const float got = k.fn(a.data(), b.data(), n);
      if (!(std::fabs(got - want) <= rel_tol * magnitude)) {
        std::printf("%s on %s: n=%zu gave %.9g, want %.9g (tolerance %.3g)\n", k.name, k.target, n, got, want,
                    rel_tol * magnitude);
        ok = false;
      }
    }
    std::printf("%s ran on %s (%s %s, %zu lanes): ", k.name, k.target, k.library, k.style, k.lanes);
    if (ok)
      std::printf("%zu lengths up to %zu within %.0e of the reference\n", sizeof lengths / sizeof *lengths, n_max,
                  rel_tol);
    else
      std::printf("FAILED\n");
    all_ok = all_ok && ok;
  }
  return all_ok ? 0 : 1;
}
