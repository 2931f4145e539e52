// Call cost: a dispatched call (cached pointer) and the "get the pointer once"
// API against a direct call of the same non-inlined kernel. bench/report.py
// turns the medians into ratios.
#include <benchmark/benchmark.h>

#include "trivial.dispatch.h"
#include "cpudispatch/dispatch.hpp"

CPUD_DISPATCH(int, cpud_bench_add, (int, int));

namespace {

void BM_direct(benchmark::State &state) {
  int acc = 0;
  for (auto _ : state) {
    acc = cpud_bench_add_baseline(acc, 1);
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_direct);

void BM_dispatched(benchmark::State &state) {
  int acc = 0;
  for (auto _ : state) {
    acc = cpud_bench_add(acc, 1);
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_dispatched);

void BM_pointer(benchmark::State &state) {
  auto f = cpud_bench_add.get();
  benchmark::DoNotOptimize(f);
  int acc = 0;
  for (auto _ : state) {
    acc = f(acc, 1);
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_pointer);

}  // namespace

BENCHMARK_MAIN();
