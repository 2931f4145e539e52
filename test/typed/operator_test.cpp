// Operators (cpudispatch/operator.hpp) over ISA-dispatched kernels: the
// kernel and conversions a call's types choose, the cache, a kernel added at
// run time winning over a cached conversion, the errors, the ISA target each
// kernel runs, every compiled target of every kernel against the baseline,
// and readers never blocked by registration (run under ThreadSanitizer).
#include "cpudispatch/testing.h"
#include <atomic>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "add_kernels.h"
#include "cpudispatch/operator.hpp"
#include "expect.h"

using cpud::conversion;
using cpud::dtype;

namespace {

constexpr cpud::kernel<binary> add_kernels[] = {
    CPUD_KERNEL(add_i64, dtype::int64, dtype::int64),
    CPUD_KERNEL(add_f32, dtype::float32, dtype::float32),
    CPUD_KERNEL(add_f64, dtype::float64, dtype::float64),
    CPUD_KERNEL(add_c64, dtype::complex64, dtype::complex64),
};

void choice_conversions_and_result() {
  cpud::op<binary> add{"add", add_kernels};
  // (int32, float64): int64 needs float64 -> int64 (unsafe, over the limit);
  // float64 needs int32 -> float64 (safe) and nothing for the second.
  const cpud::resolved<binary> &r = add.resolve({dtype::int32, dtype::float64});
  EXPECT(r && std::strcmp(r.k->name, "add_f64") == 0, "(int32, float64) should pick add_f64, got %s",
         r ? r.k->name : "nothing");
  EXPECT(r.conv[0] == conversion::safe && r.conv[1] == conversion::exact, "conversions %s, %s",
         cpud::conversion_name(r.conv[0]), cpud::conversion_name(r.conv[1]));
  const double x[3] = {1.5, 2, 3}, y[3] = {10, 20, 30.25};
  double out[3] = {};
  r.fn()(x, y, out, 3);
  EXPECT(out[0] == 11.5 && out[2] == 33.25, "add_f64 computed %g %g", out[0], out[2]);
  EXPECT(std::strcmp(r.target(), add_f64.selected_name()) == 0, "the kernel runs %s, its dispatcher selects %s",
         r.target(), add_f64.selected_name());
  // Cached: the same types give the same result object, without ranking.
  const cpud::resolved<binary> &again = add.resolve({dtype::int32, dtype::float64});
  EXPECT(&again == &r, "a repeated signature should come from the cache");
  // Numba's example through the operator: (float32, float32) -> add_f32
  // exactly; (bool, float32) -> add_f32 (bool -> float32 safe).
  EXPECT(std::strcmp(add.resolve({dtype::float32, dtype::float32}).k->name, "add_f32") == 0, "f32");
  EXPECT(std::strcmp(add.resolve({dtype::bool_, dtype::float32}).k->name, "add_f32") == 0, "bool, f32");
}

void errors() {
  cpud::op<binary> add{"add", add_kernels};
  const cpud::resolved<binary> &r = add.resolve({dtype::int64, dtype::complex64});
  // int64 -> complex64 is unsafe, int64 -> complex128 does not exist here.
  EXPECT(!r && r.kind == cpud::resolution::no_match, "(int64, complex64) should not resolve");
  const std::string msg = add.explain({dtype::int64, dtype::complex64});
  const std::string want =
      "no kernel of 'add' accepts (int64, complex64) with casting=safe: (int64, int64): complex64->int64 has no "
      "conversion; (float32, float32): int64->float32 is unsafe; (float64, float64): complex64->float64 has no "
      "conversion; (complex64, complex64): int64->complex64 is unsafe";
  EXPECT(msg == want, "message:\n  %s\nexpected:\n  %s", msg.c_str(), want.c_str());
  cpud::op<binary> lossy{"lossy", add_kernels, cpud::casting::unsafe};
  EXPECT(std::strcmp(lossy.resolve({dtype::int64, dtype::complex64}).k->name, "add_c64") == 0,
         "casting=unsafe: (int64, complex64) -> add_c64");
}

void added_kernel_wins_over_cached_conversion() {
  cpud::op<binary> add{"add", add_kernels};
  const cpud::resolved<binary> &before = add.resolve({dtype::int32, dtype::int32});
  EXPECT(before && std::strcmp(before.k->name, "add_i64") == 0 && before.conv[0] == conversion::promote,
         "(int32, int32) before: add_i64 by promotion");
  add.add_kernel(CPUD_KERNEL(add_i32, dtype::int32, dtype::int32));
  const cpud::resolved<binary> &after = add.resolve({dtype::int32, dtype::int32});
  EXPECT(after && std::strcmp(after.k->name, "add_i32") == 0 && after.conv[0] == conversion::exact,
         "(int32, int32) after registration: add_i32 exactly, got %s", after ? after.k->name : "nothing");
  int n = 0;
  add.for_each_kernel([&](const cpud::kernel<binary> &) { ++n; });
  EXPECT(n == 5, "5 kernels after one registration, got %d", n);
}

// The baseline only: every kernel runs its baseline build.
void isa_target_follows_the_masks() {
  cpud::op<binary> add{"add", add_kernels};
  const cpud::resolved<binary> &r = add.resolve({dtype::float32, dtype::float32});
  {
    cpud::scoped_features only_baseline(cpud::feature_set{});
    EXPECT(std::strcmp(r.target(), "baseline") == 0, "under a baseline-only mask: %s", r.target());
  }
  EXPECT(std::strcmp(r.target(), add_f32.selected_name()) == 0, "mask restored: %s", r.target());
}

// Every compiled target of every kernel this CPU can run gives the
// baseline's result.
template <class T>
bool same_as_baseline(const cpud::kernel<binary> &k, const cpud::target_entry<binary> &e) {
  T a[37], b[37], want[37], got[37];
  for (int i = 0; i < 37; ++i) {
    a[i] = static_cast<T>(i * 3 + 1);
    b[i] = static_cast<T>(100 - i);
  }
  const cpud::target_entry<binary> *t = k.targets();
  while (t->fn && t->feature != 0) ++t;
  if (!t->fn) return false;
  t->fn(a, b, want, 37);
  e.fn(a, b, got, 37);
  return std::memcmp(want, got, sizeof want) == 0;
}

void every_kernel_every_target() {
  cpud::op<binary> add{"add", add_kernels};
  add.add_kernel(CPUD_KERNEL(add_i32, dtype::int32, dtype::int32));
  int runs = 0;
  add.for_each_kernel([&](const cpud::kernel<binary> &k) {
    for (const cpud::target_entry<binary> *e = k.targets(); e->fn; ++e) {
      if (!cpud::usable(*e)) continue;
      bool ok = k.types[0] == dtype::int32     ? same_as_baseline<std::int32_t>(k, *e)
                : k.types[0] == dtype::int64   ? same_as_baseline<std::int64_t>(k, *e)
                : k.types[0] == dtype::float32 ? same_as_baseline<float>(k, *e)
                : k.types[0] == dtype::float64 ? same_as_baseline<double>(k, *e)
                                               : same_as_baseline<std::complex<float>>(k, *e);
      EXPECT(ok, "%s %s differs from its baseline build", k.name, e->name);
      ++runs;
    }
  });
  std::printf("%d kernel builds checked against their baseline\n", runs);
  EXPECT(runs >= 5, "every kernel has at least its baseline build");
}

// Kernel i of a family of distinct (a, b, c) signatures no test call has.
cpud::kernel<binary> three_args(int i) {
  cpud::kernel<binary> k = CPUD_KERNEL(add_i32, dtype::int32, dtype::int32, dtype::int32);
  for (int a = 0; a < 3; ++a, i /= cpud::k_builtin_dtypes)
    k.types[a] = static_cast<dtype>(i % cpud::k_builtin_dtypes);
  return k;
}

// Readers resolve and call while another thread registers kernels: no
// reader waits or sees a torn result (ThreadSanitizer checks the races);
// registrations beyond the operator's capacity are refused.
void registration_never_blocks_readers() {
  static cpud::op<binary> add{"add", add_kernels};
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 4; ++t)
    readers.emplace_back([&] {
      const float x[4] = {1, 2, 3, 4};
      float out[4];
      while (!stop.load(std::memory_order_relaxed)) {
        const cpud::resolved<binary> &r = add.resolve({dtype::float32, dtype::float32});
        if (!r) {
          bad.fetch_add(1);
          continue;
        }
        r.fn()(x, x, out, 4);
        if (out[3] != 8) bad.fetch_add(1);
        add.resolve({dtype::int32, dtype::float64});
      }
    });
  int added = 0;
  for (int i = 0; i < 300; ++i) added += add.add_kernel(three_args(i));
  stop.store(true);
  for (auto &t : readers) t.join();
  EXPECT(bad.load() == 0, "%d reader calls went wrong during registration", bad.load());
  // The operator holds at most k_max_kernels: the rest are refused, not
  // silently left out of the ranking.
  EXPECT(added == cpud::op<binary>::k_max_kernels - 4, "%d of 300 registrations accepted", added);
}

// A kernel whose types an operator already has is refused, and the one it
// has stays: the exact call is not made ambiguous (Numba's compile() returns
// the overload it has). An arity over k_max_arity is refused too.
void duplicate_signature_refused() {
  cpud::op<binary> add{"add", add_kernels};
  const bool again = add.add_kernel(CPUD_KERNEL(add_i32, dtype::float32, dtype::float32));
  EXPECT(!again, "a second (float32, float32) kernel should be refused");
  const cpud::resolved<binary> &r = add.resolve({dtype::float32, dtype::float32});
  EXPECT(r && std::strcmp(r.k->name, "add_f32") == 0, "(float32, float32) should stay add_f32, got %s",
         r ? r.k->name : add.explain({dtype::float32, dtype::float32}).c_str());
  EXPECT(add.add_kernel(CPUD_KERNEL(add_i32, dtype::int32, dtype::int32)), "a new signature is accepted");
  EXPECT(!add.add_kernel(CPUD_KERNEL(add_i64, dtype::int32, dtype::int32)), "and then refused the second time");
  cpud::kernel<binary> five = CPUD_KERNEL(add_i32, dtype::int32);
  five.arity = cpud::k_max_arity + 1;
  EXPECT(!add.add_kernel(five), "an arity over k_max_arity is refused");
  int n = 0;
  add.for_each_kernel([&](const cpud::kernel<binary> &) { ++n; });
  EXPECT(n == 5, "4 static kernels and 1 added, got %d", n);
}

// A kernel table built at run time that lists a signature twice: the
// operator resolves nothing, and explain() names the repeat. (A constinit
// one does not compile: the typed suite's operator-repeat-compiles.)
void static_table_with_a_repeat() {
  cpud::kernel<binary> table[3] = {CPUD_KERNEL(add_f32, dtype::float32, dtype::float32),
                                   CPUD_KERNEL(add_f64, dtype::float64, dtype::float64),
                                   CPUD_KERNEL(add_c64, dtype::float32, dtype::float32)};
  cpud::op<binary> bad{"bad", table};
  const cpud::resolved<binary> &r = bad.resolve({dtype::float64, dtype::float64});
  EXPECT(!r, "an operator whose table repeats a signature should resolve nothing, got %s", r ? r.k->name : "");
  const std::string why = bad.explain({dtype::float64, dtype::float64});
  const std::string want =
      "operator 'bad' lists (float32, float32) twice in its kernel table (add_f32 and add_c64): it resolves no call";
  EXPECT(why == want, "explain: %s", why.c_str());
}

// Kernels are searched in the order they were added (Numba's dispatcher
// searches its overloads in insertion order): with tie_rule::first, the
// earlier of two tied kernels wins, whichever has the lower type code.
void added_kernels_in_insertion_order() {
  for (int order = 0; order < 2; ++order) {
    cpud::op<binary> add{"add", cpud::casting::safe, cpud::tie_rule::first};
    const cpud::kernel<binary> i32 = CPUD_KERNEL(add_i32, dtype::int32, dtype::int32);
    const cpud::kernel<binary> i64 = CPUD_KERNEL(add_i64, dtype::int64, dtype::int64);
    add.add_kernel(order ? i64 : i32);
    add.add_kernel(order ? i32 : i64);
    // (int8, int8): two promotions to either, a tie.
    const cpud::resolved<binary> &r = add.resolve({dtype::int8, dtype::int8});
    const char *want = order ? "add_i64" : "add_i32";
    EXPECT(r && std::strcmp(r.k->name, want) == 0, "added %s first: tie_rule::first should pick it, got %s", want,
           r ? r.k->name : "nothing");
    std::string seen;
    add.for_each_kernel([&](const cpud::kernel<binary> &k) { seen += std::string(seen.empty() ? "" : " ") + k.name; });
    EXPECT(seen == (order ? "add_i64 add_i32" : "add_i32 add_i64"), "for_each_kernel order: %s", seen.c_str());
  }
}

}  // namespace

// An operator ranks by the conversion function it is given: NumPy's rules
// cast complex to real (unsafely), Numba's do not, so with casting=unsafe
// (complex128, complex128) has one candidate under Numba's rules (add_c64)
// and four tied ones under NumPy's.
void numpy_rules_rank_differently() {
  cpud::op<binary> numba{"add", add_kernels, cpud::casting::unsafe};
  cpud::op<binary> numpy{"add", add_kernels, cpud::casting::unsafe, cpud::tie_rule::error, cpud::can_cast_numpy};
  const cpud::resolved<binary> &a = numba.resolve({dtype::complex128, dtype::complex128});
  EXPECT(a && std::strcmp(a.k->name, "add_c64") == 0, "Numba's rules: add_c64, got %s", a ? a.k->name : "nothing");
  const cpud::resolved<binary> &b = numpy.resolve({dtype::complex128, dtype::complex128});
  const std::string why = numpy.explain({dtype::complex128, dtype::complex128});
  EXPECT(!b && b.kind == cpud::resolution::ambiguous && why.find("4 kernels tie at 2 unsafe") != std::string::npos,
         "NumPy's rules: a tie of four, got %s", why.c_str());
}

int main() {
  choice_conversions_and_result();
  numpy_rules_rank_differently();
  errors();
  added_kernel_wins_over_cached_conversion();
  isa_target_follows_the_masks();
  every_kernel_every_target();
  registration_never_blocks_readers();
  duplicate_signature_refused();
  static_table_with_a_repeat();
  added_kernels_in_insertion_order();
  if (failures) return 1;
  std::printf("PASS\n");
  return 0;
}
