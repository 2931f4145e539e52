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

[[noreturn]] CPUD_HIDDEN void no_usable_target(const char *function);

template <class Tag, class Sig>
class dispatcher;

template <class Tag, class R, class... A>
class dispatcher<Tag, R(A...)> {
 public:
  using fn_type = R (*)(A...);

  R operator()(A... a) const {
    return slot_.load(std::memory_order_relaxed)(static_cast<A &&>(a)...);
  }
  // The selected target's address (resolving it if needed).
  fn_type get() const {
    fn_type f = slot_.load(std::memory_order_relaxed);
    return f == &first_call ? resolve() : f;
  }
  // Name of the target get() returns ("AVX2", "baseline").
  const char *selected_name() const { return pick()->name; }
  static const char *name() { return Tag::name; }
  // Compiled targets, highest interest first, ending with a null fn.
  static const target_entry<fn_type> *targets() { return Tag::table(); }

  static fn_type resolve() {
    const target_entry<fn_type> *e = pick();
    fn_type f = e->fn ? e->fn : &none;
    slot_.store(f, std::memory_order_relaxed);
    return f;
  }

 private:
  static const target_entry<fn_type> *pick() {
    const target_entry<fn_type> *e = Tag::table();
    while (e->fn && e->feature != 0 && !cpud_have(e->feature)) ++e;
    return e;
  }
  static R first_call(A... a) { return resolve()(static_cast<A &&>(a)...); }
  [[noreturn]] static R none(A...) { no_usable_target(Tag::name); }
  static inline std::atomic<fn_type> slot_{&first_call};
};

}  // namespace cpud

#define CPUD__CXX_ENTRY(CHECK, T, NAME) {CPUD_FEATURE_##T, &NAME##_##T, #T},
#define CPUD__CXX_BASE(NAME) {0, &NAME##_baseline, "baseline"},
#define CPUD_DISPATCH(RET, NAME, ARGS)                                          \
  CPUD_DISPATCH_DECLARE(RET NAME, ARGS)                                         \
  struct cpud_tag_##NAME {                                                      \
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
