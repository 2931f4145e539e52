// SPDX-License-Identifier: MIT
/*
 * cpudispatch: typed C++ dispatch with a cached pointer.
 *
 *   #include "sum.dispatch.h"          // generated for sum.dispatch.cpp
 *   #include "cpudispatch/dispatch.hpp"
 *   CPUD_DISPATCH(float, sum_f32, (const float *, std::size_t))
 *   ...
 *   float s = sum_f32(p, n);            // best target for this CPU
 *
 * CPUD_DISPATCH declares every compiled target of the function and defines
 * an object of that name. The selected target is the highest set bit of
 * (the function's targets as a key set) & (the usable features): feature ids
 * are in interest order, so that is the highest-interest usable target. The
 * first call selects and caches the pointer in a relaxed atomic; later calls
 * go through it: a direct call to a small stub that jumps through it (the
 * shape of an ifunc's PLT entry; GCC) or a load and an indirect call
 * (Clang): CPUD_DISPATCH_CALL_STUB below. Concurrent first calls are safe.
 * sum_f32.get() returns the pointer itself for tight loops.
 *
 * While some thread restricts itself (exclude_features / only_features
 * below), the cached pointer is a trampoline that selects per call from the
 * calling thread's mask; when the last restriction ends, calls go back to
 * the cached target.
 */
#ifndef CPUDISPATCH_DISPATCH_HPP_
#define CPUDISPATCH_DISPATCH_HPP_

#include <cstddef>
#include <cstdint>

#include "cpudispatch/dispatch.h"
// cpud::scoped_features, a test hook, lives in testing.h since 0.4.0; it
// came with this header before, so this header still brings it in 0.4.x
// and 0.5.x
// (NEWS.md). Include cpudispatch/testing.h where you use it.
#include "cpudispatch/testing.h"

// The shape of a dispatched call, chosen per compiler from bench_call_cost
// (docs/performance.md has the figures; define it to override):
//   1: a direct call to a small out-of-line stub per function that jumps
//      through the cached pointer, the shape of an ifunc's PLT entry: what
//      GCC's loops ran fastest with (Zen 5: 1.25x a direct call, as the
//      ifunc, against 1.42x for 0; a core with AVX10 measured for issue 25:
//      2x faster than 0);
//   0: the pointer loaded inline and an indirect call: what Clang's loops
//      ran fastest with (Zen 5: 1.00x a direct call, against 1.20x for 1).
#ifndef CPUD_DISPATCH_CALL_STUB
#if defined(__clang__)
#define CPUD_DISPATCH_CALL_STUB 0
#else
#define CPUD_DISPATCH_CALL_STUB 1
#endif
#endif
// The stub stays out of line (GCC: and out of reach of its inter-procedural
// cloning, which would give a copy per constant argument); hidden, so it is
// one per shared object.
#if defined(__clang__) || !defined(__GNUC__)
#define CPUD_CALL_STUB __attribute__((noinline))
#else
#define CPUD_CALL_STUB __attribute__((noinline, noipa))
#endif

// The selection's code, out of line and cold (resolve() below).
#if (defined(__GNUC__) || defined(__clang__)) && !defined(CPUD__INLINE_COLD_PATH)
#define CPUD__COLD_FN __attribute__((noinline, cold))
#else
#define CPUD__COLD_FN
#endif

CPUD_NAMESPACE_BEGIN

// One compiled target of a dispatched function: `feature` is its key (0 for
// the baseline build; for a group target such as AVX512_SKX__VPCLMULQDQ,
// its highest member), `need` every member; a null fn ends the table.
template <class Fn>
struct target_entry {
  int feature;
  Fn fn;
  const char *name;
  cpud_mask need;
};

namespace detail {

// A target table (targets, the baseline build if any, then the end entry)
// as a key set: bit `feature` for each compiled target; the baseline build
// (feature 0) is the fallback, not a key.
template <class Entry, std::size_t N>
constexpr feature_set keys_of(const Entry (&t)[N]) {
  feature_set k;
  for (std::size_t i = 0; i + 1 < N; ++i)
    if (t[i].feature) k |= feature_set(t[i].feature);
  return k;
}

// Feature id -> index of the first target with that key, and the index of
// the fallback (the baseline build, or the end entry when the source has
// none).
struct key_index {
  signed char at[CPUD_FEATURE_COUNT + 1];
  signed char fallback;
};
template <class Entry, std::size_t N>
constexpr key_index index_of(const Entry (&t)[N]) {
  key_index x{};
  for (signed char &a : x.at) a = -1;
  std::size_t i = 0;
  for (; i + 1 < N && t[i].feature; ++i)
    if (x.at[t[i].feature] < 0) x.at[t[i].feature] = static_cast<signed char>(i);
  x.fallback = static_cast<signed char>(i);
  return x;
}

// The key-set rule needs the table by descending key (the generated lists
// are highest interest first, and ids follow interest); targets that share
// a key (AVX512_SKX__VPCLMULQDQ, then AVX512_SKX) are tried in table order.
template <class Entry, std::size_t N>
constexpr bool keys_descending(const Entry (&t)[N]) {
  for (std::size_t i = 1; i + 1 < N && t[i].feature; ++i)
    if (t[i].feature > t[i - 1].feature) return false;
  return true;
}

constexpr bool within(const cpud_mask &a, const cpud_mask &b) {
  for (int i = 0; i < CPUD_MASK_WORDS; ++i)
    if (a.w[i] & ~b.w[i]) return false;
  return true;
}
constexpr bool disjoint(const cpud_mask &a, const cpud_mask &b) {
  for (int i = 0; i < CPUD_MASK_WORDS; ++i)
    if (a.w[i] & b.w[i]) return false;
  return true;
}

// Among targets that share a key, none may come after one whose members it
// all has: the first usable one is taken, so that one would never be.
template <class Entry, std::size_t N>
constexpr bool none_shadowed(const Entry (&t)[N]) {
  for (std::size_t j = 1; j + 1 < N && t[j].feature; ++j)
    for (std::size_t i = 0; i < j; ++i)
      if (t[i].feature == t[j].feature && within(t[i].need, t[j].need)) return false;
  return true;
}

// Every member of every target: what set_disabled must look at.
template <class Entry, std::size_t N>
constexpr feature_set members_of(const Entry (&t)[N]) {
  feature_set k;
  for (std::size_t i = 0; i + 1 < N; ++i) k |= t[i].need;
  return k;
}


constexpr bool same_name(const char *a, const char *b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}

template <class Entry, std::size_t N>
constexpr int count_of(const Entry (&)[N]) {
  return static_cast<int>(N) - 1;
}

// The highest feature id in a key set, 0 if none: count-leading-zeros on
// the highest non-zero word (one word while the table has < 64 features).
inline int highest_key(const feature_set &keys) {
  for (int i = CPUD_MASK_WORDS - 1; i >= 0; --i) {
    const std::uint64_t x = keys.w[i];
    if (!x) continue;
#if defined(__GNUC__) || defined(__clang__)
    return i * 64 + 63 - __builtin_clzll(x);
#else
    int b = 63;
    while (!((x >> b) & 1u)) --b;
    return i * 64 + b;
#endif
  }
  return 0;
}

// The two halves of a per-thread guard (exclude_features, only_features).
// restrict_thread takes `off` out of this thread's allowed set and returns
// the change it made: what was allowed before and is not after (features
// already excluded, and bits of no feature, which restrict nothing, are no
// change). allow_again adds such a change back to the thread's allowed set
// as it is now, and nothing else; once every change is back, the set is
// cpud_mask_all() again: unrestricted.
inline feature_set restrict_thread(const feature_set &off) {
  const feature_set before = cpud_thread_allowed();
  cpud_set_thread_allowed(before & ~off);
  return before & ~feature_set(cpud_thread_allowed());
}
inline void allow_again(const feature_set &removed) {
  if (!removed.empty()) cpud_set_thread_allowed(feature_set(cpud_thread_allowed()) | removed);
}
// The include guard's halves, the other way round: allow_thread adds `on`
// to this thread's allowed set and returns what it added (what was not
// allowed before); restrict_again takes such a change away again.
inline feature_set allow_thread(const feature_set &on) {
  const feature_set before = cpud_thread_allowed();
  cpud_set_thread_allowed(before | on);
  return feature_set(cpud_thread_allowed()) & ~before;
}
inline void restrict_again(const feature_set &added) {
  if (!added.empty()) cpud_set_thread_allowed(feature_set(cpud_thread_allowed()) & ~added);
}

}  // namespace detail

// Whether a compiled target may run now: every feature of e.need usable
// under this thread's masks (the baseline build: always; the end entry:
// never). Call a target's fn yourself only when this holds.
template <class Fn>
inline bool usable(const target_entry<Fn> &e) {
  return e.fn && detail::within(e.need, cpud_usable_mask());
}

template <class Tag, class Sig>
class dispatcher;

// Hidden, like everything of cpudispatch: two shared libraries that both
// dispatch a function of the same name keep separate cached pointers.
template <class Tag, class R, class... A>
class CPUD_HIDDEN dispatcher<Tag, R(A...)> {
 public:
  using fn_type = R (*)(A...);
  using entry = target_entry<fn_type>;

  // CPUD_DISPATCH_CALL_STUB (above): a direct call to call_stub, which
  // jumps through the cached pointer (GCC: `jmp *slot(%rip)`), or the
  // pointer loaded here and called.
  R operator()(A... a) const {
#if CPUD_DISPATCH_CALL_STUB
    return call_stub(static_cast<A &&>(a)...);
#else
    return __atomic_load_n(&slot_, __ATOMIC_RELAXED)(static_cast<A &&>(a)...);
#endif
  }
  // The address of the target this thread's calls run (selecting it if
  // needed).
  fn_type get() const {
    fn_type f = __atomic_load_n(&slot_, __ATOMIC_RELAXED);
    if (f == &first_call) return resolve();
    return f == &per_call ? for_mask(cpud_usable_mask()) : f;
  }
  // Name of the target get() returns ("AVX2", "baseline"; "none" if no
  // compiled target can run).
  const char *selected_name() const { return Tag::entries[index_for(cpud_usable_mask())].name; }
  static const char *name() { return Tag::name; }
  // Compiled targets, highest interest first, ending with a null fn.
  static const entry *targets() { return Tag::entries; }
  // The compiled targets as a key set (bit per feature id; the baseline
  // build is not a key).
  static constexpr feature_set keys() { return k_keys; }
  // Whether target e may run on this CPU under this thread's masks.
  static bool usable(const entry &e) { return ::cpud::usable(e); }

  // The index in targets() of the target named `target` ("AVX2",
  // "baseline"), -1 if the function has none of that name. Constant:
  // CPUD_BELOW gives it the dispatch source's own target.
  static constexpr int index_of(const char *target) {
    for (int i = 0; Tag::entries[i].fn; ++i)
      if (detail::same_name(Tag::entries[i].name, target)) return i;
    return -1;
  }
  // Redispatch: the build a kernel running as target I (its index in
  // targets()) hands work to, the highest-interest target after I in the
  // table that may run now (the next lower target this thread may use, the
  // baseline build at the end), as the dispatcher would select it with I
  // and everything above taken away. Null where nothing comes after I (I is
  // the baseline build, or the lowest target of a source without one): a
  // constant there. Cached per target like the call's pointer (one load and
  // a test), and reset by the same mask changes; while some thread restricts
  // itself it is chosen per call from the calling thread's mask, as calls
  // are. Write CPUD_BELOW(NAME) inside the dispatch source (docs/api.md).
  template <int I>
  fn_type below() const {
    static_assert(I >= 0 && I < k_count, "below<I>(): I is not the index of one of this function's targets");
    if constexpr (I + 1 >= k_count) {  // only the end entry (null fn) comes after I
      return nullptr;
    } else {
      const fn_type f = __atomic_load_n(&below_[I], __ATOMIC_RELAXED);
      return f ? f : below_slow(I);
    }
  }

  // Switches targets of this function off at run time (production use:
  // e.g. CPUD_BIT(AVX512F) where this function's AVX-512 build is slower):
  // each target that is, or implies, one of `features` (a group: any of its
  // members does) stops being selected; the baseline build cannot be.
  // Replaces the set given before; safe while other threads call. Returns
  // the previous set.
  static feature_set set_disabled(const feature_set &features) {
    const feature_set prev = disabled();
    const feature_set skip = k_members & ~feature_set(cpud_close_over_implied(~features));
    for (int i = 0; i < CPUD_MASK_WORDS; ++i) {
      __atomic_store_n(&disabled_[i], features.w[i], __ATOMIC_SEQ_CST);
      __atomic_store_n(&skip_[i], skip.w[i], __ATOMIC_SEQ_CST);
    }
    cpud__reselect(&record_);
    return prev;
  }
  static feature_set disabled() {
    feature_set d;
    for (int i = 0; i < CPUD_MASK_WORDS; ++i) d.w[i] = __atomic_load_n(&disabled_[i], __ATOMIC_SEQ_CST);
    return d;
  }

  // Out of line and cold, as the C dispatcher's (dispatch.h): get() and the
  // first call reach it once; inlined, its runtime calls would cost get()'s
  // callers a prologue on every call.
  CPUD__COLD_FN static fn_type resolve() {
    // Registered first, so a mask change from now on re-selects this
    // function; then selected, re-checking that no change came in between.
    cpud__register(&record_);
    const unsigned epoch = cpud__epoch();
    const feature_set m = cpud_usable_mask();
    const fn_type f = for_mask(m);
    const bool shared = (__atomic_load_n(&cpud__usable[0], __ATOMIC_SEQ_CST) & 1u) != 0;
    __atomic_store_n(&selected_, index_for(shared ? m : feature_set(cpud__process_mask())), __ATOMIC_RELAXED);
    fn_type expected = &first_call;
    __atomic_compare_exchange_n(&slot_, &expected, shared ? f : &per_call, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    if (cpud__epoch() != epoch) __atomic_store_n(&slot_, &first_call, __ATOMIC_SEQ_CST);
    return f;
  }

 private:
  static constexpr feature_set k_keys = detail::keys_of(Tag::entries);
  static constexpr detail::key_index k_index = detail::index_of(Tag::entries);
  static constexpr feature_set k_members = detail::members_of(Tag::entries);
  static_assert(detail::keys_descending(Tag::entries), "targets are listed by descending feature id");
  static_assert(detail::none_shadowed(Tag::entries), "a group comes before its highest member alone");

  // The highest usable key; among the targets with that key (a group, then
  // its highest member alone), the first whose members are all usable and
  // none skipped. Usable masks hold what each feature implies, so members
  // suffice. A single feature's target is the first at its key: one pass.
  static int index_for(const feature_set &usable) {
    feature_set skip;
    for (int i = 0; i < CPUD_MASK_WORDS; ++i) skip.w[i] = __atomic_load_n(&skip_[i], __ATOMIC_RELAXED);
    feature_set k = k_keys & usable & ~skip;
    while (const int id = detail::highest_key(k)) {
      for (int i = k_index.at[id]; i < k_index.fallback && Tag::entries[i].feature == id; ++i)
        if (may_run(i, usable, skip)) return i;
      k.w[id / 64] &= ~(std::uint64_t{1} << (id % 64));
    }
    return k_index.fallback;
  }
  // Target i's members are all usable and none is switched off: the one
  // test of index_for and index_after.
  static bool may_run(int i, const feature_set &usable, const feature_set &skip) {
    return detail::within(Tag::entries[i].need, usable) && detail::disjoint(Tag::entries[i].need, skip);
  }
  // The first target after `from` that may run; the fallback (baseline
  // build or end entry) when none may.
  static int index_after(int from, const feature_set &usable) {
    feature_set skip;
    for (int i = 0; i < CPUD_MASK_WORDS; ++i) skip.w[i] = __atomic_load_n(&skip_[i], __ATOMIC_RELAXED);
    for (int i = from + 1; i < k_index.fallback; ++i)
      if (may_run(i, usable, skip)) return i;
    return k_index.fallback;
  }
  // below()'s first call per target, and every call while some thread is
  // restricted: registered and chosen as resolve() selects, cached only
  // when every thread sees the same set.
  CPUD__COLD_FN static fn_type below_slow(int from) {
    cpud__register(&record_);
    const unsigned epoch = cpud__epoch();
    const feature_set m = cpud_usable_mask();
    const fn_type f = Tag::entries[index_after(from, m)].fn;
    if (f && (__atomic_load_n(&cpud__usable[0], __ATOMIC_SEQ_CST) & 1u)) {
      __atomic_store_n(&below_[from], f, __ATOMIC_SEQ_CST);
      if (cpud__epoch() != epoch) __atomic_store_n(&below_[from], fn_type{}, __ATOMIC_SEQ_CST);
    }
    return f;
  }
  static fn_type for_mask(const feature_set &usable) {
    const fn_type f = Tag::entries[index_for(usable)].fn;
    return f ? f : &none;
  }
  CPUD_CALL_STUB static R call_stub(A... a) {
    return __atomic_load_n(&slot_, __ATOMIC_RELAXED)(static_cast<A &&>(a)...);
  }
  static R first_call(A... a) { return resolve()(static_cast<A &&>(a)...); }
  // Stands in for the cached target while some thread is restricted.
  static R per_call(A... a) {
    const feature_set m = cpud_usable_mask();
    if (__atomic_load_n(&cpud__usable[0], __ATOMIC_RELAXED) & 1u) {
      // No thread is restricted any more: back to a cached target.
      fn_type self = &per_call;
      __atomic_compare_exchange_n(&slot_, &self, &first_call, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    }
    return for_mask(m)(static_cast<A &&>(a)...);
  }
  [[noreturn]] static R none(A...) { cpud__no_target(Tag::name); }

  static int count() { return detail::count_of(Tag::entries); }
  static const char *target_name(int i) { return Tag::entries[i].name; }
  static int target_feature(int i) { return Tag::entries[i].feature; }
  static int selected() {
    int i = __atomic_load_n(&selected_, __ATOMIC_RELAXED);
    return i < count() ? i : -1;
  }
  static void reset() {
    __atomic_store_n(&selected_, -1, __ATOMIC_RELAXED);
    __atomic_store_n(&slot_, &first_call, __ATOMIC_SEQ_CST);
    for (fn_type &b : below_) __atomic_store_n(&b, fn_type{}, __ATOMIC_SEQ_CST);
  }
  static constexpr int k_count = detail::count_of(Tag::entries);  // targets and the baseline build

  // Constant-initialised: no static constructor runs for a dispatcher.
  // Read and written only through the __atomic builtins, as dispatch.h's C
  // dispatcher does: std::atomic's members are out-of-line functions of
  // namespace std in an unoptimised build, which a shared library built
  // with default visibility would export beside its own.
  static inline fn_type slot_{&first_call};
  static inline int selected_{-1};
  static inline std::uint64_t disabled_[CPUD_MASK_WORDS]{};
  static inline std::uint64_t skip_[CPUD_MASK_WORDS]{};  // keys set_disabled switched off
  static inline fn_type below_[k_count + 1]{};  // below()'s cached builds; null: choose again
  static inline cpud_function record_{Tag::name, &count, &target_name, &target_feature,
                                      &selected, &reset, nullptr, 0};
};

// Per thread, while alive: this thread's dispatch does not use `features`
// nor anything implying them (exclude AVX512F: no AVX-512 target of any
// function). Other threads are unaffected. A baseline feature cannot be
// excluded (every part of the program is compiled for it): then nothing is
// excluded and ok() is false. At its end the guard undoes its own change,
// not a snapshot: it allows again exactly the features it excluded that
// were still allowed when it began (none if all were excluded already), on
// top of the thread's allowed set as it is then. So guards nest and may end
// in any order, and what else was excluded while it lived (by another guard
// or cpud_set_thread_allowed) stays excluded; with every guard gone and
// nothing else excluded, the thread is unrestricted again.
class exclude_features {
 public:
  explicit exclude_features(const feature_set &features)
      : ok_((features & cpud_baseline_mask()).empty()),
        removed_(ok_ ? detail::restrict_thread(features) : feature_set()) {}
  ~exclude_features() { detail::allow_again(removed_); }
  bool ok() const { return ok_; }
  exclude_features(const exclude_features &) = delete;
  exclude_features &operator=(const exclude_features &) = delete;

 private:
  bool ok_;
  feature_set removed_;  // what the constructor excluded
};

// Per thread, while alive: this thread's dispatch uses only `features`,
// what they imply and the baseline (only X86_V3: no AVX-512 target, and no
// target beyond what X86_V3 includes). Guards nest: an inner guard narrows.
// At its end the guard undoes its own change, not a snapshot: it allows
// again exactly what was allowed when it began and it took away (what lies
// outside cpud_with_implied(features)), on top of the thread's allowed set
// as it is then; guards may end in any order, and what else was excluded
// while it lived stays excluded.
class only_features {
 public:
  explicit only_features(const feature_set &features)
      : removed_(detail::restrict_thread(~feature_set(cpud_with_implied(features)))) {}
  ~only_features() { detail::allow_again(removed_); }
  only_features(const only_features &) = delete;
  only_features &operator=(const only_features &) = delete;

 private:
  feature_set removed_;  // what the constructor excluded
};

// Per thread, while alive: allows this thread's dispatch again `features`
// and what they imply where an outer guard (exclude_features,
// only_features) or cpud_set_thread_allowed took them away: the ISA
// counterpart of PyTorch's IncludeDispatchKeyGuard. It widens the thread's
// allowed set only, and a feature is usable only where the CPU has it, the
// variables and switches leave it and the thread allows it: so no guard can
// make usable what the CPU or the process's masks lack. lacking() is what
// of the features (and what they imply) stays unusable for that reason, ok()
// whether nothing does. At its end the guard undoes its own change: it
// takes away again exactly what it allowed (what was not allowed when it
// began), on top of the thread's allowed set as it is then; guards inside
// it narrow again as usual (the innermost guard has the last word).
class include_features {
 public:
  explicit include_features(const feature_set &features)
      : added_(detail::allow_thread(cpud_with_implied(features))),
        lacking_(feature_set(cpud_with_implied(features)) & ~feature_set(cpud_usable_mask())) {}
  ~include_features() { detail::restrict_again(added_); }
  bool ok() const { return lacking_.empty(); }
  feature_set lacking() const { return lacking_; }
  include_features(const include_features &) = delete;
  include_features &operator=(const include_features &) = delete;

 private:
  feature_set added_;    // what the constructor allowed again
  feature_set lacking_;  // what it could not make usable
};

CPUD_NAMESPACE_END  // namespace cpud

// Inside a dispatch source: the build of NAME below the one being compiled
// (dispatcher::below; null in the baseline build). NAME's dispatcher must
// be in sight (CPUD_DISPATCH in the dispatch source, after its generated
// header). E.g. hand the tail on: if (auto next = CPUD_BELOW(sum_f32)) ...
#if defined(CPUD__DISPATCH_BUILD)
#define CPUD_BELOW(NAME) (NAME.template below<decltype(NAME)::index_of(CPUD_TARGET_NAME)>())
#else /* baseline code is no build of NAME: nothing is "below" it */
#define CPUD_BELOW(NAME) \
  CPUD__MOVED("GCC error \"CPUD_BELOW is for code inside a dispatch source (docs/api.md, Redispatch)\"") nullptr
#endif

#define CPUD__CXX_MEMBER(F) | CPUD_BIT(F)
#define CPUD__CXX_ENTRY(CHECK, T, NAME) \
  {CPUD_CAT(CPUD_FEATURE_, CPUD__KEY_##T), &NAME##_##T, #T, ::cpud::feature_set() CPUD__MEMBERS_##T(CPUD__CXX_MEMBER)},
#define CPUD__CXX_BASE(NAME) {0, &NAME##_baseline, "baseline", ::cpud::feature_set()},
/* The tag type carries the kernels' namespace (the generated header's):
 * its static members (the cached target, the entries) are one object per
 * program, and another library's dispatcher of the same name has its own. */
#define CPUD__TAG(NAME) CPUD_CAT(CPUD__KERNEL_NS, CPUD_CAT(__cpud_tag_, NAME))
#define CPUD_DISPATCH(RET, NAME, ARGS)                                          \
  CPUD__DECLARE_OF(NAME, RET NAME, ARGS)                                        \
  struct CPUD_HIDDEN CPUD__TAG(NAME) {                                          \
    static constexpr const char *name = #NAME;                                  \
    static constexpr ::cpud::target_entry<RET(*) ARGS> entries[] = {            \
        CPUD__OF(NAME, DISPATCH_CALL)(CPUD__NOCHK, CPUD__CXX_ENTRY, NAME)       \
        CPUD__OF(NAME, DISPATCH_BASELINE_CALL)(CPUD__CXX_BASE, NAME){0, nullptr, "none", ::cpud::feature_set()}}; \
  };                                                                            \
  inline constexpr ::cpud::dispatcher<CPUD__TAG(NAME), RET ARGS> NAME {}

#endif /* CPUDISPATCH_DISPATCH_HPP_ */
