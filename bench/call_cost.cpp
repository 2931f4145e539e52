// Call cost of the same trivial, non-inlined kernel (another TU) through each
// mechanism a user could pick; bench/report.py prints each as a ratio to the
// direct call. All variants live in this one binary, run in one process.
#include <benchmark/benchmark.h>

#include <atomic>
#include <thread>

#include "trivial.dispatch.h"
#include "cpudispatch/dispatch.hpp"

CPUD_DISPATCH(int, cpud_bench_add, (int, int));
CPUD_DISPATCH(int, cpud_bench_hop, (int, int));

// The two shapes CPUD_DISPATCH's call can take (dispatch.hpp,
// CPUD_DISPATCH_CALL_STUB), side by side whatever this compiler's default:
// BM_cpudispatch_inline_variant loads the cached pointer inline and calls
// through it (`mov slot(%rip),%rax; call *%rax`); BM_cpudispatch_stub_variant
// calls a per-function stub that jumps through it (the PLT's shape).
template <class Tag, class Sig, bool Stub>
class variant_dispatcher;
template <class Tag, class R, class... A, bool Stub>
class __attribute__((visibility("hidden"))) variant_dispatcher<Tag, R(A...), Stub> {
 public:
  using fn_type = R (*)(A...);
  R operator()(A... a) const { return Stub ? stub(a...) : slot_.load(std::memory_order_relaxed)(a...); }

 private:
  CPUD_CALL_STUB static R stub(A... a) { return slot_.load(std::memory_order_relaxed)(a...); }
  static R first_call(A... a) {
    fn_type f = Tag::select();
    slot_.store(f, std::memory_order_relaxed);
    return f(a...);
  }
  static inline std::atomic<fn_type> slot_{&first_call};
};
struct __attribute__((visibility("hidden"))) cpud_bench_add_inline_tag {
  static int (*select())(int, int) { return cpud_bench_add.get(); }
};
inline constexpr variant_dispatcher<cpud_bench_add_inline_tag, int(int, int), false> cpud_bench_add_inline{};
struct __attribute__((visibility("hidden"))) cpud_bench_add_stub_tag {
  static int (*select())(int, int) { return cpud_bench_add.get(); }
};
inline constexpr variant_dispatcher<cpud_bench_add_stub_tag, int(int, int), true> cpud_bench_add_stub{};


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
// A dispatched call whose build hands it on once to the build below
// (CPUD_BELOW: a cached pointer); against BM_cpudispatch_hop_none, the same
// function without the hand-on, the difference is the redispatch.
CALL_LOOP(BM_cpudispatch_hop_none, cpud_bench_hop(acc, 0));
CALL_LOOP(BM_cpudispatch_redispatch_once, cpud_bench_hop(acc, 1));
// NumPy / OpenCV style: every call walks the chain of feature checks.
CALL_LOOP(BM_check_chain_per_call, CPUD_DISPATCH_CALL(cpud_bench_add, (acc, 1)));
#if !defined(NO_CLONES)
CALL_LOOP(BM_gcc_target_clones_ifunc, bench_add_clones(acc, 1));
#endif
CALL_LOOP(BM_cpudispatch_inline_variant, cpud_bench_add_inline(acc, 1));
CALL_LOOP(BM_cpudispatch_stub_variant, cpud_bench_add_stub(acc, 1));

#if defined(CPUD_BENCH_SEQ) && defined(__x86_64__)
// The same trivial kernel (bench_add_direct) called through a pointer in
// memory by three exact machine sequences (bench/call_sequences.cpp holds the
// slot and the stub). Each asm is one call under the SysV ABI: acc in edi, 1
// in esi, the result in eax; everything caller-saved is clobbered. This file
// is compiled with -mno-red-zone (bench/meson.build), so the call's return
// address cannot overwrite locals below rsp; rsp must be 16-byte aligned at
// the call, which is checked once per run (the loop body does not move rsp).
#if defined(__AVX512F__)
#define SEQ_CLOBBERS_AVX512                                                                    \
  , "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24", "xmm25", \
      "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31", "k1", "k2", "k3", "k4", "k5", "k6", "k7"
#else
#define SEQ_CLOBBERS_AVX512
#endif
#define SEQ_CLOBBERS                                                                                  \
  "rcx", "rdx", "r8", "r9", "r10", "r11", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", \
      "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "memory", "cc" SEQ_CLOBBERS_AVX512

#define SEQ_LOOP(NAME, SEQ)                                                           \
  void NAME(benchmark::State &state) {                                                \
    unsigned long sp;                                                                 \
    __asm__ volatile("mov %%rsp, %0" : "=r"(sp));                                     \
    if (sp % 16 != 0) state.SkipWithError("rsp is not 16-byte aligned in the loop");  \
    int acc = 0;                                                                      \
    for (auto _ : state) {                                                            \
      int a = acc, b = 1;                                                             \
      __asm__ volatile(SEQ : "=&a"(acc), "+D"(a), "+S"(b) : : SEQ_CLOBBERS);          \
      benchmark::DoNotOptimize(acc);                                                  \
    }                                                                                 \
  }                                                                                   \
  BENCHMARK(NAME)

SEQ_LOOP(BM_seq_load_then_call_reg, "mov cpud_bench_seq_slot(%%rip), %%rax\n\tcall *%%rax");
SEQ_LOOP(BM_seq_call_mem_indirect, "call *cpud_bench_seq_slot(%%rip)");
SEQ_LOOP(BM_seq_direct_call_to_jmp_stub, "call cpud_bench_seq_jmp_stub");
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
