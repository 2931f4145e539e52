// Redispatch (PyTorch's Dispatcher::redispatch with ks & FULL_AFTER(k), on
// the ISA keys): a build hands work to the build below it, from C++
// (CPUD_BELOW) and C (CPUD_DISPATCH_BELOW), seen from what actually ran.
// add_chain and chain_c write the name of every build the chain passed
// through; the expectation is the table walk: from the selected build, each
// next one is the first target after it that may run now, down to the
// baseline build, which has nothing below it.
// - every subset of the CPU's target features, set process-wide;
// - one function's target switched off (set_disabled): the chain skips it,
//   where the table's plain order (the control) would not;
// - per thread: thread A excludes the top feature while thread B, at the
//   same time, runs the whole chain and a third thread switches a middle
//   target off and on (suite race: ThreadSanitizer);
// - PyTorch's own test of the calling convention
//   (callKernelsWithDispatchKeySetConvention_..._redispatchesToLowerPriorityKernels:
//   Tracer -> AutogradCPU -> CPU, every kernel called once): every build of
//   the chain ran exactly once, in order.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "chain.dispatch.h"
#include "chain_c.dispatch.h"
#include "cpudispatch/dispatch.h"
#include "cpudispatch/dispatch.hpp"
#include "cpudispatch/testing.h"
#include "expect.h"

using cpud::feature_set;
using binary = void (*)(const void *, const void *, void *, std::size_t);

CPUD_DISPATCH(void, add_chain, (const void *, const void *, void *, std::size_t));
extern "C" {  // chain_c is a C dispatch source
CPUD_DISPATCH_DEFINE(void, chain_c, (const char **names));
}

namespace {

constexpr int k_max = 32;
using chain = std::vector<std::string>;

std::string text(const chain &c) {
  std::string s;
  for (const std::string &n : c) s += (s.empty() ? "" : " > ") + n;
  return s.empty() ? "(nothing)" : s;
}
chain collect(const char *const *names) {
  chain c;
  for (int i = 0; i < k_max && names[i]; ++i) c.emplace_back(names[i]);
  return c;
}
chain ran_cxx() {
  const char *names[k_max + 1] = {};
  add_chain(nullptr, nullptr, names, 0);
  return collect(names);
}
chain ran_c() {
  const char *names[k_max + 1] = {};
  CPUD_DISPATCH_CALL_CACHED(chain_c, (names));
  return collect(names);
}

// set_disabled's rule: a target is off where any of its members is, or
// implies, one of `off`.
bool usable_now(const cpud::target_entry<binary> &e, const feature_set &off) {
  feature_set every;
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) every |= feature_set(id);
  const feature_set off_closed = every & ~feature_set(cpud_close_over_implied(every & ~off));
  return e.feature == 0 || (decltype(add_chain)::usable(e) && (e.need & off_closed).empty());
}
// The walk: the first target usable now, then each time the first usable
// one after it, ending with the baseline build. `off`: targets switched off
// for the function (set_disabled's rule: a target any of whose members is
// switched off).
chain walk(const feature_set &off = feature_set{}) {
  chain c;
  const auto *t = decltype(add_chain)::targets();
  for (int i = 0; t[i].fn; ++i)
    if (usable_now(t[i], off)) c.emplace_back(t[i].name);
  return c;
}
// The control: the table's plain order from the selected build, usable or not.
chain table_order_from(const std::string &first) {
  chain c;
  bool on = false;
  for (const auto *e = decltype(add_chain)::targets(); e->fn; ++e) {
    on = on || first == e->name;
    if (on) c.emplace_back(e->name);
  }
  return c;
}

// r is a prefix of `first` followed by what `then` has after the prefix's
// last build in table order.
bool mixed(const chain &r, const chain &first, const chain &then) {
  auto pos = [](const std::string &name) {
    int i = 0;
    for (const auto *e = decltype(add_chain)::targets(); e->fn; ++e, ++i)
      if (name == e->name) return i;
    return -1;
  };
  for (std::size_t k = 1; k <= first.size() && k <= r.size(); ++k) {
    if (!std::equal(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(k), r.begin())) break;
    chain m(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(k));
    for (const std::string &n : then)
      if (pos(n) > pos(m.back())) m.push_back(n);
    if (m == r) return true;
  }
  return false;
}

void every_subset() {
  feature_set feats;
  for (const auto *e = decltype(add_chain)::targets(); e->fn; ++e)
    if (e->feature) feats |= e->need;
  feats &= cpud_detected_mask();
  std::vector<int> ids;
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    if (feats.has(id) && !feature_set(cpud_baseline_mask()).has(id)) ids.push_back(id);
  if (ids.size() > 12) ids.resize(12);  // 4096 masks at most
  int subsets = 0;
  for (unsigned bits = 0; bits < (1u << ids.size()); ++bits) {
    feature_set s;
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (bits >> i & 1u) s |= feature_set(ids[i]);
    cpud::scoped_features only(cpud_with_implied(s));
    const chain want = walk();
    const chain cxx = ran_cxx(), c = ran_c();
    EXPECT(cxx == want && c == want, "mask of %u features: C++ ran %s, C ran %s; the walk: %s", s.count(),
           text(cxx).c_str(), text(c).c_str(), text(want).c_str());
    ++subsets;
  }
  const chain full = ran_cxx();
  EXPECT(!full.empty() && full.back() == "baseline", "the chain ends with the baseline build: %s", text(full).c_str());
  std::printf("redispatch: %d masks, the C++ and C chains follow the walk; here: %s\n", subsets, text(full).c_str());
}

// The top build's feature switched off for the function: the chain starts
// one build lower. And the control: the table's plain order from the top
// differs from the walk wherever a target below the top cannot run (FMA4
// on CPUs without it): handing on to "the next entry" would run it.
void switched_off() {
  const chain full = walk();
  const chain control = table_order_from(full.empty() ? "" : full[0]);
  if (control != full) {
    EXPECT(ran_cxx() == full && ran_c() == full, "ran %s, the walk %s", text(ran_cxx()).c_str(), text(full).c_str());
    std::printf("redispatch control: the table's plain order %s; what ran skips what cannot run: %s\n",
                text(control).c_str(), text(full).c_str());
  } else {
    std::printf("redispatch control: every target below %s can run here (%s), so the plain order is the walk\n",
                full.empty() ? "the top" : full[0].c_str(), text(full).c_str());
  }
  if (full.size() < 2) {
    std::printf("redispatch, switched off: only the baseline build runs here\n");
    return;
  }
  int top = -1;
  for (const auto *e = decltype(add_chain)::targets(); e->fn; ++e)
    if (full[0] == e->name) top = e->feature;
  const feature_set off(top);
  decltype(add_chain)::set_disabled(off);
  const chain want = walk(off), got = ran_cxx();
  EXPECT(got == want && want != full, "%s off: ran %s, the walk %s", full[0].c_str(), text(got).c_str(),
         text(want).c_str());
  decltype(add_chain)::set_disabled(feature_set{});
  EXPECT(ran_cxx() == full, "switched on again: ran %s, want %s", text(ran_cxx()).c_str(), text(full).c_str());
  std::printf("redispatch, %s switched off for the function: ran %s\n", full[0].c_str(), text(got).c_str());
}

// Thread A excludes the top target's feature while thread B runs the whole
// chain and a third thread switches the middle target off and on.
void per_thread() {
  const chain full = walk();
  if (full.size() < 2) {
    std::printf("redispatch per thread: only the baseline build runs here\n");
    return;
  }
  int top = -1, mid = -1;
  for (const auto *e = decltype(add_chain)::targets(); e->fn; ++e) {
    if (full[0] == e->name) top = e->feature;
    if (full.size() > 2 && full[1] == e->name) mid = e->feature;
  }
  const feature_set xbit(top), midbit(mid > 0 ? mid : 0);
  constexpr long n = 20000;
  std::atomic<long> calls_a{0}, calls_b{0}, wrong_a{0}, wrong_b{0};
  std::atomic<bool> done{false};
  std::string seen_a, seen_b;
  // While the third thread switches the middle target off and on (C++'s
  // set_disabled), a C++ chain is the walk with it or without it, or, for a
  // chain the switch overtook, a start by one and the rest by the other:
  // each hand-on chooses by the setting of its moment.
  auto check = [&](const chain &want, const chain &want_off, std::atomic<long> &wrong, std::string &seen) {
    const chain r = ran_cxx(), rc = ran_c();
    if (r != want && (mid <= 0 || !(r == want_off || mixed(r, want, want_off) || mixed(r, want_off, want))))
      ++wrong, seen = text(r);
    if (rc != want) ++wrong, seen = "C: " + text(rc);
  };
  std::thread a([&] {
    cpud::exclude_features guard(xbit);
    const chain want = walk(), want_off = walk(midbit);
    EXPECT(want != full, "excluding %s changes the chain %s", cpud_feature_name(top), text(full).c_str());
    for (; calls_a < n || calls_b < n; ++calls_a) check(want, want_off, wrong_a, seen_a);
  });
  std::thread b([&] {
    const chain want_off = walk(midbit);
    for (; calls_a < n || calls_b < n; ++calls_b) check(full, want_off, wrong_b, seen_b);
  });
  std::thread switcher([&] {
    while (!done.load() && mid > 0) {
      decltype(add_chain)::set_disabled(feature_set(mid));
      decltype(add_chain)::set_disabled(feature_set{});
    }
  });
  a.join();
  b.join();
  done = true;
  switcher.join();
  EXPECT(wrong_a == 0, "thread A (excluding %s) ran %s in %ld of %ld calls", cpud_feature_name(top), seen_a.c_str(),
         wrong_a.load(), 2 * calls_a.load());
  EXPECT(wrong_b == 0, "thread B (no guard) ran %s in %ld of %ld calls, want %s", seen_b.c_str(), wrong_b.load(),
         2 * calls_b.load(), text(full).c_str());
  EXPECT(ran_cxx() == full && ran_c() == full, "after the threads: ran %s", text(ran_cxx()).c_str());
  std::printf("redispatch per thread: A (without %s) and B (%s), %ld + %ld calls, at the same time\n",
              cpud_feature_name(top), text(full).c_str(), calls_a.load(), calls_b.load());
}

}  // namespace

int main() {
  // Each build of the chain ran once, in order, the top one first.
  const chain c = ran_cxx();
  EXPECT(!c.empty() && c[0] == add_chain.selected_name(), "the chain starts with the selected build %s: %s",
         add_chain.selected_name(), text(c).c_str());
  for (std::size_t i = 0; i < c.size(); ++i)
    for (std::size_t j = i + 1; j < c.size(); ++j)
      EXPECT(c[i] != c[j], "%s ran twice: %s", c[i].c_str(), text(c).c_str());
  // Below the baseline build there is nothing: a constant null.
  static_assert(decltype(add_chain)::index_of("baseline") >= 0, "add_chain has a baseline build");
  EXPECT(add_chain.below<decltype(add_chain)::index_of("baseline")>() == nullptr, "nothing below the baseline build");
  EXPECT(decltype(add_chain)::index_of("no such target") == -1, "index_of an unknown name");
  every_subset();
  switched_off();
  per_thread();
  if (failures) std::printf("%d failures\n", failures);
  return failures ? 1 : 0;
}
