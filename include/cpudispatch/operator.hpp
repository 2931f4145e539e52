// Operators: one name, kernels registered per type signature, each kernel an
// ISA-dispatched function (CPUD_DISPATCH), so env masks, the start-up check
// and target selection keep working under typed dispatch (docs/typed.md).
//
//   using binary = void (*)(const void *, const void *, void *, std::size_t);
//   CPUD_DISPATCH(void, add_f32, (const void *, const void *, void *, std::size_t));
//   ...
//   constexpr cpud::kernel<binary> add_kernels[] = {
//       CPUD_KERNEL(add_f32, cpud::dtype::float32, cpud::dtype::float32),
//       CPUD_KERNEL(add_f64, cpud::dtype::float64, cpud::dtype::float64)};
//   cpud::op<binary> add{"add", add_kernels};
//   const cpud::resolved<binary> &r = add.resolve({cpud::dtype::int32, cpud::dtype::float64});
//   if (r) r.fn()(a, b, out, n);      // add_f64's best ISA build; r.conv[0] == safe
//
// The static table needs no constructor. add.add_kernel() registers more at
// run time (a plugin) without blocking concurrent resolve() calls; results
// are cached per argument types, and a registration invalidates the cache,
// so a new exact kernel wins over a cached conversion; so does a conversion
// rule declared for composite types (types.hpp).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "cpudispatch/dispatch.hpp"
#include "cpudispatch/resolve.hpp"
#include "cpudispatch/types.hpp"

namespace cpud {

constexpr int k_max_arity = 4;

// One kernel: its parameter types and its dispatched function.
template <class Fn>
struct kernel {
  dtype types[k_max_arity];
  int arity;
  Fn (*get)();                             // the selected ISA build (selecting it on first use)
  const char *(*target_name)();            // "AVX2", "baseline", ...
  const target_entry<Fn> *(*targets)();    // every compiled build, highest interest first
  const char *name;
  feature_set (*set_disabled)(const feature_set &);  // the dispatcher's set_disabled (may be null)
};

// The result of a resolution: which kernel, each argument's conversion, its
// rating. Empty (false) when nothing matched or the best candidates tied.
template <class Fn>
struct resolved {
  const kernel<Fn> *k = nullptr;
  conversion conv[k_max_arity] = {};
  rating rank{};
  resolution::kind_t kind = resolution::no_match;
  explicit operator bool() const { return k != nullptr; }
  Fn fn() const { return k->get(); }
  const char *target() const { return k->target_name(); }
};

template <class Fn>
class op {
 public:
  static constexpr int k_max_kernels = 256;  // ranked on the stack, so bounded

  template <std::size_t N>
  constexpr op(const char *name, const kernel<Fn> (&kernels)[N], casting limit = casting::safe,
               tie_rule tie = tie_rule::error, conversion_fn conv = convert)
      : name_(name), static_(kernels), n_static_(static_cast<int>(N)), limit_(limit), tie_(tie), conv_(conv),
        record_(make_record(name, this)) {
    static_assert(N <= k_max_kernels, "an operator has at most k_max_kernels kernels");
  }
  constexpr explicit op(const char *name, casting limit = casting::safe, tie_rule tie = tie_rule::error,
                        conversion_fn conv = convert)
      : name_(name), limit_(limit), tie_(tie), conv_(conv), record_(make_record(name, this)) {}
  op(const op &) = delete;
  op &operator=(const op &) = delete;
  ~op() {
    if (registered_.load(std::memory_order_acquire)) cpud__unregister_operator(&record_);
    for (node *n = added_.load(std::memory_order_acquire); n;) {
      node *next = n->next;
      delete n;
      n = next;
    }
    for (auto &slot : cache_) delete slot.load(std::memory_order_acquire);
    for (entry *e = retired_.load(std::memory_order_acquire); e;) {
      entry *next = e->retired_next;
      delete e;
      e = next;
    }
  }

  const char *name() const { return name_; }

  // Adds a kernel at run time. Readers never wait: the kernel is published
  // with one atomic store, and cached results made before it stop counting.
  // False (nothing added) when the operator already has k_max_kernels.
  bool add_kernel(const kernel<Fn> &k) {
    if (n_added_.fetch_add(1, std::memory_order_relaxed) >= k_max_kernels - n_static_) {
      n_added_.fetch_sub(1, std::memory_order_relaxed);
      return false;
    }
    node *n = new node{k, added_.load(std::memory_order_relaxed)};
    while (!added_.compare_exchange_weak(n->next, n, std::memory_order_release, std::memory_order_relaxed)) {
    }
    generation_.fetch_add(1, std::memory_order_acq_rel);
    return true;
  }

  // The kernel for these argument types (cached per types and generation).
  // The reference stays valid while the operator lives; for more than
  // k_max_arity arguments, or once an operator has made 4096 cache entries,
  // results are not cached and the reference is valid until this thread's
  // next uncached resolve().
  const resolved<Fn> &resolve(std::initializer_list<dtype> args) const { return resolve(args.begin(), args.size()); }
  const resolved<Fn> &resolve(const dtype *args, std::size_t n) const {
    const std::uint64_t key = pack(args, n);
    const std::uint64_t gen = generation();
    std::atomic<entry *> &slot = cache_[slot_of(key)];
    entry *e = slot.load(std::memory_order_acquire);
    if (e && e->key == key && e->generation == gen) return e->result;
    return miss(args, static_cast<int>(n), key, gen, slot);
  }

  // Why resolve() came back empty, naming the operator and every candidate.
  std::string explain(std::initializer_list<dtype> args) const {
    signature sigs[k_max_candidates];
    const kernel<Fn> *ks[k_max_candidates];
    const int n = candidates(sigs, ks);
    const resolution r = cpud::resolve(args.begin(), static_cast<int>(args.size()), sigs, n, limit_, tie_, conv_);
    return cpud::explain(name_, args.begin(), static_cast<int>(args.size()), sigs, n, r, limit_, conv_, type_name);
  }

  // Switches targets off in every kernel's dispatched function at run time
  // (dispatcher::set_disabled: each target that is, or implies, one of
  // `features`; e.g. CPUD_BIT(AVX512F) where AVX-512 is slower for this
  // operator). A function that is a kernel of two operators is switched off
  // for both. Kernels added later are not touched.
  void set_disabled(const feature_set &features) const {
    for_each_kernel([&](const kernel<Fn> &k) {
      if (k.set_disabled) k.set_disabled(features);
    });
  }

  // Every kernel: the static table, then the added ones, newest first.
  template <class F>
  void for_each_kernel(F f) const {
    for (int i = 0; i < n_static_; ++i) f(static_[i]);
    for (node *n = added_.load(std::memory_order_acquire); n; n = n->next) f(n->k);
  }

 private:
  static constexpr int k_slots = 64;
  static constexpr int k_max_candidates = k_max_kernels;
  static constexpr int k_max_entries = 4096;  // cache allocations per operator, then resolution is uncached

  struct node {
    kernel<Fn> k;
    node *next;
  };
  struct entry {
    std::uint64_t key;
    std::uint64_t generation;  // the operator's kernels (high half) and the rules (low half)
    resolved<Fn> result;
    entry *retired_next;
  };

  // Up to four 16-bit typecodes in one 64-bit key; unused places hold a
  // code no type has, so (a) and (a, b) never share a key. Longer argument
  // lists are resolved without the cache.
  static constexpr std::uint16_t k_no_type = 0xffff;
  static constexpr std::uint64_t k_uncacheable = ~std::uint64_t{0};
  static std::uint64_t pack(const dtype *args, std::size_t n) {
    if (n > static_cast<std::size_t>(k_max_arity)) return k_uncacheable;
    std::uint64_t key = 0;
    for (std::size_t i = 0; i < static_cast<std::size_t>(k_max_arity); ++i)
      key = key << 16 | (i < n ? static_cast<std::uint16_t>(args[i]) : k_no_type);
    return key;
  }
  static std::size_t slot_of(std::uint64_t key) { return (key * 0x9e3779b97f4a7c15ull) >> 58; }  // 64 slots

  std::uint64_t generation() const {
    return std::uint64_t{generation_.load(std::memory_order_acquire)} << 32 |
           rules_generation.load(std::memory_order_acquire);
  }

  int candidates(signature *sigs, const kernel<Fn> **ks) const {
    int n = 0;
    for_each_kernel([&](const kernel<Fn> &k) {
      if (n < k_max_candidates) {
        sigs[n] = {k.types, k.arity};
        ks[n++] = &k;
      }
    });
    return n;
  }

  const resolved<Fn> &miss(const dtype *args, int n, std::uint64_t key, std::uint64_t gen,
                           std::atomic<entry *> &slot) const {
    signature sigs[k_max_candidates];
    const kernel<Fn> *ks[k_max_candidates];
    const int nc = candidates(sigs, ks);
    const resolution r = cpud::resolve(args, n, sigs, nc, limit_, tie_, conv_);
    // Listed for introspection from the first resolution on.
    if (!registered_.exchange(1, std::memory_order_acq_rel)) cpud__register_operator(&record_);
    resolved<Fn> out;
    out.kind = r.kind;
    out.rank = r.rank;
    if (r.kind == resolution::ok) {
      out.k = ks[r.index];
      for (int i = 0; i < n && i < k_max_arity; ++i) out.conv[i] = conv_(args[i], ks[r.index]->types[i]);
    }
    if (key == k_uncacheable || entries_.fetch_add(1, std::memory_order_relaxed) >= k_max_entries) {
      thread_local resolved<Fn> uncached;
      uncached = out;
      return uncached;
    }
    entry *e = new entry{key, gen, out, nullptr};
    entry *old = slot.exchange(e, std::memory_order_acq_rel);
    // A reader may still hold the entry this one replaces: it is kept (on a
    // list freed with the operator), never freed under a reader.
    if (old) {
      old->retired_next = retired_.load(std::memory_order_relaxed);
      while (!retired_.compare_exchange_weak(old->retired_next, old, std::memory_order_release,
                                             std::memory_order_relaxed)) {
      }
    }
    return e->result;
  }

  // Introspection (cpud_operator in cpudispatch.h, cpudispatch-info).
  static constexpr cpud_operator make_record(const char *name, const op *self) {
    return cpud_operator{name,       self,         &cb_count,        &cb_function, &cb_types, &cb_selected,
                         &cb_ntargets, &cb_target, k_slots,          &cb_cache,    nullptr};
  }
  static const op &self(const void *p) { return *static_cast<const op *>(p); }
  const kernel<Fn> *kernel_at(int i) const {
    const kernel<Fn> *out = nullptr;
    int j = 0;
    for_each_kernel([&](const kernel<Fn> &k) {
      if (j++ == i) out = &k;
    });
    return out;
  }
  static void copy_text(const std::string &t, char *buf, std::size_t cap) {
    if (!cap) return;
    const std::size_t n = t.size() < cap - 1 ? t.size() : cap - 1;
    t.copy(buf, n);
    buf[n] = 0;
  }
  static int cb_count(const void *p) {
    int n = 0;
    self(p).for_each_kernel([&](const kernel<Fn> &) { ++n; });
    return n;
  }
  static const char *cb_function(const void *p, int i) {
    const kernel<Fn> *k = self(p).kernel_at(i);
    return k ? k->name : nullptr;
  }
  static void cb_types(const void *p, int i, char *buf, std::size_t cap) {
    const kernel<Fn> *k = self(p).kernel_at(i);
    copy_text(k ? signature_text(k->types, k->arity, type_name) : std::string(), buf, cap);
  }
  static const char *cb_selected(const void *p, int i) {
    const kernel<Fn> *k = self(p).kernel_at(i);
    return k ? k->target_name() : nullptr;
  }
  static int cb_ntargets(const void *p, int i) {
    const kernel<Fn> *k = self(p).kernel_at(i);
    int n = 0;
    if (k)
      for (const target_entry<Fn> *e = k->targets(); e->fn; ++e) ++n;
    return n;
  }
  static const char *cb_target(const void *p, int i, int j) {
    const kernel<Fn> *k = self(p).kernel_at(i);
    return k && j >= 0 && j < cb_ntargets(p, i) ? k->targets()[j].name : nullptr;
  }
  static int cb_cache(const void *p, int s, char *args, std::size_t args_cap, char *conv, std::size_t conv_cap,
                      const char **kernel_name) {
    const op &o = self(p);
    if (s < 0 || s >= k_slots) return 0;
    // Entries live as long as the operator (replaced ones are retired, not
    // freed), so reading one here is safe while others resolve.
    const entry *e = o.cache_[s].load(std::memory_order_acquire);
    if (!e || e->generation != o.generation()) return 0;
    dtype types[k_max_arity];
    int n = 0;
    for (int i = 0; i < k_max_arity; ++i) {
      const auto code = static_cast<std::uint16_t>(e->key >> (16 * (k_max_arity - 1 - i)));
      if (code != k_no_type) types[n++] = static_cast<dtype>(code);
    }
    copy_text(signature_text(types, n, type_name), args, args_cap);
    std::string c = e->result.k ? "" : e->result.kind == resolution::ambiguous ? "ambiguous" : "no match";
    for (int i = 0; e->result.k && i < n; ++i) c += std::string(i ? ", " : "") + conversion_name(e->result.conv[i]);
    copy_text(c, conv, conv_cap);
    *kernel_name = e->result.k ? e->result.k->name : nullptr;
    return 1;
  }

  const char *name_;
  const kernel<Fn> *static_ = nullptr;
  int n_static_ = 0;
  casting limit_;
  tie_rule tie_;
  conversion_fn conv_;  // built-in and composite types (types.hpp) unless the operator was given others
  std::atomic<node *> added_{nullptr};
  std::atomic<int> n_added_{0};
  std::atomic<std::uint32_t> generation_{0};
  mutable std::atomic<entry *> cache_[k_slots] = {};
  mutable std::atomic<entry *> retired_{nullptr};
  mutable std::atomic<int> entries_{0};
  mutable cpud_operator record_;
  mutable std::atomic<int> registered_{0};  // int, not bool: riscv64 GCC 12 has no inline 1-byte exchange (libatomic)
};

}  // namespace cpud

namespace cpud {
namespace detail {
template <class... T>
constexpr int count_types(T...) {
  return static_cast<int>(sizeof...(T));
}
}  // namespace detail
}  // namespace cpud

// A kernel<Fn> for the CPUD_DISPATCH object NAME taking the given types.
#define CPUD_KERNEL(NAME, ...)                                                                     \
  ::cpud::kernel<decltype(NAME)::fn_type> {                                                        \
    {__VA_ARGS__}, ::cpud::detail::count_types(__VA_ARGS__), +[] { return NAME.get(); },           \
        +[] { return NAME.selected_name(); }, +[] { return decltype(NAME)::targets(); }, #NAME,   \
        +[](const ::cpud::feature_set &f) { return decltype(NAME)::set_disabled(f); }            \
  }
