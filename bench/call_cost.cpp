// Call cost of the same trivial, non-inlined kernel (another TU) through each
// mechanism a user could pick; bench/report.py prints each as a ratio to the
// direct call. All variants live in this one binary, run in one process.
#include <benchmark/benchmark.h>

#include <atomic>
#include <thread>

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

// Per-thread guards (dispatch.hpp). While any thread is restricted, every
// dispatched call of every thread selects per call; these measure that
// price, in the restricted thread and in an unrestricted one. With no guard
// anywhere the plain BM_cpudispatch_dispatched above is the price.
void BM_cpudispatch_guard_in_this_thread(benchmark::State &state) {
  cpud::only_features guard(cpud_usable_mask());  // restricts nothing the CPU has, but is a guard
  int acc = 0;
  for (auto _ : state) {
    acc = cpud_bench_add(acc, 1);
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_cpudispatch_guard_in_this_thread);

void BM_cpudispatch_guard_in_another_thread(benchmark::State &state) {
  std::atomic<int> phase{0};
  std::thread other([&] {
    cpud::only_features guard(cpud_usable_mask());
    phase = 1;
    while (phase.load() != 2) std::this_thread::yield();
  });
  while (phase.load() != 1) {
  }
  int acc = 0;
  for (auto _ : state) {
    acc = cpud_bench_add(acc, 1);
    benchmark::DoNotOptimize(acc);
  }
  phase = 2;
  other.join();
}
BENCHMARK(BM_cpudispatch_guard_in_another_thread);

void BM_check_chain_per_call_guard_in_this_thread(benchmark::State &state) {
  cpud::only_features guard(cpud_usable_mask());
  int acc = 0;
  for (auto _ : state) {
    acc = CPUD_DISPATCH_CALL(cpud_bench_add, (acc, 1));
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_check_chain_per_call_guard_in_this_thread);

// The guard itself: constructing and destroying one (the first and last
// restricted thread re-select every registered function).
void BM_cpudispatch_guard_scope(benchmark::State &state) {
  (void)cpud_bench_add(0, 1);
  for (auto _ : state) {
    cpud::only_features guard(cpud_usable_mask());
    benchmark::DoNotOptimize(cpud_thread_allowed());
  }
}
BENCHMARK(BM_cpudispatch_guard_scope);

}  // namespace

BENCHMARK_MAIN();
