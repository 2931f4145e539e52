// The cached operator against a reference model: plain, uncached
// cpud::resolve over the operator's kernels in the order they were added,
// with the operator's casting limit, tie rule and conversion function.
// Random operators (a static table or none, up to 64 kernels of 1 to 4
// parameters over built-in and composite types, every casting limit and
// tie rule, Numba's or NumPy's conversions) get random call sequences with
// registrations and rule declarations in between; every answer must be the
// model's: kind, kernel, conversions and rank.
// Then several threads: readers resolve while one writer registers kernels
// and another declares rules. A reader's answer is compared with the model when no
// change overlapped its call (a version counter brackets every change);
// enough calls must be compared for the run to count.
//   model_test [CASES [ROUNDS]]   (the suite runs a fixed number; the
//                                  ThreadSanitizer build more)
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "add_kernels.h"
#include "cpudispatch/operator.hpp"
#include "expect.h"

using cpud::conversion;
using cpud::dtype;

namespace {

struct rng {
  std::uint64_t s;
  std::uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 0x2545f4914f6cdd1dull;
  }
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
  bool chance(int percent) { return below(100) < percent; }
};

// Types calls and kernels draw from: the built-in ones, six composite ones
// (interned at start), and, for calls only, codes no kernel can have.
std::vector<dtype> composites;
dtype any_type(rng &r, bool for_call) {
  const int roll = r.below(100);
  if (for_call && roll < 3) return r.chance(50) ? cpud::type_registry::k_invalid : dtype(4000);
  if (roll < 30) return composites[r.below(static_cast<int>(composites.size()))];
  return dtype(r.below(cpud::k_builtin_dtypes));
}

cpud::kernel<binary> random_kernel(rng &r) {
  cpud::kernel<binary> k = CPUD_KERNEL(add_i32, dtype::int32);
  k.arity = 1 + r.below(cpud::k_max_arity);
  for (int i = 0; i < k.arity; ++i) k.types[i] = any_type(r, false);
  return k;
}
bool same_signature(const cpud::kernel<binary> &a, const cpud::kernel<binary> &b) {
  if (a.arity != b.arity) return false;
  for (int i = 0; i < a.arity; ++i)
    if (a.types[i] != b.types[i]) return false;
  return true;
}

// A declaration between random types, at least one of them composite.
void declare_random(rng &r) {
  dtype from = any_type(r, false), to = composites[r.below(static_cast<int>(composites.size()))];
  if (r.chance(50)) std::swap(from, to);
  const conversion kinds[] = {conversion::exact, conversion::promote, conversion::safe, conversion::unsafe};
  const bool ok = cpud::types().declare(from, to, kinds[r.below(4)]);
  EXPECT(ok || from == to, "declaring a rule between known types failed");
}

struct model_op {
  std::vector<cpud::kernel<binary>> kernels;  // the operator's, in resolution order
  cpud::casting limit;
  cpud::tie_rule tie;
  cpud::conversion_fn conv;

  // "" when the operator's answer is the model's, else what differs.
  std::string check(const cpud::resolved<binary> &got, const dtype *args, int n) const {
    std::vector<cpud::signature> sigs;
    for (const auto &k : kernels) sigs.push_back({k.types, k.arity});
    const cpud::resolution want = cpud::resolve(args, n, sigs.data(), static_cast<int>(sigs.size()), limit, tie, conv);
    const std::string call = cpud::signature_text(args, n);
    if (got.kind != want.kind) return call + ": kind " + std::to_string(got.kind) + ", model " + std::to_string(want.kind);
    if (!(got.rank == want.rank)) return call + ": rank differs";
    if (want.kind != cpud::resolution::ok) return got.k ? call + ": a kernel where the model has none" : "";
    const cpud::kernel<binary> &k = kernels[want.index];
    if (!got.k || !same_signature(*got.k, k))
      return call + ": kernel " + (got.k ? cpud::signature_text(got.k->types, got.k->arity) : "none") + ", model " +
             cpud::signature_text(k.types, k.arity);
    for (int i = 0; i < n; ++i)
      if (got.conv[i] != conv(args[i], k.types[i])) return call + ": conversion " + std::to_string(i) + " differs";
    return "";
  }
};

struct call {
  dtype types[cpud::k_max_arity + 1];
  int n;
};
call random_call(rng &r, const model_op &m) {
  call c{};
  // Mostly a kernel's arity with types near its own; sometimes anything,
  // no argument or one too many.
  const int roll = r.below(100);
  if (!m.kernels.empty() && roll < 60) {
    const cpud::kernel<binary> &k = m.kernels[r.below(static_cast<int>(m.kernels.size()))];
    c.n = k.arity;
    for (int i = 0; i < c.n; ++i) c.types[i] = r.chance(40) ? k.types[i] : any_type(r, true);
  } else {
    c.n = roll < 63 ? 0 : roll < 66 ? cpud::k_max_arity + 1 : 1 + r.below(cpud::k_max_arity);
    for (int i = 0; i < c.n; ++i) c.types[i] = any_type(r, true);
  }
  return c;
}

void configure(rng &r, model_op &m) {
  m.limit = static_cast<cpud::casting>(r.below(4));
  m.tie = static_cast<cpud::tie_rule>(r.below(3));
  m.conv = r.chance(80) ? cpud::convert : cpud::can_cast_numpy;
}

// One operator, one thread: every answer checked.
void single_thread_case(std::uint64_t seed, long *calls) {
  rng r{seed};
  model_op m;
  configure(r, m);
  cpud::kernel<binary> table[8];
  const bool with_table = r.chance(50);
  std::vector<cpud::kernel<binary>> chosen;
  while (with_table && chosen.size() < 8) {
    const cpud::kernel<binary> k = random_kernel(r);
    bool repeat = false;
    for (const auto &o : chosen) repeat = repeat || same_signature(o, k);
    if (!repeat) chosen.push_back(k);
  }
  for (std::size_t i = 0; i < chosen.size(); ++i) table[i] = chosen[i];
  cpud::op<binary> tabled{"model", table, m.limit, m.tie, m.conv};
  cpud::op<binary> bare{"model", m.limit, m.tie, m.conv};
  cpud::op<binary> &o = with_table ? tabled : bare;
  m.kernels = chosen;
  std::vector<call> recent;
  for (int step = 0; step < 400; ++step) {
    const int roll = r.below(100);
    if (roll < 6 && m.kernels.size() < 64) {
      // Sometimes a signature the operator has: refused.
      const cpud::kernel<binary> k =
          r.chance(20) && !m.kernels.empty() ? m.kernels[r.below(static_cast<int>(m.kernels.size()))] : random_kernel(r);
      bool repeat = false;
      for (const auto &x : m.kernels) repeat = repeat || same_signature(x, k);
      const bool added = o.add_kernel(k);
      EXPECT(added == !repeat, "seed %llu step %d: add_kernel gave %d for a %s signature",
             static_cast<unsigned long long>(seed), step, added, repeat ? "repeated" : "new");
      if (added) m.kernels.push_back(k);
      continue;
    }
    if (roll < 8) {
      declare_random(r);
      continue;
    }
    // Repeated calls exercise the cache, new ones the ranking.
    const call c = !recent.empty() && r.chance(50) ? recent[r.below(static_cast<int>(recent.size()))] : random_call(r, m);
    if (recent.size() < 32) recent.push_back(c);
    else recent[r.below(32)] = c;
    const std::string diff = m.check(o.resolve(c.types, static_cast<std::size_t>(c.n)), c.types, c.n);
    EXPECT(diff.empty(), "seed %llu step %d: %s", static_cast<unsigned long long>(seed), step, diff.c_str());
    ++*calls;
    if (failures > 20) return;
  }
}

// Readers against two writers: answers compared when no change overlapped.
void threaded_round(std::uint64_t seed, long *checked, long *unchecked) {
  rng setup{seed};
  model_op m;
  configure(setup, m);
  cpud::op<binary> o{"model", m.limit, m.tie, m.conv};
  std::mutex lock;               // the model's state; resolve() never takes it
  std::atomic<std::uint64_t> version{0};  // odd while a writer changes something
  std::atomic<bool> stop{false};
  std::atomic<long> n_checked{0}, n_unchecked{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 3; ++t)
    readers.emplace_back([&, t] {
      rng r{seed * 31 + static_cast<std::uint64_t>(t) + 1};
      std::vector<call> recent;
      while (!stop.load(std::memory_order_acquire)) {
        call c;
        {
          std::lock_guard<std::mutex> g(lock);
          c = !recent.empty() && r.chance(60) ? recent[r.below(static_cast<int>(recent.size()))] : random_call(r, m);
        }
        if (recent.size() < 16) recent.push_back(c);
        else recent[r.below(16)] = c;
        const std::uint64_t before = version.load(std::memory_order_acquire);
        const cpud::resolved<binary> got = o.resolve(c.types, static_cast<std::size_t>(c.n));
        std::lock_guard<std::mutex> g(lock);
        if ((before & 1) || version.load(std::memory_order_acquire) != before) {
          n_unchecked.fetch_add(1, std::memory_order_relaxed);
          continue;
        }
        const std::string diff = m.check(got, c.types, c.n);
        EXPECT(diff.empty(), "threaded seed %llu: %s", static_cast<unsigned long long>(seed), diff.c_str());
        n_checked.fetch_add(1, std::memory_order_relaxed);
      }
    });
  // Two writers: one registers kernels, one declares rules.
  std::vector<std::thread> writers;
  for (int kind = 0; kind < 2; ++kind)
    writers.emplace_back([&, kind] {
      rng w{seed ^ (0x5bd1e995u + static_cast<std::uint64_t>(kind))};
      for (int change = 0; change < 20; ++change) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        std::lock_guard<std::mutex> g(lock);
        version.fetch_add(1, std::memory_order_acq_rel);
        if (kind == 0 && m.kernels.size() < 64) {
          const cpud::kernel<binary> k = random_kernel(w);
          bool repeat = false;
          for (const auto &x : m.kernels) repeat = repeat || same_signature(x, k);
          const bool added = o.add_kernel(k);
          EXPECT(added == !repeat, "threaded seed %llu: add_kernel gave %d", static_cast<unsigned long long>(seed),
                 added);
          if (added) m.kernels.push_back(k);
        } else if (kind == 1) {
          declare_random(w);
        }
        version.fetch_add(1, std::memory_order_acq_rel);
      }
    });
  for (auto &t : writers) t.join();
  std::this_thread::sleep_for(std::chrono::microseconds(500));
  stop.store(true, std::memory_order_release);
  for (auto &t : readers) t.join();
  *checked += n_checked.load();
  *unchecked += n_unchecked.load();
}

}  // namespace

int main(int argc, char **argv) {
  const int cases = argc > 1 ? std::atoi(argv[1]) : 300;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 8;
  for (const char *name : {"model a", "model b", "model c", "model d", "model e", "model f"})
    composites.push_back(cpud::types().intern(std::string(name)));
  long calls = 0;
  for (int i = 0; i < cases && failures <= 20; ++i) single_thread_case(0x9e3779b97f4a7c15ull * (i + 1), &calls);
  std::printf("%d operators, %ld calls compared with the model\n", cases, calls);
  long checked = 0, unchecked = 0;
  for (int i = 0; i < rounds && failures <= 20; ++i) threaded_round(0xc2b2ae3d27d4eb4full * (i + 1), &checked, &unchecked);
  std::printf("%d threaded rounds: %ld calls compared, %ld overlapped a change\n", rounds, checked, unchecked);
  EXPECT(rounds == 0 || checked >= 100 * rounds, "too few threaded calls compared (%ld): the run proves little",
         checked);
  if (failures) return 1;
  std::printf("PASS\n");
  return 0;
}
