// Typed dispatch (cpudispatch/operator.hpp, resolve.hpp): what choosing a
// kernel by argument types costs on top of calling it. Every kernel is the
// same trivial dispatched function (another TU), so the differences are the
// dispatch alone.
//   direct                 the selected ISA build's pointer, called
//   op_cached/N/A          op.resolve(types) + call: N kernels, A arguments
//   rank_uncached/N/A      cpud::resolve over N signatures + call (Numba's
//                          ranking without a cache; the cold-resolution cost)
//   depth_table_cpu_check  a table indexed by element type, with a CPU check
//                          on every call (the hand-written style of OpenCV's
//                          arithmetic tables)
//   intern_hit             a composite type's fingerprint looked up again
#include <benchmark/benchmark.h>

#include <vector>

#include "cpudispatch/operator.hpp"
#include "trivial.dispatch.h"

CPUD_DISPATCH(int, cpud_bench_add, (int, int));

namespace {

using fn = int (*)(int, int);

// N distinct signatures of arity A over the built-in types; the call's types
// match the last one exactly, after N - 1 candidates that need ranking.
struct kernel_set {
  std::vector<cpud::kernel<fn>> kernels;
  std::vector<cpud::signature> sigs;
  cpud::dtype call[cpud::k_max_arity];
  kernel_set(int n, int arity) {
    for (int i = 0; i < n; ++i) {
      cpud::kernel<fn> k = CPUD_KERNEL(cpud_bench_add, cpud::dtype::bool_);
      k.arity = arity;
      int code = i;
      for (int a = arity - 1; a >= 0; --a) {
        k.types[a] = static_cast<cpud::dtype>(code % cpud::k_builtin_dtypes);
        code /= cpud::k_builtin_dtypes;
      }
      kernels.push_back(k);
    }
    for (auto &k : kernels) sigs.push_back({k.types, k.arity});
    for (int a = 0; a < arity; ++a) call[a] = kernels.back().types[a];
  }
};

template <int N, int A>
struct fixture {
  static kernel_set &set() {
    static kernel_set s(N, A);
    return s;
  }
  static cpud::op<fn> &op() {
    static cpud::kernel<fn> table[N];
    static bool filled = [] {
      for (int i = 0; i < N; ++i) table[i] = set().kernels[i];
      return true;
    }();
    (void)filled;
    static cpud::op<fn> o{"bench", table, cpud::casting::unsafe};
    return o;
  }
};

void BM_direct(benchmark::State &state) {
  fn f = cpud_bench_add.get();
  benchmark::DoNotOptimize(f);
  int acc = 0;
  for (auto _ : state) {
    acc = f(acc, 1);
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_direct);

template <int N, int A>
void BM_op_cached(benchmark::State &state) {
  cpud::op<fn> &o = fixture<N, A>::op();
  const cpud::dtype *call = fixture<N, A>::set().call;
  if (!o.resolve(call, A)) state.SkipWithError("does not resolve");
  int acc = 0;
  for (auto _ : state) {
    acc = o.resolve(call, A).fn()(acc, 1);
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK_TEMPLATE(BM_op_cached, 4, 1);
BENCHMARK_TEMPLATE(BM_op_cached, 4, 2);
BENCHMARK_TEMPLATE(BM_op_cached, 16, 2);
BENCHMARK_TEMPLATE(BM_op_cached, 64, 2);
BENCHMARK_TEMPLATE(BM_op_cached, 64, 3);

template <int N, int A>
void BM_rank_uncached(benchmark::State &state) {
  kernel_set &s = fixture<N, A>::set();
  int acc = 0;
  for (auto _ : state) {
    cpud::resolution r = cpud::resolve(s.call, A, s.sigs.data(), N, cpud::casting::unsafe);
    acc = s.kernels[r.index].get()(acc, 1);
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK_TEMPLATE(BM_rank_uncached, 8, 2);
BENCHMARK_TEMPLATE(BM_rank_uncached, 64, 2);
BENCHMARK_TEMPLATE(BM_rank_uncached, 64, 3);

// One table per ISA level, indexed by the element type; each call checks the
// CPU before indexing.
void BM_depth_table_cpu_check(benchmark::State &state) {
  const cpud::target_entry<fn> *best = decltype(cpud_bench_add)::targets();
  const cpud::target_entry<fn> *base = best;
  while (base->fn && base->feature != 0) ++base;
  fn high[cpud::k_builtin_dtypes], low[cpud::k_builtin_dtypes];
  for (int i = 0; i < cpud::k_builtin_dtypes; ++i) {
    high[i] = best->fn;
    low[i] = base->fn ? base->fn : best->fn;
  }
  benchmark::DoNotOptimize(high);
  benchmark::DoNotOptimize(low);
  const int feature = best->feature;
  int depth = static_cast<int>(cpud::dtype::float32), acc = 0;
  benchmark::DoNotOptimize(depth);
  for (auto _ : state) {
    acc = ((feature && cpud_have(feature)) ? high : low)[depth](acc, 1);
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_depth_table_cpu_check);

// Interning a fingerprint that is already registered (the common case: a
// library looks up its descriptor's code per call or per array).
void BM_intern_hit(benchmark::State &state) {
  cpud::type_registry &reg = cpud::types();
  char fp[] = {'f', '3', '2', 'x', '3', 'C'};  // not const: re-read (and re-hashed) every iteration
  for (int i = 0; i < 100; ++i) {
    const char other[] = {'u', '8', static_cast<char>(i)};
    reg.intern(other, sizeof other);
  }
  reg.intern(fp, sizeof fp);
  for (auto _ : state) {
    benchmark::DoNotOptimize(fp);  // the bytes may have changed: hash and compare them again
    cpud::dtype t = reg.intern(fp, sizeof fp);
    benchmark::DoNotOptimize(t);
  }
}
BENCHMARK(BM_intern_hit);

}  // namespace

BENCHMARK_MAIN();
