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
// Real traffic: a working set of call signatures, called round robin (each
// iteration resolves and calls the next one), so a cache that keeps one
// signature per slot, or stops caching, shows; the /N is the working set:
//   direct_round_robin/N   each signature's selected kernel, resolved once,
//                          called through its pointer round robin (the same
//                          loop without resolve(): the baseline)
//   op_round_robin/N       op.resolve(call) + call, round robin. N <= 58: the
//                          call signatures the typed-array example's add
//                          accepts (the pairs of its 8 array types that
//                          resolve; 1 and 8 are spread over them; over all
//                          14 built-in types it would be 156); 200 and up
//                          (to 10,000, more than the cache's 4,096 slots):
//                          one with kernels (t), (t, t), (t, t, t) and
//                          (t, t, t, t) for every built-in t, casting
//                          unsafe (the first N calls it accepts)
//   rank_round_robin/N     cpud::resolve over the kernels + call, round robin:
//                          the cost of every call missing the cache
//   op_round_robin_after_declarations
//                          op_round_robin/58 on an operator that re-resolved
//                          the 58 after each of 10,000 rule declarations
//                          (types().declare invalidates every operator)
//   op_round_robin_after_registrations
//                          op_round_robin/58 on add's 8 kernels plus 240
//                          arity-3 kernels added by add_kernel, the 58
//                          re-resolved after each registration
//   explain_no_match       add.explain() of a call no kernel accepts
//   explain_ambiguous      add.explain() of a call whose best kernels tie
//                          ((bool, bool): int8 and uint8)
// The working sets are built once per process (their setup is no part of
// any repetition); counters give N and, for the "after" ones, the setup.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <map>
#include <memory>
#include <string>
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

// ---- Real traffic: working sets of call signatures ----

using cpud::dtype;

// The add operator of examples/typed-array (src/typed_array.cpp): its
// signatures, casting and tie rule, every kernel the trivial function.
constexpr auto k_add_casting = cpud::casting::safe;
constexpr auto k_add_ties = cpud::tie_rule::most_specific;
constexpr cpud::kernel<fn> add_kernels[] = {
    CPUD_KERNEL(cpud_bench_add, dtype::int8, dtype::int8),
    CPUD_KERNEL(cpud_bench_add, dtype::int16, dtype::int16),
    CPUD_KERNEL(cpud_bench_add, dtype::int32, dtype::int32),
    CPUD_KERNEL(cpud_bench_add, dtype::int64, dtype::int64),
    CPUD_KERNEL(cpud_bench_add, dtype::uint8, dtype::uint8),
    CPUD_KERNEL(cpud_bench_add, dtype::float32, dtype::float32),
    CPUD_KERNEL(cpud_bench_add, dtype::float64, dtype::float64),
    CPUD_KERNEL(cpud_bench_add, dtype::complex64, dtype::complex64)};
constexpr int k_add_kernels = sizeof add_kernels / sizeof add_kernels[0];
// The example's arrays hold these types only (its visit()), so its add sees
// their 64 pairs, of which it accepts 58: (int32 | int64 | float64,
// complex64) and back need an unsafe conversion. Over all 14 built-in types
// the operator accepts 156 pairs, most of which no caller of the example
// makes. The setup counts and checks the 58: every "58" below means them.
constexpr dtype k_array_types[] = {dtype::int8,  dtype::int16,   dtype::int32,   dtype::int64,
                                   dtype::uint8, dtype::float32, dtype::float64, dtype::complex64};
constexpr int k_add_calls = 58;

// A kernel of the trivial function with types known only at run time.
cpud::kernel<fn> make_kernel(const dtype *types, int arity) {
  cpud::kernel<fn> k = CPUD_KERNEL(cpud_bench_add, dtype::bool_);
  k.arity = arity;
  for (int a = 0; a < arity; ++a) k.types[a] = types[a];
  return k;
}

struct call_sig {
  dtype types[cpud::k_max_arity];
  int arity;
};

std::string text(const call_sig &c) { return cpud::signature_text(c.types, c.arity); }

// Every call of this arity over the built-in types, in typecode order, as
// cpud::resolve answers it with the operator's rules (op.resolve is checked
// against this, not trusted to build it); calls that tie go to *ambiguous.
std::vector<call_sig> accepted_calls(const cpud::kernel<fn> *ks, int nk, cpud::casting limit, cpud::tie_rule tie,
                                     int arity, std::vector<call_sig> *ambiguous = nullptr) {
  std::vector<cpud::signature> sigs;
  for (int i = 0; i < nk; ++i) sigs.push_back({ks[i].types, ks[i].arity});
  std::vector<call_sig> out;
  int total = 1;
  for (int a = 0; a < arity; ++a) total *= cpud::k_builtin_dtypes;
  for (int code = 0; code < total; ++code) {
    call_sig c{{}, arity};
    for (int a = arity - 1, rest = code; a >= 0; --a, rest /= cpud::k_builtin_dtypes)
      c.types[a] = static_cast<dtype>(rest % cpud::k_builtin_dtypes);
    const cpud::resolution r = cpud::resolve(c.types, arity, sigs.data(), nk, limit, tie, cpud::convert);
    if (r.kind == cpud::resolution::ok) out.push_back(c);
    if (r.kind == cpud::resolution::ambiguous && ambiguous) ambiguous->push_back(c);
  }
  return out;
}

bool array_type(dtype t) {
  return std::find(std::begin(k_array_types), std::end(k_array_types), t) != std::end(k_array_types);
}

// add's working set: every built-in pair it accepts whose types arrays have.
const std::vector<call_sig> &add_calls() {
  static const std::vector<call_sig> calls = [] {
    std::vector<call_sig> out;
    for (const call_sig &c : accepted_calls(add_kernels, k_add_kernels, k_add_casting, k_add_ties, 2))
      if (array_type(c.types[0]) && array_type(c.types[1])) out.push_back(c);
    return out;
  }();
  return calls;
}

// An operator of its own (no other benchmark's calls in its cache), the calls
// of its working set and each call's kernel, resolved once.
struct working_set {
  const cpud::kernel<fn> *kernels = nullptr;  // the static table
  int n_kernels = 0;
  cpud::casting limit{};
  cpud::tie_rule tie{};
  std::unique_ptr<cpud::op<fn>> op;
  std::vector<call_sig> calls;
  std::vector<fn> direct;
  std::string error;  // why the benchmark is skipped
  double setup_s = 0;
  long resolutions = 0;  // in the setup

  // The kernel cpud::resolve picks for c among the static kernels.
  const cpud::kernel<fn> *expected(const call_sig &c) const {
    std::vector<cpud::signature> sigs;
    for (int i = 0; i < n_kernels; ++i) sigs.push_back({kernels[i].types, kernels[i].arity});
    const cpud::resolution r = cpud::resolve(c.types, c.arity, sigs.data(), n_kernels, limit, tie, cpud::convert);
    return r.kind == cpud::resolution::ok ? &kernels[r.index] : nullptr;
  }
  // op.resolve must agree with cpud::resolve on every call (compared by
  // signature: a cache may hand out copies of kernels); false, with the
  // error set, where it does not.
  bool check() {
    for (const call_sig &c : calls) {
      const cpud::kernel<fn> *want = expected(c);
      const cpud::resolved<fn> &got = op->resolve(c.types, c.arity);
      if (!want || !got || got.k->arity != want->arity ||
          !std::equal(want->types, want->types + want->arity, got.k->types)) {
        error = "op.resolve" + text(c) + " disagrees with cpud::resolve";
        return false;
      }
    }
    return true;
  }
  // One round-robin pass, as the timed loop makes it.
  int pass(int acc) {
    for (const call_sig &c : calls) acc = op->resolve(c.types, c.arity).fn()(acc, 1);
    resolutions += static_cast<long>(calls.size());
    return acc;
  }
};

template <std::size_t K>
std::unique_ptr<working_set> make_set(const cpud::kernel<fn> (&table)[K], cpud::casting limit, cpud::tie_rule tie,
                                      std::vector<call_sig> calls) {
  auto w = std::make_unique<working_set>();
  w->kernels = table;
  w->n_kernels = static_cast<int>(K);
  w->limit = limit;
  w->tie = tie;
  w->op = std::make_unique<cpud::op<fn>>("bench", table, limit, tie);
  w->calls = std::move(calls);
  for (const call_sig &c : w->calls) {
    const cpud::kernel<fn> *k = w->expected(c);
    w->direct.push_back(k ? k->get() : nullptr);
  }
  return w;
}

// add's 58 calls; an error instead where add does not accept 58 (then no
// "58" benchmark measures what its name says).
std::unique_ptr<working_set> make_add_set(int n) {
  const std::vector<call_sig> &all = add_calls();
  std::vector<call_sig> calls;
  // Spread over the 58, not its first N: those would all start with bool.
  for (int i = 0; i < n && !all.empty(); ++i) calls.push_back(all[static_cast<std::size_t>(i) * all.size() / n]);
  auto w = make_set(add_kernels, k_add_casting, k_add_ties, calls);
  if (static_cast<int>(all.size()) != k_add_calls)
    w->error = "add accepts " + std::to_string(all.size()) + " call signatures, not " + std::to_string(k_add_calls);
  return w;
}

// Kernels (t), (t, t), (t, t, t) and (t, t, t, t) for every built-in t,
// casting unsafe: an operator that accepts far more distinct calls than add
// (14 + 196 + 2,744 + 38,416); its first n (unary ones, then pairs, then
// triples, ... in typecode order). N = 200 and beyond: the curve past 64
// signatures, up to more than the cache's 4,096 slots hold.
constexpr int k_wide_calls = 200;
constexpr int k_wide_arities = 4;
std::unique_ptr<working_set> make_wide_set(int n) {
  static cpud::kernel<fn> table[k_wide_arities * cpud::k_builtin_dtypes];
  for (int t = 0; t < cpud::k_builtin_dtypes; ++t) {
    const dtype types[] = {static_cast<dtype>(t), static_cast<dtype>(t), static_cast<dtype>(t), static_cast<dtype>(t)};
    for (int a = 1; a <= k_wide_arities; ++a) table[(a - 1) * cpud::k_builtin_dtypes + t] = make_kernel(types, a);
  }
  const int nk = k_wide_arities * cpud::k_builtin_dtypes;
  const auto limit = cpud::casting::unsafe;
  const auto tie = cpud::tie_rule::most_specific;
  std::vector<call_sig> calls;
  for (int a = 1; a <= k_wide_arities && static_cast<int>(calls.size()) < n; ++a)
    for (const call_sig &c : accepted_calls(table, nk, limit, tie, a)) calls.push_back(c);
  const std::size_t accepted = calls.size();
  if (static_cast<int>(calls.size()) > n) calls.resize(static_cast<std::size_t>(n));
  auto w = make_set(table, limit, tie, calls);
  if (static_cast<int>(accepted) < n)
    w->error = "the wide operator accepts " + std::to_string(accepted) + " calls, not " + std::to_string(n);
  return w;
}

working_set &plain_set(int n) {
  static std::map<int, std::unique_ptr<working_set>> sets;
  std::unique_ptr<working_set> &w = sets[n];
  if (!w) {
    w = n >= k_wide_calls ? make_wide_set(n) : make_add_set(n);
    if (w->error.empty()) w->check();
  }
  return *w;
}

using clock_type = std::chrono::steady_clock;
double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// After 10,000 declarations, each followed by a pass over the 58: the
// operator re-resolves everything after every invalidation (580,000
// resolutions), as a program that declares rules while it runs (a plugin,
// lazily registered descriptors) makes it. The same rule is re-declared:
// each declaration invalidates all the same today, and the closure of a
// growing rule set would make the setup, not the cache, the cost.
constexpr int k_declarations = 10000;
working_set &declared_set() {
  static const std::unique_ptr<working_set> w = [] {
    auto w = make_add_set(k_add_calls);
    if (!w->error.empty()) return w;
    const auto t0 = clock_type::now();
    cpud::type_registry &reg = cpud::types();
    const dtype a = reg.intern(std::string("cpud-bench-typed rgb8"));
    const dtype b = reg.intern(std::string("cpud-bench-typed rgb16"));
    int acc = 0;
    for (int i = 0; i < k_declarations; ++i) {
      if (!reg.declare(a, b, cpud::conversion::promote)) {
        w->error = "types().declare failed";
        return w;
      }
      acc = w->pass(acc);
    }
    benchmark::DoNotOptimize(acc);
    w->setup_s = seconds_since(t0);
    w->check();  // a declaration between composites must not change a built-in call's kernel
    return w;
  }();
  return *w;
}

// After 240 registrations (add's 8 static kernels, 248 in all; an operator
// holds at most 256), each followed by a pass over the 58: 13,920
// re-resolutions. The added kernels take three arguments, so the 58 answers
// stay add's; the ranking now looks at 248 candidates.
constexpr int k_registrations = 240;
working_set &registered_set() {
  static const std::unique_ptr<working_set> w = [] {
    auto w = make_add_set(k_add_calls);
    if (!w->error.empty()) return w;
    const auto t0 = clock_type::now();
    int acc = 0;
    for (int i = 0; i < k_registrations; ++i) {
      dtype types[3];
      for (int a = 2, rest = i; a >= 0; --a, rest /= cpud::k_builtin_dtypes)
        types[a] = static_cast<dtype>(rest % cpud::k_builtin_dtypes);
      if (!w->op->add_kernel(make_kernel(types, 3))) {
        w->error = "add_kernel refused registration " + std::to_string(i);
        return w;
      }
      acc = w->pass(acc);
    }
    benchmark::DoNotOptimize(acc);
    w->setup_s = seconds_since(t0);
    w->check();
    return w;
  }();
  return *w;
}

// The timed loops: the index advances the same way in each, so the direct
// baseline has the same loop overhead as resolve + call.
void round_robin(benchmark::State &state, working_set &w) {
  if (!w.error.empty()) {
    state.SkipWithError(w.error.c_str());
    return;
  }
  const cpud::op<fn> &o = *w.op;
  const call_sig *calls = w.calls.data();
  const std::size_t n = w.calls.size();
  std::size_t i = 0;
  int acc = 0;
  for (auto _ : state) {
    acc = o.resolve(calls[i].types, calls[i].arity).fn()(acc, 1);
    benchmark::DoNotOptimize(acc);
    i = i + 1 == n ? 0 : i + 1;
  }
  state.counters["N"] = static_cast<double>(n);
}

void BM_direct_round_robin(benchmark::State &state) {
  working_set &w = plain_set(static_cast<int>(state.range(0)));
  if (!w.error.empty()) {
    state.SkipWithError(w.error.c_str());
    return;
  }
  const fn *direct = w.direct.data();
  const std::size_t n = w.direct.size();
  std::size_t i = 0;
  int acc = 0;
  for (auto _ : state) {
    acc = direct[i](acc, 1);
    benchmark::DoNotOptimize(acc);
    i = i + 1 == n ? 0 : i + 1;
  }
  state.counters["N"] = static_cast<double>(n);
}
BENCHMARK(BM_direct_round_robin)->Arg(1)->Arg(8)->Arg(k_add_calls)->Arg(k_wide_calls)->Arg(1000)->Arg(3000)->Arg(10000);

void BM_op_round_robin(benchmark::State &state) { round_robin(state, plain_set(static_cast<int>(state.range(0)))); }
BENCHMARK(BM_op_round_robin)->Arg(1)->Arg(8)->Arg(k_add_calls)->Arg(k_wide_calls)->Arg(1000)->Arg(3000)->Arg(10000);

void BM_rank_round_robin(benchmark::State &state) {
  working_set &w = plain_set(static_cast<int>(state.range(0)));
  if (!w.error.empty()) {
    state.SkipWithError(w.error.c_str());
    return;
  }
  std::vector<cpud::signature> sigs;
  for (int k = 0; k < w.n_kernels; ++k) sigs.push_back({w.kernels[k].types, w.kernels[k].arity});
  const call_sig *calls = w.calls.data();
  const std::size_t n = w.calls.size();
  std::size_t i = 0;
  int acc = 0;
  for (auto _ : state) {
    const cpud::resolution r =
        cpud::resolve(calls[i].types, calls[i].arity, sigs.data(), w.n_kernels, w.limit, w.tie, cpud::convert);
    acc = w.kernels[r.index].get()(acc, 1);
    benchmark::DoNotOptimize(acc);
    i = i + 1 == n ? 0 : i + 1;
  }
  state.counters["N"] = static_cast<double>(n);
}
BENCHMARK(BM_rank_round_robin)->Arg(k_add_calls)->Arg(k_wide_calls)->Arg(10000);

// The 58 round robin on a working set that re-resolved after each of
// `count` changes of one kind (a counter named for it).
void after_changes(benchmark::State &state, working_set &w, const char *what, int count) {
  round_robin(state, w);
  state.counters[what] = count;
  state.counters["setup_resolutions"] = static_cast<double>(w.resolutions);
  state.counters["setup_s"] = w.setup_s;
}
void BM_op_round_robin_after_declarations(benchmark::State &state) {
  after_changes(state, declared_set(), "declarations", k_declarations);
}
BENCHMARK(BM_op_round_robin_after_declarations);
void BM_op_round_robin_after_registrations(benchmark::State &state) {
  after_changes(state, registered_set(), "registrations", k_registrations);
}
BENCHMARK(BM_op_round_robin_after_registrations);

// The error text a failed call costs (it names every candidate and why it
// lost): a program that reports, or probes with, calls nothing accepts.
void explain_loop(benchmark::State &state, const cpud::op<fn> &o, const call_sig &c, const char *what) {
  if (o.resolve(c.types, c.arity)) {
    state.SkipWithError("the call resolves: nothing to explain");
    return;
  }
  std::size_t len = 0;
  for (auto _ : state) {
    std::string msg = c.arity == 2 ? o.explain({c.types[0], c.types[1]}) : o.explain({c.types[0]});
    len = msg.size();
    benchmark::DoNotOptimize(msg);
  }
  state.SetLabel(text(c) + " " + what);
  state.counters["chars"] = static_cast<double>(len);
}

void BM_explain_no_match(benchmark::State &state) {
  static const std::unique_ptr<working_set> w = make_set(add_kernels, k_add_casting, k_add_ties, {});
  explain_loop(state, *w->op, call_sig{{dtype::int64, dtype::complex64}, 2}, "on add");
}
BENCHMARK(BM_explain_no_match);

// The first pair add leaves tied under most_specific: (bool, bool) today,
// which int8 and uint8 take equally well (two safe conversions each), and
// neither is more specific than the other.
void BM_explain_ambiguous(benchmark::State &state) {
  static const std::vector<call_sig> tied = [] {
    std::vector<call_sig> amb;
    accepted_calls(add_kernels, k_add_kernels, k_add_casting, k_add_ties, 2, &amb);
    return amb;
  }();
  static const std::unique_ptr<working_set> add = make_set(add_kernels, k_add_casting, k_add_ties, {});
  if (tied.empty()) {
    state.SkipWithError("no call of add ties");
    return;
  }
  explain_loop(state, *add->op, tied.front(), "on add");
}
BENCHMARK(BM_explain_ambiguous);

}  // namespace

BENCHMARK_MAIN();
