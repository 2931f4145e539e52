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
 * an object of that name. Its first call picks the highest-interest target
 * whose features are usable and caches the pointer in a relaxed atomic; later
 * calls are one load and an indirect call, with no "which target?" call.
 * Concurrent first calls are safe: each stores the same pointer.
 * sum_f32.get() returns the pointer itself for tight loops.
 */
#ifndef CPUDISPATCH_DISPATCH_HPP_
#define CPUDISPATCH_DISPATCH_HPP_

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "cpudispatch/dispatch.h"

namespace cpud {

// One compiled target of a dispatched function; feature 0 is the baseline,
// a null fn ends the table.
template <class Fn>
struct target_entry {
  int feature;
  Fn fn;
  const char *name;
};

template <class Tag, class Sig>
class dispatcher;

// Hidden, like everything of cpudispatch: two shared libraries that both
// dispatch a function of the same name keep separate cached pointers.
template <class Tag, class R, class... A>
class CPUD_HIDDEN dispatcher<Tag, R(A...)> {
 public:
  using fn_type = R (*)(A...);
  using entry = target_entry<fn_type>;

  R operator()(A... a) const {
    return slot_.load(std::memory_order_relaxed)(static_cast<A &&>(a)...);
  }
  // The selected target's address (selecting it if needed).
  fn_type get() const {
    fn_type f = slot_.load(std::memory_order_relaxed);
    return f == &first_call ? resolve() : f;
  }
  // Name of the target get() returns ("AVX2", "baseline"; "none" if no
  // compiled target can run).
  const char *selected_name() const { return pick()->name; }
  static const char *name() { return Tag::name; }
  // Compiled targets, highest interest first, ending with a null fn.
  static const entry *targets() { return Tag::table(); }
  // Whether target e may run on this CPU under the current masks.
  static bool usable(const entry &e) { return e.fn && (e.feature == 0 || cpud_have(e.feature)); }

  static fn_type resolve() {
    const entry *e = pick();
    fn_type f = e->fn ? e->fn : &none;
    selected_.store(static_cast<int>(e - Tag::table()), std::memory_order_relaxed);
    slot_.store(f, std::memory_order_relaxed);
    cpud__register(&record_);
    return f;
  }

 private:
  static const entry *pick() {
    const entry *e = Tag::table();
    while (e->fn && !usable(*e)) ++e;
    return e;
  }
  static R first_call(A... a) { return resolve()(static_cast<A &&>(a)...); }
  [[noreturn]] static R none(A...) { cpud__no_target(Tag::name); }

  static int count() {
    int n = 0;
    while (Tag::table()[n].fn) ++n;
    return n;
  }
  static const char *target_name(int i) { return Tag::table()[i].name; }
  static int target_feature(int i) { return Tag::table()[i].feature; }
  static int selected() {
    int i = selected_.load(std::memory_order_relaxed);
    return i < count() ? i : -1;
  }
  static void reset() {
    selected_.store(-1, std::memory_order_relaxed);
    slot_.store(&first_call, std::memory_order_relaxed);
  }

  // Constant-initialised: no static constructor runs for a dispatcher.
  static inline std::atomic<fn_type> slot_{&first_call};
  static inline std::atomic<int> selected_{-1};
  static inline cpud_function record_{Tag::name, &count, &target_name, &target_feature,
                                      &selected, &reset, nullptr, 0};
};

// For tests: while alive, only `mask` (within what the CPU has, plus the
// baseline) is usable and every dispatched function selects again; the
// previous mask and selections come back at the end of the scope.
class scoped_features {
 public:
  explicit scoped_features(std::uint64_t mask) : prev_(cpud_set_usable_mask(mask)) {}
  ~scoped_features() { cpud_set_usable_mask(prev_); }
  scoped_features(const scoped_features &) = delete;
  scoped_features &operator=(const scoped_features &) = delete;

 private:
  std::uint64_t prev_;
};

}  // namespace cpud

#define CPUD__CXX_ENTRY(CHECK, T, NAME) {CPUD_FEATURE_##T, &NAME##_##T, #T},
#define CPUD__CXX_BASE(NAME) {0, &NAME##_baseline, "baseline"},
#define CPUD_DISPATCH(RET, NAME, ARGS)                                          \
  CPUD_DISPATCH_DECLARE(RET NAME, ARGS)                                         \
  struct CPUD_HIDDEN cpud_tag_##NAME {                                          \
    static constexpr const char *name = #NAME;                                  \
    static const ::cpud::target_entry<RET(*) ARGS> *table() {                   \
      static constexpr ::cpud::target_entry<RET(*) ARGS> t[] = {                \
          CPUD__DISPATCH_CALL(CPUD__NOCHK, CPUD__CXX_ENTRY, NAME)               \
          CPUD__DISPATCH_BASELINE_CALL(CPUD__CXX_BASE, NAME){0, nullptr, "none"}}; \
      return t;                                                                 \
    }                                                                           \
  };                                                                            \
  inline constexpr ::cpud::dispatcher<cpud_tag_##NAME, RET ARGS> NAME {}

#endif /* CPUDISPATCH_DISPATCH_HPP_ */
