// Dispatch-key sets and switching targets off at run time, seen from what
// calls actually execute (add_which writes the name of the build that ran):
// - the key-set rule (highest bit of targets & usable) picks what walking
//   the table picks, for every subset of the targets' features, in the C++
//   dispatcher, the C macros and operators alike;
// - per-thread guards: thread A excludes a feature while thread B keeps
//   calling, at the same time, while a third thread registers kernels;
//   nested guards restore; guards undo their own change, not a snapshot
//   (destroyed out of order, around a change made inside them); a baseline
//   feature cannot be excluded;
// - production switches: process-wide and per function, while another
//   thread calls.
// Generic over the CPU: on this AVX-512 host A runs AVX2-or-lower while B
// runs AVX-512; under a qemu model the top target is whatever the model
// allows, and the expectation follows from the masks.
#include "cpudispatch/testing.h"
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "add_kernels.h"
#include "cpudispatch/dispatch.h"
#include "cpudispatch/operator.hpp"
#include "expect.h"

using cpud::dtype;
using cpud::feature_set;

namespace {

// Every bit of every word the same: for what the API documents beyond the
// features themselves (cpud_mask_all() is "unrestricted"; a usable set
// carries no bit 0; bits of no feature are dropped).
bool same_bits(const cpud_mask &a, const cpud_mask &b) {
  for (int i = 0; i < CPUD_MASK_WORDS; ++i)
    if (a.w[i] != b.w[i]) return false;
  return true;
}
bool unrestricted() { return same_bits(cpud_thread_allowed(), cpud_mask_all()); }
// The set of the lowest feature of s (empty if none): what `s & (~s + 1)`
// gave.
feature_set lowest(const feature_set &s) {
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    if (s.has(id)) return feature_set(id);
  return feature_set{};
}
// A set's feature names, for messages.
std::string names(const feature_set &s) {
  std::string out = "{";
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    if (s.has(id)) out += std::string(out.size() > 1 ? " " : "") + cpud_feature_name(id);
  return out + "}";
}

constexpr cpud::kernel<binary> which_kernels[] = {
    CPUD_KERNEL(add_which, dtype::uint8, dtype::uint8),
    CPUD_KERNEL(add_f32, dtype::float32, dtype::float32),
};
cpud::op<binary> which_op{"which", which_kernels};

// The three ways a call is made; each returns the build that ran.
const char *ran_cxx() {
  const char *n = nullptr;
  add_which(nullptr, nullptr, &n, 0);
  return n;
}
const char *ran_macro() {
  const char *n = nullptr;
  CPUD_DISPATCH_CALL(add_which, (nullptr, nullptr, &n, 0));
  return n;
}
const char *ran_op() {
  const char *n = nullptr;
  which_op.resolve({dtype::uint8, dtype::uint8}).fn()(nullptr, nullptr, &n, 0);
  return n;
}

// The expectation, by the other rule: the first target in table order
// (highest interest first) whose feature is usable, else the baseline.
const char *walk_pick(const feature_set &usable, const feature_set &off = feature_set{}) {
  for (const auto *e = add_which.targets(); e->fn; ++e)
    if (e->feature == 0 || (usable.has(e->feature) && !off.has(e->feature))) return e->name;
  return "none";
}
bool same(const char *a, const char *b) { return a && b && std::strcmp(a, b) == 0; }
int feature_of(const char *target) {
  for (const auto *e = add_which.targets(); e->fn; ++e)
    if (same(e->name, target)) return e->feature;
  return -1;
}

// Every subset of the target features the CPU has, set process-wide: the
// three call paths run what the table walk picks.
void key_set_rule_equals_walk() {
  feature_set feats;
  for (const auto *e = add_which.targets(); e->fn; ++e)
    if (e->feature) feats |= feature_set(e->feature);
  EXPECT(feats == decltype(add_which)::keys(), "keys() is the targets' feature set");
  feats &= cpud_detected_mask();
  std::vector<int> ids;  // the features of feats
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    if (feats.has(id)) ids.push_back(id);
  std::vector<bool> in(ids.size());  // which of them the subset holds: counts up in binary
  int subsets = 0;
  for (bool more = true; more;) {
    feature_set s;
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (in[i]) s |= feature_set(ids[i]);
    // Each subset with what its features imply, as a test would mask.
    const feature_set mask = cpud_with_implied(s);
    cpud::scoped_features only(mask);
    const char *want = walk_pick(cpud_usable_mask());
    EXPECT(same(ran_cxx(), want) && same(ran_macro(), want) && same(ran_op(), want),
           "mask %s: C++ ran %s, the C macro %s, the operator %s; the walk picks %s", names(mask).c_str(),
           ran_cxx(), ran_macro(), ran_op(), want);
    EXPECT(same(add_which.selected_name(), want), "selected_name %s, want %s", add_which.selected_name(), want);
    ++subsets;
    std::size_t i = 0;
    while (i < in.size() && in[i]) in[i++] = false;
    if (i < in.size()) in[i] = true;
    more = i < in.size();
  }
  std::printf("key-set rule: %d subsets of %d target features agree with the table walk\n", subsets,
              feats.count());
}

// What thread A excludes: AVX512F where the top target is an AVX-512 one
// (the case the issue names), else the top target's own feature.
int feature_to_exclude(const char *top) {
#if defined(CPUD_ARCH_X86_64)
  if (cpud_have(CPUD_FEATURE_AVX512F) && feature_of(top) >= CPUD_FEATURE_AVX512F) return CPUD_FEATURE_AVX512F;
#endif
  return feature_of(top);
}

// Thread A excludes X while thread B keeps calling, at the same time (each
// keeps calling until both have made n calls), while a third thread adds
// kernels to the operator both call through.
void per_thread_exclusion() {
  const char *top = ran_cxx();
  const int x = feature_to_exclude(top);
  if (x <= 0) {
    std::printf("per-thread exclusion: the top target is %s; nothing above the baseline to exclude here\n", top);
    return;
  }
  const feature_set xbit(x);
  const char *want_a = walk_pick(cpud_close_over_implied(cpud_usable_mask() & ~xbit));
  EXPECT(!same(want_a, top), "excluding %s should change the target (%s)", cpud_feature_name(x), top);
  constexpr long n = 20000;
  std::atomic<long> calls_a{0}, calls_b{0};
  std::atomic<long> wrong_a{0}, wrong_b{0};
  std::atomic<bool> stop_adding{false};
  const char *seen_a = nullptr, *seen_b = nullptr;
  auto both_done = [&] { return calls_a.load() >= n && calls_b.load() >= n; };
  // The control: a pointer taken before the guard is a plain function
  // pointer and keeps running what it was (docs/runtime.md); the guard acts
  // through the dispatcher, the macros and operators, not on such copies.
  const binary kept = add_which.get();
  std::thread a([&] {
    cpud::exclude_features guard(xbit);
    EXPECT(guard.ok(), "excluding %s", cpud_feature_name(x));
    const char *through_kept = nullptr;
    kept(nullptr, nullptr, &through_kept, 0);
    EXPECT(same(through_kept, top), "a pointer kept from before the guard ran %s, want %s", through_kept, top);
    while (!both_done()) {
      const char *r[3] = {ran_cxx(), ran_macro(), ran_op()};
      for (const char *name : r)
        if (!same(name, want_a)) ++wrong_a, seen_a = name;
      ++calls_a;
    }
  });
  std::thread b([&] {
    while (!both_done()) {
      const char *r[3] = {ran_cxx(), ran_macro(), ran_op()};
      for (const char *name : r)
        if (!same(name, top)) ++wrong_b, seen_b = name;
      ++calls_b;
    }
  });
  cpud::op<binary> *target = &which_op;
  std::thread adder([&] {
    static constexpr cpud::kernel<binary> extra = CPUD_KERNEL(add_f64, dtype::float64, dtype::float64);
    int added = 0;
    while (!stop_adding.load() && added < 200 && target->add_kernel(extra)) ++added;
  });
  a.join();
  b.join();
  stop_adding = true;
  adder.join();
  EXPECT(wrong_a == 0, "thread A (excluding %s) ran %s in %ld of %ld calls, want %s", cpud_feature_name(x),
         seen_a, wrong_a.load(), 3 * calls_a.load(), want_a);
  EXPECT(wrong_b == 0, "thread B (no guard) ran %s in %ld of %ld calls, want %s", seen_b, wrong_b.load(),
         3 * calls_b.load(), top);
  EXPECT(same(ran_cxx(), top), "after A's guard the main thread runs %s, want %s", ran_cxx(), top);
  EXPECT(__atomic_load_n(&cpud__usable[0], __ATOMIC_SEQ_CST) & 1u,
         "with no thread restricted, the usable mask is every thread's answer again");
  std::printf("per-thread exclusion of %s: A ran %s, B ran %s, %ld + %ld calls each way, at the same time\n",
              cpud_feature_name(x), want_a, top, calls_a.load(), calls_b.load());
}

// Guards nest and restore; only_features narrows; a baseline feature is
// refused; the thread's allowed set and mask come back exactly.
void nested_guards() {
  const feature_set usable = cpud_usable_mask();
  const char *top = ran_cxx();
  EXPECT(unrestricted(), "unrestricted at first");
  {
    // Only the second-highest target the CPU could run, or the top one.
    int second = 0;
    for (const auto *e = add_which.targets(); e->fn; ++e)
      if (e->feature && usable.has(e->feature) && !same(e->name, top)) {
        second = e->feature;
        break;
      }
    const feature_set only(second);  // empty for 0: the baseline only
    cpud::only_features outer(only);
    const feature_set outer_mask =
        cpud_close_over_implied(usable & (feature_set(cpud_with_implied(only)) | cpud_baseline_mask()));
    // Exactly, word by word: the usable set no longer carries bit 0.
    EXPECT(same_bits(cpud_usable_mask(), outer_mask), "only %s: mask %s, want %s",
           second ? cpud_feature_name(second) : "(the baseline)", names(cpud_usable_mask()).c_str(),
           names(outer_mask).c_str());
    const char *want_outer = walk_pick(outer_mask);
    EXPECT(same(ran_cxx(), want_outer) && same(ran_op(), want_outer), "outer guard: ran %s, want %s", ran_cxx(),
           want_outer);
    const cpud_mask allowed_outer = cpud_thread_allowed();
    {
      cpud::exclude_features inner(only);
      const char *want_inner = walk_pick(cpud_close_over_implied(outer_mask & ~only));
      EXPECT(same(ran_cxx(), want_inner) && same(ran_macro(), want_inner), "inner guard: ran %s, want %s",
             ran_cxx(), want_inner);
    }
    EXPECT(same_bits(cpud_thread_allowed(), allowed_outer), "the inner guard restores the outer set");
    EXPECT(same(ran_cxx(), want_outer), "after the inner guard: ran %s, want %s", ran_cxx(), want_outer);
  }
  EXPECT(unrestricted() && same_bits(cpud_usable_mask(), usable), "all restored");
  EXPECT(same(ran_cxx(), top), "after the guards: ran %s, want %s", ran_cxx(), top);
  // The baseline cannot be excluded: refused, nothing changes.
  const feature_set base = cpud_baseline_mask();
  if (!base.empty()) {
    cpud::exclude_features refused(lowest(base));
    EXPECT(!refused.ok(), "excluding a baseline feature is refused");
    EXPECT(unrestricted() && same(ran_cxx(), top), "and changes nothing");
  }
}

// Non-baseline features of this arch, highest id first: what the
// guard-order tests exclude (a guard acts on the thread's allowed set, so
// the CPU need not have them; the arch's own ids, whatever the host).
std::vector<int> excludable() {
  std::vector<int> ids;
  const feature_set base = cpud_baseline_mask();
  for (int id = CPUD_FEATURE_COUNT; id >= 1; --id)
    if (!base.has(id)) ids.push_back(id);
  return ids;
}
// The thread's allowed set when exactly `off` is excluded: everything else,
// bits of no feature included (what cpud_set_thread_allowed keeps).
cpud_mask allowed_without(const feature_set &off) { return feature_set(cpud_mask_all()) & ~off; }
// Every feature of this arch.
feature_set every_feature() {
  feature_set s;
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) s |= feature_set(id);
  return s;
}
// What the thread's allowed set leaves out, for messages.
std::string excluded() { return names(every_feature() & ~feature_set(cpud_thread_allowed())); }

// Guards undo their own change, not a snapshot: destroyed out of order,
// around a change made inside them, or excluding what is already excluded.
// What docs/api.md states of the delta rule: an exclude guard that ends
// inside a later only_features guard allows its feature again even where it
// lies outside the only guard's set (PyTorch's guards do the same).
void exclude_ending_inside_only() {
  const std::vector<int> ids = excludable();
  if (ids.size() < 2) {
    std::printf("exclude inside only: fewer than 2 features above the baseline here\n");
    return;
  }
  const feature_set x(ids[0]);
  const feature_set only_x = cpud_with_implied(x);
  feature_set z;
  for (int id : ids)
    if (!only_x.has(id)) {
      z = feature_set(id);
      break;
    }
  if (z.empty()) {
    std::printf("exclude inside only: every feature above the baseline is implied by %s\n", cpud_feature_name(ids[0]));
    return;
  }
  cpud_set_thread_allowed(cpud_mask_all());
  const feature_set outside = every_feature() & ~only_x;
  std::optional<cpud::exclude_features> ex;
  std::optional<cpud::only_features> only;
  ex.emplace(z);
  only.emplace(x);
  ex.reset();
  EXPECT(same_bits(cpud_thread_allowed(), allowed_without(outside & ~z)),
         "exclude %s, only %s, the exclude guard gone: %s allowed again, excluded %s", names(z).c_str(),
         cpud_feature_name(ids[0]), names(z).c_str(), excluded().c_str());
  only.reset();
  EXPECT(unrestricted(), "both gone: excluded %s", excluded().c_str());
}

void guards_undo_their_change() {
  const char *top = ran_cxx();
  const std::vector<int> ids = excludable();
  if (ids.size() < 2) {
    std::printf("guard order: %zu features above the baseline; nothing to exclude twice here\n", ids.size());
    return;
  }
  const feature_set x(ids[0]), y(ids[1]);
  const char *xn = cpud_feature_name(ids[0]), *yn = cpud_feature_name(ids[1]);
  EXPECT(unrestricted(), "unrestricted at first");
  // Each case starts unrestricted, whatever a failed one before it left.
  auto fresh = [] { cpud_set_thread_allowed(cpud_mask_all()); };
  {
    // Two exclude guards, reset in construction order.
    auto a = std::make_unique<cpud::exclude_features>(x);
    auto b = std::make_unique<cpud::exclude_features>(y);
    EXPECT(a->ok() && b->ok(), "excluding %s and %s", xn, yn);
    EXPECT(same_bits(cpud_thread_allowed(), allowed_without(x | y)), "both live: excluded %s", excluded().c_str());
    a.reset();
    EXPECT(same_bits(cpud_thread_allowed(), allowed_without(y)),
           "the %s guard gone, the %s guard live: excluded %s, want {%s}", xn, yn, excluded().c_str(), yn);
    b.reset();
    EXPECT(unrestricted(), "both exclude guards gone, out of order: excluded %s, want none", excluded().c_str());
  }
  fresh();
  {
    // An exclude guard and an only guard, either first, reset in construction
    // order; x lies within what the only guard allows, so only its delta
    // (everything outside cpud_with_implied(x)) stays excluded in between.
    const feature_set only_x = cpud_with_implied(x);
    const feature_set outside = every_feature() & ~only_x;
    std::optional<cpud::exclude_features> ex;
    std::optional<cpud::only_features> only;
    ex.emplace(x);
    only.emplace(x);
    ex.reset();
    EXPECT(same_bits(cpud_thread_allowed(), allowed_without(outside)),
           "exclude %s then only %s, the exclude guard gone: excluded %s, want %s", xn, xn, excluded().c_str(),
           names(outside).c_str());
    only.reset();
    EXPECT(unrestricted(), "exclude then only, gone out of order: excluded %s, want none", excluded().c_str());
    only.emplace(x);
    ex.emplace(x);
    only.reset();
    EXPECT(same_bits(cpud_thread_allowed(), allowed_without(x)),
           "only %s then exclude %s, the only guard gone: excluded %s, want {%s}", xn, xn, excluded().c_str(), xn);
    ex.reset();
    EXPECT(unrestricted(), "only then exclude, gone out of order: excluded %s, want none", excluded().c_str());
  }
  fresh();
  {
    // A direct exclusion made inside a guard survives the guard's end.
    {
      cpud::exclude_features guard(x);
      cpud_set_thread_allowed(feature_set(cpud_thread_allowed()) & ~y);
    }
    EXPECT(same_bits(cpud_thread_allowed(), allowed_without(y)),
           "%s excluded directly inside a guard of %s: after the guard excluded %s, want {%s}", yn, xn,
           excluded().c_str(), yn);
    cpud_set_thread_allowed(cpud_mask_all());
    EXPECT(unrestricted(), "unrestricted again");
  }
  fresh();
  {
    // An inner guard excluding what the outer one already excludes changes
    // nothing, so its end re-allows nothing.
    cpud::exclude_features outer(x);
    {
      cpud::exclude_features inner(x);
      EXPECT(inner.ok(), "excluding %s again", xn);
    }
    EXPECT(same_bits(cpud_thread_allowed(), allowed_without(x)),
           "the inner guard (%s) gone, the outer (%s) live: excluded %s, want {%s}", xn, xn, excluded().c_str(), xn);
    {
      cpud::exclude_features inner(x | y);
      EXPECT(same_bits(cpud_thread_allowed(), allowed_without(x | y)), "inner live: excluded %s", excluded().c_str());
    }
    EXPECT(same_bits(cpud_thread_allowed(), allowed_without(x)),
           "the inner guard (%s %s) gone, the outer (%s) live: excluded %s, want {%s}", xn, yn, xn, excluded().c_str(),
           xn);
  }
  EXPECT(unrestricted(), "every guard gone: excluded %s, want none", excluded().c_str());
  EXPECT(__atomic_load_n(&cpud__usable[0], __ATOMIC_SEQ_CST) & 1u,
         "with no thread restricted, the usable mask is every thread's answer again");
  EXPECT(same(ran_cxx(), top), "after the guards: ran %s, want %s", ran_cxx(), top);
  std::printf("guard order: guards of %s and %s undo their own change, in any order\n", xn, yn);
}

// Switching targets off for the process while another thread calls: once
// the switch returns, calls that start after it run without the feature.
void production_switches() {
  const char *top = ran_cxx();
  const int x = feature_to_exclude(top);
  if (x <= 0) {
    std::printf("production switches: the top target is %s; nothing to switch off here\n", top);
    return;
  }
  const feature_set xbit(x);
  const char *want_off = walk_pick(cpud_close_over_implied(cpud_usable_mask() & ~xbit));
  std::atomic<int> phase{0};  // 0: before the switch, 1: switched off, 2: stop
  std::atomic<long> late{0};
  std::atomic<long> calls{0};
  std::thread caller([&] {
    while (phase.load() != 2) {
      const int p = phase.load();
      const char *r = ran_cxx();
      // A call that began after the switch was seen must not run X.
      if (p == 1 && !same(r, want_off)) ++late;
      ++calls;
    }
  });
  while (calls.load() < 1000) {
  }
  EXPECT(cpud_set_disabled_features(xbit) == 0, "switching %s off", cpud_feature_name(x));
  phase = 1;
  const long at = calls.load();
  while (calls.load() < at + 20000) {
  }
  EXPECT(same(ran_cxx(), want_off) && same(ran_macro(), want_off) && same(ran_op(), want_off),
         "%s off: ran %s, want %s", cpud_feature_name(x), ran_cxx(), want_off);
  EXPECT(feature_set(cpud_disabled_features()) == xbit && !cpud_have(x), "the switch is visible");
  phase = 2;
  caller.join();
  EXPECT(cpud_set_disabled_features(feature_set{}) == 0 && same(ran_cxx(), top), "switched back on: ran %s",
         ran_cxx());
  EXPECT(late == 0, "%ld calls after the switch still ran with %s", late.load(), cpud_feature_name(x));
  // A baseline feature cannot be switched off: -1, nothing changes.
  const feature_set base = cpud_baseline_mask();
  if (!base.empty()) {
    EXPECT(cpud_set_disabled_features(lowest(base)) == -1, "a baseline feature is refused");
    EXPECT(feature_set(cpud_disabled_features()).empty() && same(ran_cxx(), top), "and nothing changes");
  }

  // Bits of no feature (bit 0, ids past the table, in every word) name
  // nothing: ignored, and not kept in the disabled set.
  feature_set no_feature = feature_set::all();
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) no_feature &= ~feature_set(id);
  EXPECT(cpud_set_disabled_features(no_feature) == 0 && same_bits(cpud_disabled_features(), cpud_mask_none()) &&
             same(ran_cxx(), top),
         "bits of no feature should change nothing: ran %s", ran_cxx());
  EXPECT(cpud_set_disabled_features(feature_set{}) == 0, "reset");

  // One function (and through it, the operator): the others keep theirs.
  const char *f32_before = add_f32.selected_name();
  EXPECT(decltype(add_which)::set_disabled(xbit).empty(), "previous set");
  EXPECT(same(ran_cxx(), want_off) && same(ran_op(), want_off), "add_which without %s ran %s, want %s",
         cpud_feature_name(x), ran_cxx(), want_off);
  EXPECT(same(add_f32.selected_name(), f32_before), "add_f32 keeps %s", f32_before);
  EXPECT(decltype(add_which)::set_disabled(feature_set{}) == xbit && same(ran_cxx(), top), "add_which back to %s",
         top);
  which_op.set_disabled(xbit);
  EXPECT(same(ran_op(), want_off) && decltype(add_f32)::disabled() == xbit, "the operator switches its kernels");
  which_op.set_disabled(feature_set{});
  EXPECT(same(ran_op(), top), "and back");
  std::printf("production switches: %s off for the process, one function and one operator: ran %s\n",
              cpud_feature_name(x), want_off);
}

// The include guard (PyTorch's IncludeDispatchKeyGuard, on the ISA keys):
// re-allows inside a scope what an outer guard excluded; an inner guard
// narrows again; and it cannot make usable what the CPU or the process's
// masks lack: it widens the thread's allowed set (the control: that set
// does hold the feature afterwards), and usable is that set's intersection
// with the CPU's and the process's.
void include_guard() {
  const char *top = ran_cxx();
  const feature_set usable = cpud_usable_mask();
  const int x = feature_to_exclude(top);
  EXPECT(unrestricted(), "unrestricted at first");
  if (x > 0) {
    const feature_set xbit(x);
    const char *without = walk_pick(cpud_close_over_implied(usable & ~xbit));
    cpud::exclude_features outer(xbit);
    EXPECT(same(ran_cxx(), without), "outer exclusion of %s: ran %s, want %s", cpud_feature_name(x), ran_cxx(),
           without);
    {
      cpud::include_features in(xbit);
      EXPECT(in.ok() && in.lacking().empty(), "including %s, which the CPU has", cpud_feature_name(x));
      EXPECT(same(ran_cxx(), top) && same(ran_macro(), top) && same(ran_op(), top),
             "inside the include guard: ran %s / %s / %s, want %s", ran_cxx(), ran_macro(), ran_op(), top);
      EXPECT(same_bits(cpud_usable_mask(), usable), "the usable set is the unrestricted one again");
      {
        cpud::exclude_features inner(xbit);
        EXPECT(same(ran_cxx(), without), "an exclusion inside the include guard narrows again: ran %s, want %s",
               ran_cxx(), without);
      }
      EXPECT(same(ran_cxx(), top), "the inner exclusion gone: ran %s, want %s", ran_cxx(), top);
    }
    EXPECT(same(ran_cxx(), without), "the include guard gone, the outer exclusion holds again: ran %s, want %s",
           ran_cxx(), without);
  } else {
    std::printf("include guard: the top target is %s; nothing above the baseline to exclude and include here\n", top);
  }
  EXPECT(unrestricted() && same(ran_cxx(), top), "all guards gone: ran %s", ran_cxx());

  // What the CPU lacks (and the process's masks leave out): every feature
  // the unrestricted thread cannot use.
  const feature_set lacks = every_feature() & ~usable;
  {
    cpud::exclude_features outer(feature_set(x > 0 ? x : 0));  // a restricted thread, so its allowed set shows
    cpud::include_features all(every_feature());
    EXPECT(same(ran_cxx(), top) && same(ran_macro(), top) && same(ran_op(), top),
           "including every feature: ran %s, the CPU's best is %s", ran_cxx(), top);
    EXPECT(same_bits(cpud_usable_mask(), usable), "including every feature leaves the usable set as the CPU's");
    EXPECT(all.lacking() == lacks && all.ok() == lacks.empty(), "lacking() %s, the CPU lacks %s",
           names(all.lacking()).c_str(), names(lacks).c_str());
    // The control: the allowed set did take them in; the CPU's set is what
    // keeps them out.
    EXPECT((lacks & ~feature_set(cpud_thread_allowed())).empty(), "the thread allows %s", names(lacks).c_str());
  }
  // What the process switched off: including it does not switch it on.
  if (x > 0) {
    const feature_set xbit(x);
    EXPECT(cpud_set_disabled_features(xbit) == 0, "switching %s off", cpud_feature_name(x));
    {
      cpud::include_features in(xbit);
      EXPECT(!in.ok() && in.lacking().has(x) && !cpud_have(x), "including %s, switched off for the process: refused",
             cpud_feature_name(x));
      EXPECT(!same(ran_cxx(), top), "and nothing runs %s: ran %s", top, ran_cxx());
    }
    cpud_set_disabled_features(feature_set{});
    // A test mask (the process's usable set) that leaves x out, likewise.
    cpud::scoped_features masked(cpud_close_over_implied(usable & ~xbit));
    cpud::include_features in(xbit);
    EXPECT(!in.ok() && !same(ran_cxx(), top), "including %s outside the process's mask: ran %s", cpud_feature_name(x),
           ran_cxx());
  }
  // Out of order (the delta rule, docs/api.md): an include guard that
  // outlives the exclusion it overrode takes its feature away again at its
  // end, as every guard undoes its own change.
  const std::vector<int> ids = excludable();
  if (!ids.empty()) {
    cpud_set_thread_allowed(cpud_mask_all());
    const feature_set y(ids[0]);
    std::optional<cpud::exclude_features> ex;
    std::optional<cpud::include_features> in;
    ex.emplace(y);
    in.emplace(y);
    ex.reset();
    EXPECT(unrestricted(), "exclusion gone, include live: excluded %s", excluded().c_str());
    in.reset();
    EXPECT(same_bits(cpud_thread_allowed(), allowed_without(y)), "then the include guard gone: excluded %s, want %s",
           excluded().c_str(), names(y).c_str());
    cpud_set_thread_allowed(cpud_mask_all());
  }
  EXPECT(unrestricted(), "unrestricted at the end");
  std::printf("include guard: re-allows what an outer guard excluded; the CPU lacks %s, which it cannot enable\n",
              names(lacks).c_str());
}

}  // namespace

int main() {
  key_set_rule_equals_walk();
  per_thread_exclusion();
  nested_guards();
  guards_undo_their_change();
  exclude_ending_inside_only();
  include_guard();
  production_switches();
  if (failures) std::printf("%d failures\n", failures);
  return failures ? 1 : 0;
}
