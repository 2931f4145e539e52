// Start-up cost: what the constructor does once per process — detection
// (CPUID + XGETBV or getauxval), closing over implied features, parsing the
// environment masks, and the baseline check — run again and again.
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "cpudispatch/cpudispatch.h"
#if CPUD_BENCH_CPU_FEATURES
#include <cpu_features/cpuinfo_x86.h>
#endif
#include "detect.h"
#include "env_masks.h"

namespace {

void startup_once(benchmark::State &state, const char *disable) {
  using namespace cpud::internal;
  for (auto _ : state) {
    env_inputs in{};
    in.disable = disable;
    in.usable = close_over_implied(detect_raw(startup_wanted()));
    in.baseline = cpud_baseline_mask();
    in.dispatched = dispatched_mask();
    env_outcome o = apply_env_masks(in);
    benchmark::DoNotOptimize(o.usable);
    cpud::feature_set missing = in.baseline & ~in.usable;
    benchmark::DoNotOptimize(missing);
  }
  state.counters["cpuid_per_init"] = 0;
  unsigned before = cpuid_count();
  (void)detect_raw(startup_wanted());
  state.counters["cpuid_per_init"] = static_cast<double>(cpuid_count() - before);
}

void BM_startup(benchmark::State &state) { startup_once(state, nullptr); }
BENCHMARK(BM_startup);

void BM_startup_with_env_mask(benchmark::State &state) { startup_once(state, "avx512f, avx2 sse42"); }
BENCHMARK(BM_startup_with_env_mask);

#if CPUD_BENCH_CPU_FEATURES
// google/cpu_features (Debian libcpu-features-dev): what it does once.
void BM_cpu_features_GetX86Info(benchmark::State &state) {
  for (auto _ : state) {
    cpu_features::X86Info info = cpu_features::GetX86Info();
    benchmark::DoNotOptimize(info);
  }
}
BENCHMARK(BM_cpu_features_GetX86Info);

// libgcc's __builtin_cpu_init (it runs once, guarded by __cpu_model's vendor
// field; the benchmark clears that field to make it run again) and a query.
// libgcc's __cpu_model starts with the vendor field. Its address comes from
// inline assembly: a C++ declaration of __cpu_model, even one under an asm
// label, clashes with the compilers' own declaration for the builtins
// (Clang 14 -O2 aborts with a corrupted heap generating the function that
// stores through such a declaration, or not, depending on the rest of the
// file).
unsigned *libgcc_cpu_vendor() {
  unsigned *p;
  __asm__("leaq __cpu_model(%%rip), %0" : "=r"(p));
  return p;
}
void BM_libgcc_builtin_cpu_init(benchmark::State &state) {
  unsigned *const vendor = libgcc_cpu_vendor();
  for (auto _ : state) {
    *vendor = 0;
    __builtin_cpu_init();
    benchmark::DoNotOptimize(__builtin_cpu_supports("avx2"));
  }
}
BENCHMARK(BM_libgcc_builtin_cpu_init);
#endif

}  // namespace

BENCHMARK_MAIN();
