// An operator's fallback kernel (PyTorch's backend fallback), following
// PyTorch's own tests (aten/src/ATen/core/op_registration/op_registration_test.cpp,
// OperatorRegistrationTest.whenRegisteringBackendFallbackKernel...):
// - ..._thenCanBeCalled: types no kernel takes run the fallback, which is
//   told the operator and the types;
// - ...AndRegularKernelForSameBackend_thenCallsRegularKernel: types a
//   kernel takes run the kernel, not the fallback; one registered later for
//   types the fallback served wins from then on;
// - Dispatcher::registerFallback refuses a second fallback for a key: so
//   does set_fallback;
// and what is ours: a tie stays an error; call() without kernel and
// fallback prints explain()'s line and aborts (--abort, run by meson with
// its message checked); the C entry point (cpud_resolve_or_fallback) sends
// the same calls to the fallback as the C++ operator, for every pair of
// built-in types; introspection names the fallback; readers racing
// set_fallback and registrations see a kernel, the fallback or (before it
// was set) no match, nothing else (suite race: ThreadSanitizer).
#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "add_kernels.h"
#include "chain.dispatch.h"  // boxed_which: a fallback with ISA builds
#include "cpudispatch/dtype.h"
#include "cpudispatch/operator.hpp"
#include "expect.h"
namespace doc {  // docs/typed.md's example, as written (its headers are in already)
#include "typed_doc_fallback.h"
}  // namespace doc

using cpud::dtype;
using doc::add_arrays;
using doc::loop;
CPUD_DISPATCH(void, boxed_which, (const cpud::call_types &, const void *, const void *, void *, std::size_t));

namespace {

// A boxed fallback of the operators below: records what it was told.
struct seen_call {
  std::string op;
  std::vector<dtype> types;
  int calls = 0;
};
thread_local seen_call seen;
void record(const cpud::call_types &c, const void *, const void *, void *out, std::size_t) {
  seen.op = c.op;
  seen.types.assign(c.types, c.types + c.n);
  ++seen.calls;
  if (out) *static_cast<const char **>(out) = "fallback";
}
constexpr cpud::kernel<binary> f32_only[] = {
    CPUD_KERNEL(add_f32, dtype::float32, dtype::float32),
};

void docs_example() {
  const float fa[3] = {1.5f, 2, 3}, fb[3] = {1, 1, 1};
  float fo[3] = {};
  add_arrays(dtype::float32, fa, dtype::float32, fb, fo, 3);
  EXPECT(fo[0] == 2.5f && fo[2] == 4, "float32 + float32: %g %g", fo[0], fo[2]);
  const cpud::resolved<loop> &exact = doc::add.resolve({dtype::float32, dtype::float32});
  EXPECT(exact && std::strcmp(exact.k->name, "add_f32") == 0, "(float32, float32) resolves to add_f32");
  const std::int16_t ia[3] = {-7, 300, 12};
  const double db[3] = {0.5, 1, -12};
  std::int16_t io[3] = {};
  add_arrays(dtype::int16, ia, dtype::float64, db, io, 3);
  EXPECT(io[0] == -6 && io[1] == 301 && io[2] == 0, "int16 + float64 by the fallback: %d %d %d", io[0], io[1], io[2]);
  const cpud::resolved<loop> &r = doc::add.resolve({dtype::int16, dtype::float64});
  EXPECT(!r && r.fallback && std::strcmp(r.fallback->name, "add_any") == 0 && r.kind == cpud::resolution::no_match,
         "(int16, float64) resolves to the fallback add_any");
  std::printf("docs example: float32 pairs run add_f32, (int16, float64) runs add_any: -7 + 0.5 -> %d\n", io[0]);
}

void fallback_can_be_called() {
  cpud::op<binary> o{"mul", f32_only};
  const char *ran = nullptr;
  EXPECT(!o.fallback(), "no fallback at first");
  EXPECT(!o.resolve({dtype::int64, dtype::int64}), "(int64, int64) matches nothing");
  EXPECT(o.set_fallback(cpud::fallback_fn<&record>("record")), "set_fallback");
  seen = {};
  o.call({dtype::int64, dtype::complex64}, nullptr, nullptr, &ran, 0);
  EXPECT(ran && std::strcmp(ran, "fallback") == 0 && seen.calls == 1, "the fallback ran (%s)", ran ? ran : "nothing");
  EXPECT(seen.op == "mul" && seen.types == std::vector<dtype>({dtype::int64, dtype::complex64}),
         "the fallback was told the operator and the types: %s, %zu types", seen.op.c_str(), seen.types.size());
  // A cached miss from before set_fallback is not served any more.
  const cpud::resolved<binary> &r = o.resolve({dtype::int64, dtype::int64});
  EXPECT(!r && r.fallback, "the miss cached before set_fallback now resolves to the fallback");
  // More arguments than any kernel takes: the fallback too, told all five.
  const dtype five[] = {dtype::int8, dtype::int8, dtype::int8, dtype::int8, dtype::int8};
  seen = {};
  o.call(five, 5, nullptr, nullptr, &ran, 0);
  EXPECT(seen.calls == 1 && seen.types.size() == 5, "five arguments: the fallback, told %zu types", seen.types.size());
  // Registry: PyTorch refuses a second fallback for a key; so do we.
  EXPECT(!o.set_fallback(cpud::fallback_fn<&record>("another")), "a second fallback is refused");
  EXPECT(std::strcmp(o.fallback()->name, "record") == 0, "and the first stays");
  std::printf("fallback can be called: (int64, complex64) and five int8 ran the fallback, told the types\n");
}

void regular_kernel_wins() {
  cpud::op<binary> o{"mul", f32_only, cpud::fallback_fn<&record>("record")};
  const char *ran = nullptr;
  seen = {};
  const float x[1] = {2}, y[1] = {3};
  float out[1] = {};
  o.call({dtype::float32, dtype::float32}, x, y, out, 1);
  EXPECT(seen.calls == 0 && out[0] == 5, "(float32, float32) ran add_f32 (%g), not the fallback", out[0]);
  // Conversions within the casting limit still reach a kernel: int8 ->
  // float32 is safe.
  const cpud::resolved<binary> &conv = o.resolve({dtype::int8, dtype::float32});
  EXPECT(conv && std::strcmp(conv.k->name, "add_f32") == 0, "(int8, float32) converts to add_f32");
  // A kernel registered later for types the fallback served wins.
  o.call({dtype::float64, dtype::float64}, nullptr, nullptr, &ran, 0);
  EXPECT(seen.calls == 1, "(float64, float64) ran the fallback first");
  EXPECT(o.add_kernel(CPUD_KERNEL(add_f64, dtype::float64, dtype::float64)), "add_f64 registered");
  const cpud::resolved<binary> &now = o.resolve({dtype::float64, dtype::float64});
  EXPECT(now && std::strcmp(now.k->name, "add_f64") == 0 && !now.fallback, "then add_f64: %s",
         now ? now.k->name : "the fallback");
  std::printf("a kernel wins over the fallback, also one registered after the fallback served its types\n");
}

void a_tie_stays_an_error() {
  constexpr cpud::kernel<binary> mixed[] = {
      CPUD_KERNEL(add_f32, dtype::float32, dtype::float64),
      CPUD_KERNEL(add_f64, dtype::float64, dtype::float32),
  };
  cpud::op<binary> o{"mix", mixed, cpud::fallback_fn<&record>("record"), cpud::casting::unsafe};
  const cpud::resolved<binary> &r = o.resolve({dtype::float64, dtype::float64});
  EXPECT(!r && !r.fallback && r.kind == cpud::resolution::ambiguous, "a tie resolves to no kernel and no fallback");
  std::printf("a tie stays an error: %s\n", o.explain({dtype::float64, dtype::float64}).c_str());
}

// The C entry point and the C++ operator send the same calls to the
// fallback, over every pair of built-in types.
void c_agrees() {
  constexpr cpud::kernel<binary> two[] = {
      CPUD_KERNEL(add_f32, dtype::float32, dtype::float32),
      CPUD_KERNEL(add_i64, dtype::int64, dtype::int64),
  };
  cpud::op<binary> o{"add", two, cpud::fallback_fn<&record>("record"), cpud::casting::safe, cpud::tie_rule::first};
  const std::uint16_t cands[] = {CPUD_DTYPE_FLOAT32, CPUD_DTYPE_FLOAT32, CPUD_DTYPE_INT64, CPUD_DTYPE_INT64};
  int pairs = 0, to_fallback = 0, differ = 0;
  for (int a = 0; a < CPUD_DTYPE_COUNT; ++a)
    for (int b = 0; b < CPUD_DTYPE_COUNT; ++b) {
      const std::uint16_t args[] = {static_cast<std::uint16_t>(a), static_cast<std::uint16_t>(b)};
      const int c = cpud_resolve_or_fallback(args, 2, cands, 2, CPUD_CONV_SAFE, CPUD_TIE_FIRST, nullptr, 2);
      const cpud::resolved<binary> &r = o.resolve({static_cast<dtype>(a), static_cast<dtype>(b)});
      const int cxx = r ? (std::strcmp(r.k->name, "add_f32") == 0 ? 0 : 1) : r.fallback ? 2 : -1;
      differ += c != cxx;
      to_fallback += c == 2;
      ++pairs;
    }
  EXPECT(differ == 0 && to_fallback > 0, "C and C++ differ on %d of %d pairs", differ, pairs);
  const std::uint16_t one[] = {CPUD_DTYPE_INT8};
  EXPECT(cpud_resolve_or_fallback(one, 1, cands, 2, CPUD_CONV_SAFE, CPUD_TIE_FIRST, nullptr, -1) == -3,
         "a negative fallback is bad input");
  std::printf("C and C++ agree on %d pairs; %d reach the fallback\n", pairs, to_fallback);
}

// A CPUD_DISPATCH fallback (CPUD_FALLBACK) runs its best build, and a
// thread's guard moves it as any dispatched function.
void dispatched_fallback() {
  cpud::op<binary> o{"which", f32_only, CPUD_FALLBACK(boxed_which)};
  const char *ran = nullptr;
  o.call({dtype::int8, dtype::uint64}, nullptr, nullptr, &ran, 0);
  EXPECT(ran && std::strcmp(ran, boxed_which.selected_name()) == 0, "the fallback ran %s, its best build is %s",
         ran ? ran : "nothing", boxed_which.selected_name());
  EXPECT(std::strcmp(o.fallback()->name, "boxed_which") == 0 &&
             std::strcmp(o.fallback()->target_name(), boxed_which.selected_name()) == 0,
         "the fallback's name and selected build");
  {
    cpud::only_features baseline_only({});
    o.call({dtype::int8, dtype::uint64}, nullptr, nullptr, &ran, 0);
    EXPECT(ran && std::strcmp(ran, "baseline") == 0, "under only_features({}) the fallback ran %s", ran ? ran : "nothing");
  }
  std::printf("a dispatched fallback ran its build %s, and the baseline build under a guard\n",
              boxed_which.selected_name());
}

struct listed {
  const char *fallback = nullptr;
  bool entry = false;
};
void introspection() {
  cpud::op<binary> o{"listed", f32_only, cpud::fallback_fn<&record>("record")};
  (void)o.resolve({dtype::complex64, dtype::complex64});
  listed l;
  cpud_for_each_operator(
      [](const cpud_operator *op, void *ctx) {
        listed &x = *static_cast<listed *>(ctx);
        if (std::strcmp(op->name, "listed") != 0) return;
        x.fallback = op->fallback(op->self);
        for (int s = 0; s < op->cache_slots; ++s) {
          char args[64], conv[64];
          const char *k = nullptr;
          if (op->cache_entry(op->self, s, args, sizeof args, conv, sizeof conv, &k) &&
              std::strcmp(conv, "fallback") == 0 && k && std::strcmp(k, "record") == 0)
            x.entry = true;
        }
      },
      &l);
  EXPECT(l.fallback && std::strcmp(l.fallback, "record") == 0, "the record names the fallback");
  EXPECT(l.entry, "a cache entry the fallback serves reads 'fallback', kernel 'record'");
}

// Readers race set_fallback and registrations: each call sees a kernel,
// the fallback, or (before set_fallback) no match.
void race() {
  cpud::op<binary> o{"race", f32_only};
  std::atomic<bool> go{false}, stop{false};
  std::atomic<long> wrong{0}, calls{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 3; ++t)
    readers.emplace_back([&, t] {
      while (!go.load()) {
      }
      const dtype types[3][2] = {{dtype::int32, dtype::int32}, {dtype::float64, dtype::float64}, {dtype::float32, dtype::float32}};
      while (!stop.load()) {
        const cpud::resolved<binary> &r = o.resolve(types[t], 2);
        // (int32, int32) converts safely to add_f64 between the two
        // registrations, then takes add_i32.
        static const char *const want[3] = {"add_i32", "add_f64", "add_f32"};
        const bool ok = r ? std::strcmp(r.k->name, want[t]) == 0 || (t == 0 && std::strcmp(r.k->name, "add_f64") == 0)
                          : r.kind == cpud::resolution::no_match;
        wrong += !ok;
        ++calls;
      }
    });
  go = true;
  while (calls.load() < 1000) {
  }
  EXPECT(o.set_fallback(cpud::fallback_fn<&record>("record")), "set_fallback while readers run");
  EXPECT(o.add_kernel(CPUD_KERNEL(add_f64, dtype::float64, dtype::float64)), "add_f64 while readers run");
  EXPECT(o.add_kernel(CPUD_KERNEL(add_i32, dtype::int32, dtype::int32)), "add_i32 while readers run");
  const long at = calls.load();
  while (calls.load() < at + 3000) {
  }
  stop = true;
  for (std::thread &t : readers) t.join();
  EXPECT(wrong == 0, "%ld of %ld racing resolutions saw something else", wrong.load(), calls.load());
  EXPECT(o.resolve({dtype::int32, dtype::int32}) && o.resolve({dtype::complex64, dtype::int8}).fallback,
         "after the race: the kernels and the fallback");
  std::printf("race: %ld resolutions racing set_fallback and two registrations\n", calls.load());
}

}  // namespace

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "--abort") == 0) {
    // No kernel and no fallback: one line, then abort (meson checks both).
    cpud::op<binary> o{"add", f32_only};
    o.call({dtype::int64, dtype::complex64}, nullptr, nullptr, nullptr, 0);
    return 0;
  }
  docs_example();
  fallback_can_be_called();
  regular_kernel_wins();
  a_tie_stays_an_error();
  dispatched_fallback();
  c_agrees();
  introspection();
  race();
  if (failures) std::printf("%d failures\n", failures);
  return failures ? 1 : 0;
}
