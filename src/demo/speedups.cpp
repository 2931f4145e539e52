// SPDX-License-Identifier: MIT
// cpudispatch-demo: times every target of each demo kernel this CPU can run
// (4 K floats / 16 KiB, so the data sits in L1) and prints the speed-up over
// the baseline build. A demo, not a benchmark: bench/ has the careful ones.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "kernels.h"

namespace {

template <class F>
double best_ns(F &&f) {
  double best = 1e30;
  for (int rep = 0; rep < 15; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 50; ++i) f();
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / 50);
  }
  return best;
}

template <class D, class Call>
void report(const D &d, Call &&call) {
  // Every usable target timed in three interleaved rounds, best kept, so a
  // slow moment of the machine does not land on one target only.
  std::vector<double> best(16, 1e30);
  for (int round = 0; round < 3; ++round) {
    int i = 0;
    for (auto *e = d.targets(); e->fn && i < 16; ++e, ++i)
      if (D::usable(*e)) best[i] = std::min(best[i], best_ns([&] { call(e->fn); }));
  }
  double base = 0;
  int i = 0;
  for (auto *e = d.targets(); e->fn && i < 16; ++e, ++i)
    if (e->feature == 0) base = best[i];
  std::printf("%-20s selected %-11s", D::name(), d.selected_name());
  i = 0;
  for (auto *e = d.targets(); e->fn && i < 16; ++e, ++i) {
    if (!D::usable(*e))
      std::printf("  %s: (not on this CPU)", e->name);
    else
      std::printf("  %s: %.0f ns (x%.2f)", e->name, best[i], base / best[i]);
  }
  std::printf("\n");
}

volatile float g_sink_f;
volatile std::size_t g_sink_z;

}  // namespace

int main() {
  const std::size_t n = 4096;
  std::vector<float> x(n, 1.25f), y(n, 0.5f);
  std::vector<std::uint8_t> b(4 * n);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<std::uint8_t>(i * 31);
  std::printf("time per call, best of 15 x 50 calls; x = speed-up over the baseline build\n");
  report(cpud_demo_sum_f32, [&](auto fn) { g_sink_f = fn(x.data(), n); });
  report(cpud_demo_dot_f32, [&](auto fn) { g_sink_f = fn(x.data(), y.data(), n); });
  report(cpud_demo_count_u8, [&](auto fn) { g_sink_z = fn(b.data(), b.size(), 7); });
  return 0;
}
