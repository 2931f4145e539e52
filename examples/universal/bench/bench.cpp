// Nanoseconds per call of each style's kernel, the build this CPU selects,
// on 4096 floats (two 16 KiB arrays: they stay in L1, so the vector width
// shows). Run it under a chosen target with cpudispatch-run (README.md):
//   dot_hwy  X86_V3 (Highway AVX2, 8 lanes): 251.3 ns per call (n=4096, median of 15 rounds)
// Usage: bench [ROUNDS]  (default 15 rounds of about 20 ms each per kernel)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "dot.h"

int main(int argc, char **argv) {
  const std::size_t n = 4096;
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;
  std::vector<float> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 17) * 0.25f - 2.0f;
    b[i] = static_cast<float>(i % 13) * 0.125f - 0.75f;
  }
  using clock = std::chrono::steady_clock;
  volatile float sink = 0;
  for (const dot_kernel &k : {dot_kernel_hwy(), dot_kernel_stdx()}) {
    if (!k.fn) return 1;
    // Calls per round: enough for about 20 ms.
    long calls = 1;
    for (;;) {
      const auto t0 = clock::now();
      for (long c = 0; c < calls; ++c) sink = sink + k.fn(a.data(), b.data(), n);
      if (clock::now() - t0 > std::chrono::milliseconds(20)) break;
      calls *= 2;
    }
    std::vector<double> ns(rounds);
    for (double &t : ns) {
      const auto t0 = clock::now();
      for (long c = 0; c < calls; ++c) sink = sink + k.fn(a.data(), b.data(), n);
      t = std::chrono::duration<double, std::nano>(clock::now() - t0).count() / calls;
    }
    std::nth_element(ns.begin(), ns.begin() + rounds / 2, ns.end());
    std::printf("%-8s %s (%s %s, %zu lanes): %.1f ns per call (n=%zu, median of %d rounds)\n", k.name, k.target,
                k.library, k.style, k.lanes, ns[rounds / 2], n, rounds);
  }
  return 0;
}
