// Call cost of the same trivial, non-inlined kernel (another TU) through each
// mechanism a user could pick; bench/report.py prints each as a ratio to the
// direct call. All variants live in this one binary, run in one process.
#include <benchmark/benchmark.h>

#include "trivial.dispatch.h"
#include "cpudispatch/dispatch.hpp"

CPUD_DISPATCH(int, cpud_bench_add, (int, int));


extern "C" {
int bench_add_direct(int, int);
int bench_add_clones(int, int);
int shared_add_direct(int, int);
int shared_add_dispatched(int, int);
int (*shared_add_pointer())(int, int);
}

namespace {

#define CALL_LOOP(NAME, EXPR)                    \
  void NAME(benchmark::State &state) {           \
    int acc = 0;                                 \
    for (auto _ : state) {                       \
      acc = EXPR;                                \
      benchmark::DoNotOptimize(acc);             \
    }                                            \
  }                                              \
  BENCHMARK(NAME)

CALL_LOOP(BM_direct, bench_add_direct(acc, 1));
CALL_LOOP(BM_cpudispatch_dispatched, cpud_bench_add(acc, 1));
// NumPy / OpenCV style: every call walks the chain of feature checks.
CALL_LOOP(BM_check_chain_per_call, CPUD_DISPATCH_CALL(cpud_bench_add, (acc, 1)));
#if !defined(NO_CLONES)
CALL_LOOP(BM_gcc_target_clones_ifunc, bench_add_clones(acc, 1));
#endif
CALL_LOOP(BM_shared_direct, shared_add_direct(acc, 1));
CALL_LOOP(BM_shared_dispatched, shared_add_dispatched(acc, 1));

void BM_cpudispatch_pointer(benchmark::State &state) {
  auto f = cpud_bench_add.get();
  benchmark::DoNotOptimize(f);
  int acc = 0;
  for (auto _ : state) {
    acc = f(acc, 1);
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_cpudispatch_pointer);

void BM_shared_pointer(benchmark::State &state) {
  auto f = shared_add_pointer();
  benchmark::DoNotOptimize(f);
  int acc = 0;
  for (auto _ : state) {
    acc = f(acc, 1);
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_shared_pointer);

}  // namespace

BENCHMARK_MAIN();
