// typed_array's results for every pair of element types against plain loops
// in the chosen result type, the result types the rules give, the errors,
// every kernel's every ISA build this CPU can run against its baseline
// build, and a thread's guard reaching the kernels. Prints which build ran,
// so a run under each target shows it.
#include <complex>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>

#include "cpudispatch/dispatch.hpp"
#include "typed_array.h"

using cpud::dtype;

namespace {

int failures = 0;
#define EXPECT(cond, ...)                          \
  do {                                             \
    if (!(cond)) {                                 \
      std::printf("FAIL line %d: ", __LINE__);     \
      std::printf(__VA_ARGS__);                    \
      std::printf("\n");                           \
      ++failures;                                  \
    }                                              \
  } while (0)

const dtype k_types[] = {dtype::int8, dtype::int16, dtype::int32, dtype::int64,
                         dtype::uint8, dtype::float32, dtype::float64, dtype::complex64};

// Element i of a (any type) as a complex<double>: exact for these values.
std::complex<double> value(const ta::array &a, std::size_t i) {
  switch (a.type()) {
    case dtype::int8: return a.get<std::int8_t>(i);
    case dtype::int16: return a.get<std::int16_t>(i);
    case dtype::int32: return static_cast<double>(a.get<std::int32_t>(i));
    case dtype::int64: return static_cast<double>(a.get<std::int64_t>(i));
    case dtype::uint8: return a.get<std::uint8_t>(i);
    case dtype::float32: return a.get<float>(i);
    case dtype::float64: return a.get<double>(i);
    default: return std::complex<double>(a.get<std::complex<float>>(i));
  }
}

ta::array filled(dtype t, std::size_t n, int offset) {
  // Small values, so every sum and product is exact in every type here.
  ta::array a(t, n);
  const ta::array ints = ta::array::of(std::vector<std::int8_t>(n, 0));
  for (std::size_t i = 0; i < n; ++i) {
    const int v = static_cast<int>(i % 9) - 4 + offset;
    switch (t) {
      case dtype::int8: a.set<std::int8_t>(i, static_cast<std::int8_t>(v)); break;
      case dtype::int16: a.set<std::int16_t>(i, static_cast<std::int16_t>(v)); break;
      case dtype::int32: a.set<std::int32_t>(i, v); break;
      case dtype::int64: a.set<std::int64_t>(i, v); break;
      case dtype::uint8: a.set<std::uint8_t>(i, static_cast<std::uint8_t>(v + 4)); break;
      case dtype::float32: a.set<float>(i, static_cast<float>(v)); break;
      case dtype::float64: a.set<double>(i, v); break;
      default: a.set<std::complex<float>>(i, std::complex<float>(static_cast<float>(v), 1.0f)); break;
    }
  }
  return a;
}

// Every pair: either a result whose values are the plain sum/product of the
// inputs, or an error that names the operator and the types.
void every_pair() {
  const std::size_t n = 67;
  int results = 0, refused = 0;
  for (dtype ta_ : k_types)
    for (dtype tb : k_types) {
      const ta::array a = filled(ta_, n, 0), b = filled(tb, n, 1);
      for (int op = 0; op < 2; ++op) {
        try {
          const ta::array r = op ? ta::multiply(a, b) : ta::add(a, b);
          ++results;
          for (std::size_t i = 0; i < n; ++i) {
            const std::complex<double> want = op ? value(a, i) * value(b, i) : value(a, i) + value(b, i);
            if (value(r, i) != want) {
              EXPECT(false, "%s(%s, %s)[%zu] = %g%+gi in %s, want %g%+gi", op ? "multiply" : "add",
                     cpud::dtype_name(ta_), cpud::dtype_name(tb), i, value(r, i).real(), value(r, i).imag(),
                     cpud::dtype_name(r.type()), want.real(), want.imag());
              break;
            }
          }
        } catch (const std::invalid_argument &e) {
          ++refused;
          const std::string want = std::string("no kernel of '") + (op ? "multiply" : "add") + "' accepts (" +
                                   cpud::dtype_name(ta_) + ", " + cpud::dtype_name(tb) + ")";
          EXPECT(std::string(e.what()).find(want) != std::string::npos, "error %s", e.what());
        }
      }
    }
  std::printf("pairs: %d results checked, %d refused with a message\n", results, refused);
}

// The result types the rules give (docs/typed.md's rules, in this library).
void result_types() {
  struct {
    dtype a, b, want;
  } cases[] = {
      {dtype::int8, dtype::int8, dtype::int8},          {dtype::int8, dtype::int16, dtype::int16},
      {dtype::uint8, dtype::int8, dtype::int16},        {dtype::int32, dtype::float32, dtype::float64},
      {dtype::int16, dtype::float32, dtype::float32},   {dtype::float32, dtype::complex64, dtype::complex64},
      {dtype::int64, dtype::float64, dtype::float64},
  };
  for (const auto &c : cases) {
    const ta::array r = ta::add(filled(c.a, 3, 0), filled(c.b, 3, 0));
    EXPECT(r.type() == c.want, "add(%s, %s) is %s, want %s", cpud::dtype_name(c.a), cpud::dtype_name(c.b),
           cpud::dtype_name(r.type()), cpud::dtype_name(c.want));
  }
  // complex64 with float64: float64 -> complex64 is unsafe, complex -> real
  // does not exist: refused.
  try {
    ta::add(filled(dtype::complex64, 3, 0), filled(dtype::float64, 3, 0));
    EXPECT(false, "add(complex64, float64) should be refused");
  } catch (const std::invalid_argument &e) {
    std::printf("add(complex64, float64): %s\n", e.what());
  }
  // Sums: int8 (promoted) and uint8 (its own kernel) accumulate in int64.
  const ta::array s = ta::sum(ta::array::of(std::vector<std::int8_t>(300, 100)));
  EXPECT(s.type() == dtype::int64 && s.get<std::int64_t>(0) == 30000, "sum of 300 x int8 100 = %s %lld",
         cpud::dtype_name(s.type()), static_cast<long long>(s.type() == dtype::int64 ? s.get<std::int64_t>(0) : 0));
  const ta::array u = ta::sum(ta::array::of(std::vector<std::uint8_t>(300, 200)));
  EXPECT(u.type() == dtype::int64 && u.get<std::int64_t>(0) == 60000, "sum of 300 x uint8 200");
  const ta::array f = ta::sum(ta::array::of(std::vector<float>{1.5f, 2.5f, 3.0f}));
  EXPECT(f.type() == dtype::float32 && f.get<float>(0) == 7.0f, "sum of float32");
  try {
    ta::add(filled(dtype::int8, 3, 0), filled(dtype::int8, 4, 0));
    EXPECT(false, "sizes 3 and 4 should be refused");
  } catch (const std::invalid_argument &) {
  }
}

// A thread's guard reaches the library's kernels: excluding the build that
// runs here, a thread runs a lower one and still computes right; this
// thread keeps its own.
void guard_in_a_thread() {
  const std::string here = ta::build_name();
  const int feature = cpud_feature_by_name(here.c_str());  // 0 for "baseline"
  if (!feature) {
    std::printf("guard: the baseline build runs here; nothing to exclude\n");
    return;
  }
  std::string there;
  std::int64_t total = 0;
  std::thread t([&] {
    cpud::exclude_features guard(cpud::feature_set{feature});
    there = ta::build_name();
    total = ta::sum(ta::array::of(std::vector<std::uint8_t>(1000, 3))).get<std::int64_t>(0);
  });
  t.join();
  EXPECT(!there.empty() && there != here && total == 3000, "a thread excluding %s ran %s (sum %lld)", here.c_str(),
         there.c_str(), static_cast<long long>(total));
  EXPECT(ta::build_name() == here, "this thread should still run %s, runs %s", here.c_str(), ta::build_name());
  std::printf("guard: a thread excluding %s ran %s; this thread %s\n", here.c_str(), there.c_str(), ta::build_name());
}

}  // namespace

int main() {
  std::printf("build: %s\n", ta::build_name());
  std::printf("add(float32, float32): %s\n", ta::plan("add", dtype::float32, dtype::float32).c_str());
  std::printf("add(int32, float32): %s\n", ta::plan("add", dtype::int32, dtype::float32).c_str());
  std::printf("sum(uint8): %s\n", ta::plan("sum", dtype::uint8).c_str());
  every_pair();
  result_types();
  guard_in_a_thread();
  std::string errors;
  const int builds = ta::check_all_builds(&errors);
  EXPECT(errors.empty(), "%s", errors.c_str());
  std::printf("%d kernel builds compared with their baseline builds\n", builds);
  if (failures) std::printf("%d failures\n", failures);
  return failures ? 1 : 0;
}
