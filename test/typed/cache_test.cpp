// An operator's resolution cache (cpudispatch/operator.hpp), seen from how
// often the operator ranks: its conversion function is called only when a
// call's types are ranked, so a counting one shows every miss.
// - keys are exact: (a) and (a, 0xffff) are different calls;
// - a working set stays cached: every pair of built-in types called round
//   robin ranks once per pair, however the pairs hash;
// - no budget: after thousands of distinct calls, registrations and rule
//   declarations, a repeated call is a hit again after one miss.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "add_kernels.h"
#include "cpudispatch/operator.hpp"
#include "expect.h"

using cpud::conversion;
using cpud::dtype;

namespace {

std::atomic<long> rankings{0};
conversion counting(dtype from, dtype to) {
  rankings.fetch_add(1, std::memory_order_relaxed);
  return cpud::convert(from, to);
}

// examples/typed-array's add: one kernel per type, safe casting, the most
// specific of tied kernels.
constexpr cpud::kernel<binary> array_add[] = {
    CPUD_KERNEL(add_i32, dtype::int8, dtype::int8),         CPUD_KERNEL(add_i32, dtype::int16, dtype::int16),
    CPUD_KERNEL(add_i32, dtype::int32, dtype::int32),       CPUD_KERNEL(add_i64, dtype::int64, dtype::int64),
    CPUD_KERNEL(add_i32, dtype::uint8, dtype::uint8),       CPUD_KERNEL(add_f32, dtype::float32, dtype::float32),
    CPUD_KERNEL(add_f64, dtype::float64, dtype::float64),   CPUD_KERNEL(add_c64, dtype::complex64, dtype::complex64),
};

struct call {
  dtype types[cpud::k_max_arity];
  std::size_t n;
};
std::vector<call> every_pair() {
  std::vector<call> out;
  for (int a = 0; a < cpud::k_builtin_dtypes; ++a)
    for (int b = 0; b < cpud::k_builtin_dtypes; ++b) out.push_back({{dtype(a), dtype(b)}, 2});
  return out;
}
// One round robin pass; the rankings it caused.
long pass(const cpud::op<binary> &o, const std::vector<call> &calls) {
  const long before = rankings.load();
  for (const call &c : calls) (void)o.resolve(c.types, c.n);
  return rankings.load() - before;
}

// The unused argument places must not make a key that a longer call shares.
void keys_are_exact() {
  constexpr cpud::kernel<binary> ks[] = {CPUD_KERNEL(add_i32, dtype::int32),
                                         CPUD_KERNEL(add_i32, dtype::int32, dtype::int32)};
  const dtype invalid = cpud::type_registry::k_invalid;
  {
    cpud::op<binary> o{"exact", ks};
    EXPECT(o.resolve({dtype::int32}).k == &ks[0], "(int32) -> the unary kernel");
    const cpud::resolved<binary> &r = o.resolve({dtype::int32, invalid});
    EXPECT(!r && r.kind == cpud::resolution::no_match, "(int32, 0xffff) after (int32): no match, got %s",
           r ? r.k->name : "ambiguous");
  }
  {
    cpud::op<binary> o{"exact", ks};
    EXPECT(!o.resolve({dtype::int32, invalid}), "(int32, 0xffff) first: no match");
    const cpud::resolved<binary> &r = o.resolve({dtype::int32});
    EXPECT(r.k == &ks[0], "(int32) after (int32, 0xffff): the unary kernel, got %s",
           r ? r.k->name : "the cached no match");
  }
  // No argument at all is a call of its own too.
  cpud::op<binary> o{"exact", ks};
  EXPECT(!o.resolve(nullptr, 0), "() matches no kernel");
  EXPECT(o.resolve({dtype::int32}).k == &ks[0], "(int32) after ()");
}

// All 196 pairs (58 resolve, the rest are cached failures) round robin:
// after the first pass nothing is ranked again.
void working_set_stays_cached() {
  cpud::op<binary> o{"add", array_add, cpud::casting::safe, cpud::tie_rule::most_specific, counting};
  const std::vector<call> calls = every_pair();
  int ok = 0, own = 0;
  for (const call &c : calls) {
    const bool r = static_cast<bool>(o.resolve(c.types, c.n));
    ok += r;
    // Pairs of the library's own eight types (one per kernel).
    bool mine[2] = {false, false};
    for (int i = 0; i < 2; ++i)
      for (const cpud::kernel<binary> &k : array_add) mine[i] = mine[i] || k.types[0] == c.types[i];
    own += r && mine[0] && mine[1];
  }
  EXPECT(ok == 156 && own == 58, "add accepts 156 of the 196 pairs and 58 of its own types' 64, got %d and %d", ok,
         own);
  long again = 0;
  for (int round = 0; round < 20; ++round) again += pass(o, calls);
  EXPECT(again == 0, "20 passes over 196 cached pairs ranked %ld times", again);
  // Two calls alternating, whatever slots they hash to: one ranking each.
  cpud::op<binary> fresh{"add", array_add, cpud::casting::safe, cpud::tie_rule::most_specific, counting};
  const long before = rankings.load();
  (void)fresh.resolve({dtype::int8, dtype::int8});
  const long one = rankings.load() - before;
  for (int i = 0; i < 1000; ++i) {
    (void)fresh.resolve({dtype::int8, dtype::int8});
    (void)fresh.resolve({dtype::float32, dtype::float32});
  }
  EXPECT(rankings.load() - before <= 2 * one, "two alternating calls: %ld rankings, 2 expected",
         (rankings.load() - before) / (one ? one : 1));
}

// Every distinct (a, b, c, d) call of the first 6000 (more than the cache
// holds), then one call repeated: after its first ranking, none.
void no_budget_for_distinct_calls() {
  cpud::op<binary> o{"add", array_add, cpud::casting::safe, cpud::tie_rule::most_specific, counting};
  for (int i = 0; i < 6000; ++i) {
    dtype t[4];
    for (int a = 0, code = i; a < 4; ++a, code /= cpud::k_builtin_dtypes) t[a] = dtype(code % cpud::k_builtin_dtypes);
    (void)o.resolve(t, 4);
  }
  const std::vector<call> one = {{{dtype::int16, dtype::float32}, 2}};
  pass(o, one);
  long again = 0;
  for (int i = 0; i < 100; ++i) again += pass(o, one);
  EXPECT(again == 0, "after 6000 distinct calls a repeated one ranked %ld times in 100 calls", again);
}

// Registrations and declarations invalidate every entry; the working set is
// ranked once more after each, then cached again, however many there were.
void no_budget_for_invalidations() {
  cpud::op<binary> o{"add", array_add, cpud::casting::safe, cpud::tie_rule::most_specific, counting};
  std::vector<call> calls = every_pair();
  calls.resize(100);
  // Registrations: distinct (a, b, c) kernels no two-argument call needs.
  int added = 0;
  for (int i = 0; i < 240; ++i) {
    cpud::kernel<binary> k = CPUD_KERNEL(add_i32, dtype::int32, dtype::int32, dtype::int32);
    for (int a = 0, code = i; a < 3; ++a, code /= cpud::k_builtin_dtypes) k.types[a] = dtype(code % cpud::k_builtin_dtypes);
    added += o.add_kernel(k);
    const long ranked = pass(o, calls);
    EXPECT(ranked > 0, "registration %d: the working set should be ranked again", i);
  }
  EXPECT(added == 240, "240 distinct registrations accepted, got %d", added);
  EXPECT(pass(o, calls) == 0, "after 240 registrations the working set is cached again");
  // Declarations between two composite types.
  const dtype a = cpud::types().intern(std::string("cache_test a")), b = cpud::types().intern(std::string("cache_test b"));
  for (int i = 0; i < 2000; ++i) {
    EXPECT(cpud::types().declare(a, b, conversion::safe), "declaration %d", i);
    pass(o, calls);
  }
  long again = 0;
  for (int round = 0; round < 10; ++round) again += pass(o, calls);
  EXPECT(again == 0, "after 2000 declarations the working set ranked %ld times in 10 passes", again);
}

}  // namespace

int main() {
  keys_are_exact();
  working_set_stays_cached();
  no_budget_for_distinct_calls();
  no_budget_for_invalidations();
  if (failures) return 1;
  std::printf("PASS\n");
  return 0;
}
