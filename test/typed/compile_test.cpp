// Compile on a miss (Numba's dispatcher: _dispatcher.cpp's Dispatcher_call
// compiles through _compile_for_args when no overload matches exactly
// while compiling is allowed), following Numba's own tests
// (numba/tests/test_dispatcher.py):
// - test_ambiguous_new_version: calls with (int, float), (float, int),
//   (float, float), then (int, int) make 1, 2, 3, 4 overloads, each an
//   exact specialisation: here compile_on::inexact, kernels instantiated
//   from one template on demand;
// - Dispatcher.compile returns the overload it has for a signature it has:
//   a repeated call asks the hook nothing, and a hook that registers a
//   signature twice gets false the second time;
// - test_explicit_signatures / disable_compile: without the hook (or with
//   compile_on::miss) a call converts to the kernels there are;
// and what is ours: a declined miss is cached (asked again after the next
// registration), a hook that resolves on its own operator gets the plain
// ranking (no deadlock), the result is cached like any other (a counting
// conversion function sees no second ranking), and threads missing on the
// same types at once run the hook once and all get its kernel (suite race:
// ThreadSanitizer).
#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "cpudispatch/operator.hpp"
#include "expect.h"
#include "typed_doc_compile.h"  // docs/typed.md's example, as written

using cpud::dtype;

namespace {

std::atomic<int> hook_calls{0};
std::atomic<long> rankings{0};
cpud::conversion counting(dtype from, dtype to) {
  rankings.fetch_add(1, std::memory_order_relaxed);
  return cpud::convert(from, to);
}

// Counts, then compiles as the docs' hook does.
bool counted(cpud::op<loop> &self, const dtype *types, std::size_t n, void *ctx) {
  ++hook_calls;
  return compile_add(self, types, n, ctx);
}
int kernels_of(const cpud::op<loop> &o) {
  int n = 0;
  o.for_each_kernel([&](const cpud::kernel<loop> &) { ++n; });
  return n;
}

void docs_example() {
  use();
  const cpud::resolved<loop> &r = add.resolve({dtype::int32, dtype::float32});
  EXPECT(r && r.conv[0] == cpud::conversion::exact && r.conv[1] == cpud::conversion::exact && kernels_of(add) == 1,
         "the docs' call compiled one exact kernel (%d kernels)", kernels_of(add));
  const int x[2] = {1, 2};
  const float y[2] = {0.5f, 1.5f};
  int out[2] = {};
  add.call({dtype::int32, dtype::float32}, x, y, out, 2);
  EXPECT(out[0] == 1 && out[1] == 3, "add_as<int, float>: %d %d", out[0], out[1]);
}

void ambiguous_new_version() {
  cpud::op<loop> o{"foo", cpud::casting::unsafe, cpud::tie_rule::error, counting};
  o.set_compile_hook(&counted, nullptr, cpud::compile_on::inexact);
  hook_calls = 0;
  const dtype seq[4][2] = {{dtype::int32, dtype::float32},
                           {dtype::float32, dtype::int32},
                           {dtype::float32, dtype::float32},
                           {dtype::int32, dtype::int32}};
  for (int i = 0; i < 4; ++i) {
    const cpud::resolved<loop> &r = o.resolve(seq[i], 2);
    EXPECT(r && r.conv[0] == cpud::conversion::exact && r.conv[1] == cpud::conversion::exact,
           "call %d resolves to an exact kernel", i + 1);
    EXPECT(kernels_of(o) == i + 1, "after call %d: %d kernels, Numba's test wants %d", i + 1, kernels_of(o), i + 1);
  }
  EXPECT(hook_calls == 4, "the hook ran %d times for 4 new signatures", hook_calls.load());
  // The last call's result was cached as it was made: no ranking again.
  long before = rankings.load();
  (void)o.resolve(seq[3], 2);
  EXPECT(rankings.load() == before, "the compiled call's result is cached: %ld conversions ranked",
         rankings.load() - before);
  // Each registration made the older entries stale: one pass ranks them
  // once more (no hook: they are exact now), then every call is a lookup.
  for (int i = 0; i < 4; ++i) (void)o.resolve(seq[i], 2);
  before = rankings.load();
  for (int rep = 0; rep < 10; ++rep)
    for (int i = 0; i < 4; ++i) (void)o.resolve(seq[i], 2);
  EXPECT(rankings.load() == before && hook_calls == 4, "repeated calls ranked %ld times, hook %d calls",
         rankings.load() - before, hook_calls.load());
  // Dispatcher.compile returns what it has: a second registration of a
  // signature is refused.
  EXPECT(!o.add_kernel(cpud::kernel_fn<&add_as<int, int>>("again", {dtype::int32, dtype::int32})),
         "a signature the operator has is not registered again");
  std::printf("ambiguous_new_version: 4 calls, 4 exact kernels, each compiled once; repeats are lookups\n");
}

void explicit_signatures() {
  // A precompiled kernel and the hook on a miss only: a call that converts
  // safely uses the kernel there is (Numba's explicit signatures).
  constexpr cpud::kernel<loop> f64[] = {
      cpud::kernel_fn<&add_as<double, double>>("add_f64", {dtype::float64, dtype::float64})};
  cpud::op<loop> o{"f", f64};
  o.set_compile_hook(&counted, nullptr, cpud::compile_on::miss);
  hook_calls = 0;
  const cpud::resolved<loop> &conv = o.resolve({dtype::float32, dtype::int32});
  EXPECT(conv && std::strcmp(conv.k->name, "add_f64") == 0 && hook_calls == 0,
         "(float32, int32) converts to add_f64, no compile (hook %d)", hook_calls.load());
  // (complex64, complex64) converts to nothing: a miss, which the hook
  // declines (it compiles int32, float32, float64 only): cached.
  const cpud::resolved<loop> &miss = o.resolve({dtype::complex64, dtype::complex64});
  EXPECT(!miss && hook_calls == 1, "a miss the hook declines: no kernel, hook %d", hook_calls.load());
  for (int i = 0; i < 5; ++i) (void)o.resolve({dtype::complex64, dtype::complex64});
  EXPECT(hook_calls == 1, "the declined miss is cached: hook %d", hook_calls.load());
  // After a registration every result is made again, so the hook is asked again.
  EXPECT(o.add_kernel(cpud::kernel_fn<&add_as<int, int>>("add_i32", {dtype::int32, dtype::int32})), "add_i32");
  (void)o.resolve({dtype::complex64, dtype::complex64});
  EXPECT(hook_calls == 2, "asked again after a registration: hook %d", hook_calls.load());
  // disable_compile: no hook; an inexact call converts.
  o.set_compile_hook(nullptr);
  const cpud::resolved<loop> &off = o.resolve({dtype::int8, dtype::int8});
  EXPECT(off && std::strcmp(off.k->name, "add_i32") == 0 && hook_calls == 2,
         "without the hook (int8, int8) promotes to add_i32");
  std::printf("explicit signatures: conversions without compiling, a declined miss asked once per generation\n");
}

// A hook that resolves on its own operator: the inner resolution is the
// plain ranking (no hook, no deadlock).
bool reentrant(cpud::op<loop> &self, const dtype *types, std::size_t n, void *ctx) {
  const cpud::resolved<loop> &inner = self.resolve(types, n);
  *static_cast<bool *>(ctx) = !inner;
  return compile_add(self, types, n, nullptr);
}
void hook_resolves_itself() {
  cpud::op<loop> o{"re", cpud::casting::exact};
  bool inner_missed = false;
  o.set_compile_hook(&reentrant, &inner_missed, cpud::compile_on::miss);
  const cpud::resolved<loop> &r = o.resolve({dtype::float64, dtype::int32});
  EXPECT(r && inner_missed, "the hook's own resolution saw the plain miss, the call its kernel");
  std::printf("a hook resolving on its own operator: the plain ranking there, then its kernel\n");
}

// Threads missing on the same new types at once: the hook runs once, every
// call gets the compiled kernel.
void racing_misses() {
  for (int round = 0; round < 20; ++round) {
    cpud::op<loop> o{"race", cpud::casting::exact};
    o.set_compile_hook(&counted, nullptr, cpud::compile_on::miss);
    hook_calls = 0;
    std::atomic<int> ready{0}, wrong{0};
    std::vector<std::thread> ts;
    for (int t = 0; t < 4; ++t)
      ts.emplace_back([&] {
        ++ready;
        while (ready.load() < 4) {
        }
        for (int i = 0; i < 200; ++i) {
          const cpud::resolved<loop> &r = o.resolve({dtype::float32, dtype::float64});
          wrong += !r;
        }
      });
    for (std::thread &t : ts) t.join();
    EXPECT(hook_calls == 1 && wrong == 0 && kernels_of(o) == 1, "round %d: hook %d calls, %d misses, %d kernels",
           round, hook_calls.load(), wrong.load(), kernels_of(o));
  }
  std::printf("racing misses: 20 rounds of 4 threads, the hook once per round, no call without its kernel\n");
}

}  // namespace

int main() {
  docs_example();
  ambiguous_new_version();
  explicit_signatures();
  hook_resolves_itself();
  racing_misses();
  if (failures) std::printf("%d failures\n", failures);
  return failures ? 1 : 0;
}
