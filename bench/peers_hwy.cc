// Google Highway's dynamic dispatch of the same trivial kernel. Highway's
// HWY_DYNAMIC_DISPATCH has to be used in the TU that HWY_EXPORTs the
// function, so this TU also holds its benchmark loop.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "peers_hwy.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace cpud_bench {
namespace HWY_NAMESPACE {
HWY_NOINLINE int Add(int a, int b) { return a + b; }
}  // namespace HWY_NAMESPACE
}  // namespace cpud_bench
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <benchmark/benchmark.h>

namespace cpud_bench {
HWY_EXPORT(Add);

void BM_highway_dynamic_dispatch(benchmark::State &state) {
  int acc = 0;
  for (auto _ : state) {
    acc = HWY_DYNAMIC_DISPATCH(Add)(acc, 1);
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_highway_dynamic_dispatch);
}  // namespace cpud_bench
#endif
