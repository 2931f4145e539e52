// Start-up cost: what the constructor does once per process — detection
// (CPUID + XGETBV or getauxval), closing over implied features, parsing the
// environment masks, and the baseline check — run again and again.
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "cpudispatch/cpudispatch.h"
#include "detect.h"
#include "env_masks.h"

namespace {

void startup_once(benchmark::State &state, const char *disable) {
  using namespace cpud::internal;
  for (auto _ : state) {
    env_inputs in{};
    in.disable = disable;
    in.usable = close_over_implied(detect_raw());
    in.baseline = cpud_baseline_mask();
    in.dispatched = dispatched_mask();
    env_outcome o = apply_env_masks(in);
    benchmark::DoNotOptimize(o.usable);
    std::uint64_t missing = in.baseline & ~in.usable;
    benchmark::DoNotOptimize(missing);
  }
  state.counters["cpuid_per_init"] = 0;
  unsigned before = cpuid_count();
  (void)detect_raw();
  state.counters["cpuid_per_init"] = static_cast<double>(cpuid_count() - before);
}

void BM_startup(benchmark::State &state) { startup_once(state, nullptr); }
BENCHMARK(BM_startup);

void BM_startup_with_env_mask(benchmark::State &state) { startup_once(state, "avx512f, avx2 sse42"); }
BENCHMARK(BM_startup_with_env_mask);

}  // namespace

BENCHMARK_MAIN();
