// SPDX-License-Identifier: MIT
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
// are cached per argument types and per generation of the kernels and the
// rules, so a new exact kernel wins over a cached conversion; so does a
// conversion rule declared for composite types (types.hpp). The cache grows
// with the working set and never stops caching (docs/typed.md).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "cpudispatch/dispatch.hpp"
#include "cpudispatch/operators.h"
#include "cpudispatch/resolve.hpp"
#include "cpudispatch/types.hpp"

CPUD_NAMESPACE_BEGIN

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

namespace detail {
// The one build of a plain function: its baseline entry and the end.
template <auto F>
struct plain_targets {
  static constexpr target_entry<decltype(F)> entries[] = {{0, F, "baseline", cpud_mask{}},
                                                          {0, nullptr, "none", cpud_mask{}}};
};
}  // namespace detail

// A kernel of a plain function (no ISA builds of its own: its one build is
// "baseline"), e.g. a template instantiated for the types a compile hook
// was asked for: kernel_fn<&add_as<float, int>>("add<f32, i32>", {...}).
template <auto F>
constexpr kernel<decltype(F)> kernel_fn(const char *name, std::initializer_list<dtype> types) {
  kernel<decltype(F)> k{{}, static_cast<int>(types.size()), +[] { return F; }, +[] { return "baseline"; },
                        +[] { return detail::plain_targets<F>::entries; }, name, nullptr};
  int i = 0;
  for (dtype t : types)
    if (i < k_max_arity) k.types[i++] = t;
  if (types.size() > static_cast<std::size_t>(k_max_arity)) k.arity = -1;  // add_kernel refuses it
  return k;
}

// What a fallback kernel is told of the call it stands in for: the
// operator and the argument types the caller gave.
struct call_types {
  const char *op;
  const dtype *types;
  int n;
};

namespace detail {
// A kernel signature R (*)(A...) and its boxed form, the fallback's:
// R (*)(const call_types &, A...).
template <class Fn>
struct fn_parts {
  using boxed = void;  // not a function pointer: no fallback
};
template <class R, class... A>
struct fn_parts<R (*)(A...)> {
  using boxed = R (*)(const call_types &, A...);
};
}  // namespace detail
template <class Fn>
using boxed_fn = typename detail::fn_parts<Fn>::boxed;

// A fallback kernel (PyTorch's backend fallback): runs for every call whose
// types match no kernel, told those types. B is the boxed signature,
// boxed_fn<Fn> of the operator's. CPUD_FALLBACK(NAME) makes one of a
// CPUD_DISPATCH function (its ISA builds select as any), fallback_fn<F>()
// of a plain function.
template <class B>
struct fallback_kernel {
  B (*get)();
  const char *(*target_name)();
  const char *name;
};
template <auto F>
constexpr fallback_kernel<decltype(F)> fallback_fn(const char *name) {
  return {+[] { return F; }, +[] { return "baseline"; }, name};
}

// The result of a resolution: which kernel, each argument's conversion, its
// rating. Empty (false) when nothing matched or the best candidates tied;
// then `fallback` is the operator's fallback kernel where the types matched
// nothing and it has one.
template <class Fn>
struct resolved {
  const kernel<Fn> *k = nullptr;
  conversion conv[k_max_arity] = {};
  rating rank{};
  resolution::kind_t kind = resolution::no_match;
  const fallback_kernel<boxed_fn<Fn>> *fallback = nullptr;
  explicit operator bool() const { return k != nullptr; }
  Fn fn() const { return k->get(); }
  const char *target() const { return k->target_name(); }
};

// When an operator's compile hook runs (set_compile_hook): on a miss (no
// kernel accepts the types within the casting limit, or the best tie), or
// on every call without an exact kernel (Numba's dispatcher while it may
// compile: only an exact match reuses an overload).
enum class compile_on : std::uint8_t { miss, inexact };

namespace detail {
// Not constexpr: reached only when a static kernel table lists one signature
// twice, so a constant-initialised operator (constinit) with such a table
// does not compile; one built at run time resolves nothing and explain()
// names the repeat.
inline void operator_table_lists_a_signature_twice() {}
}  // namespace detail

template <class Fn>
class op {
 public:
  static constexpr int k_max_kernels = 256;  // ranked on the stack, so bounded
  static constexpr int k_max_cache_slots = 4096;

  using fallback_type = fallback_kernel<boxed_fn<Fn>>;

  template <std::size_t N>
  constexpr op(const char *name, const kernel<Fn> (&kernels)[N], casting limit = casting::safe,
               tie_rule tie = tie_rule::error, conversion_fn conv = convert)
      : op(name, kernels, nullptr, limit, tie, conv) {}
  // The same, with a fallback kernel from the start (set_fallback).
  template <std::size_t N>
  constexpr op(const char *name, const kernel<Fn> (&kernels)[N], const fallback_type &fallback,
               casting limit = casting::safe, tie_rule tie = tie_rule::error, conversion_fn conv = convert)
      : op(name, kernels, &fallback, limit, tie, conv) {}
  constexpr explicit op(const char *name, casting limit = casting::safe, tie_rule tie = tie_rule::error,
                        conversion_fn conv = convert)
      : name_(name), limit_(limit), tie_(tie), conv_(conv), record_(make_record(name, this)) {}
  op(const op &) = delete;
  op &operator=(const op &) = delete;
  ~op() {
    if (registered_.load(std::memory_order_acquire)) cpud__unregister_operator(&record_);
    free_table(table_.load(std::memory_order_acquire));
    for (table *t = retired_.load(std::memory_order_acquire); t;) {
      table *next = t->retired_next;
      free_table(t);
      t = next;
    }
    free_results();  // before the kernels' nodes: a result's kernel gives its number of cells
    for (node *n = added_.load(std::memory_order_acquire); n;) {
      node *next = n->next.load(std::memory_order_relaxed);
      delete n;
      n = next;
    }
    if (fallback_node *f = fallback_.load(std::memory_order_acquire); f && f != &static_fallback_) delete f;
    for (hook_node *h = retired_hooks_; h;) {
      hook_node *older = h->older;
      delete h;
      h = older;
    }
  }

  const char *name() const { return name_; }

  // Adds a kernel at run time, after every kernel the operator has (ties
  // under tie_rule::first go to the earlier one). Readers never wait: the
  // kernel is published with one atomic store, and cached results made
  // before it stop counting. False, and nothing added, when the operator
  // already has a kernel of these parameter types (that one stays, as
  // Numba's compile() returns the overload it has) or k_max_kernels kernels.
  bool add_kernel(const kernel<Fn> &k) {
    if (k.arity < 0 || k.arity > k_max_arity) return false;
    const writer_lock lock(add_lock_);  // writers only: one duplicate check at a time
    if (n_static_ + n_added_ >= k_max_kernels) return false;
    bool repeat = false;
    for_each_kernel([&](const kernel<Fn> &o) { repeat = repeat || same_signature(o, k); });
    if (repeat) return false;
    node *n = new node{k, {nullptr}};
    (tail_ ? tail_->next : added_).store(n, std::memory_order_release);
    tail_ = n;
    ++n_added_;
    generation_.fetch_add(1, std::memory_order_acq_rel);
    return true;
  }

  // The kernel for these argument types. Results are cached per argument
  // types (all of them, and how many) and per generation of the kernels and
  // the conversion rules; a repeated signature costs a lookup. The
  // reference stays valid while the operator lives.
  const resolved<Fn> &resolve(std::initializer_list<dtype> args) const { return resolve(args.begin(), args.size()); }
  const resolved<Fn> &resolve(const dtype *args, std::size_t n) const {
    if (n > static_cast<std::size_t>(k_max_arity)) return rank(args, static_cast<int>(n));  // no kernel takes that many
    const std::uint64_t key = pack(args, n);
    const std::uint64_t gen = generation();
    table *t = table_.load(std::memory_order_acquire);
    const std::size_t home = t->index(key, n);
    if (const resolved<Fn> *r = t->slots[home].find(key, n, gen)) return *r;
    return miss(args, n, key, gen, t, home);
  }

  // The fallback kernel (PyTorch's backend fallback, one per operator as
  // there one per key): from now on every call whose types match no kernel
  // resolves to it (resolved::fallback, and call() runs it) instead of to
  // no match; an ambiguity stays an error. A kernel registered later for
  // some types still wins for them. False, and nothing changes, when the
  // operator has one already (PyTorch refuses a second fallback for a key).
  // Readers never wait; cached results made before it stop counting.
  bool set_fallback(const fallback_type &f) {
    const writer_lock lock(add_lock_);
    if (fallback_.load(std::memory_order_acquire)) return false;
    fallback_node *n = new fallback_node{f, resolved<Fn>{}, nullptr};
    n->result.fallback = &n->k;
    fallback_.store(n, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_acq_rel);
    return true;
  }
  const fallback_type *fallback() const {
    const fallback_node *n = fallback_.load(std::memory_order_acquire);
    return n ? &n->k : nullptr;
  }

  // Compile on a miss (Numba's dispatcher compiling a specialisation for
  // types no overload matches exactly): `hook(op, types, n, ctx)` runs when
  // a resolution misses (compile_on::miss) or is not exact
  // (compile_on::inexact) and may register kernels (add_kernel); if it
  // returns true the call resolves again, and whatever it resolves to is
  // cached like any other result. Hooks of one operator run one at a time
  // (a racing miss waits, then finds what the hook registered); a hook that
  // resolves on its own operator gets the plain ranking there. A declined
  // miss (false) is cached too: the hook is asked again after the next
  // registration or declaration. Null removes the hook. Replaces the one
  // before, returns nothing; cached results made before it stop counting.
  using compile_hook = bool (*)(op &self, const dtype *types, std::size_t n, void *ctx);
  void set_compile_hook(compile_hook hook, void *ctx = nullptr, compile_on when = compile_on::miss) {
    const writer_lock lock(add_lock_);
    hook_node *n = hook ? new hook_node{hook, ctx, when, retired_hooks_} : nullptr;
    if (n) retired_hooks_ = n;  // freed with the operator: a resolving thread may hold it
    hook_.store(n, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_acq_rel);
  }

  // Resolves and calls, passing the arguments as they are: the kernel's
  // selected build, or the fallback told the types. Use it where the
  // kernels take the arguments unconverted (casting::exact, or kernels that
  // convert themselves); else convert as resolve()'s r.conv says. With no
  // kernel and no fallback (or a tie) it prints explain()'s line and aborts,
  // as a dispatched call with no target does.
  template <class... Args>
  decltype(auto) call(std::initializer_list<dtype> types, Args &&...args) const {
    return call(types.begin(), types.size(), static_cast<Args &&>(args)...);
  }
  template <class... Args>
  decltype(auto) call(const dtype *types, std::size_t n, Args &&...args) const {
    const resolved<Fn> &r = resolve(types, n);
    if (r.k) return r.k->get()(static_cast<Args &&>(args)...);
    if (!r.fallback) no_kernel(types, n);
    return r.fallback->get()(call_types{name_, types, static_cast<int>(n)}, static_cast<Args &&>(args)...);
  }

  // Why resolve() came back empty, naming the operator and every candidate.
  std::string explain(std::initializer_list<dtype> args) const { return explain(args.begin(), args.size()); }
  std::string explain(const dtype *args, std::size_t n) const {
    signature sigs[k_max_kernels];
    const kernel<Fn> *ks[k_max_kernels];
    const int nc = candidates(sigs, ks);
    if (repeat_ >= 0) {
      const kernel<Fn> &k = static_[repeat_];
      int first = 0;
      while (!same_signature(static_[first], k)) ++first;
      return std::string("operator '") + name_ + "' lists " + signature_text(k.types, k.arity, type_name) +
             " twice in its kernel table (" + static_[first].name + " and " + k.name + "): it resolves no call";
    }
    const resolution r = cpud::resolve(args, static_cast<int>(n), sigs, nc, limit_, tie_, conv_);
    return cpud::explain(name_, args, static_cast<int>(n), sigs, nc, r, limit_, conv_, type_name);
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

  // Every kernel in the order resolution sees them: the static table, then
  // the added ones in the order they were added.
  template <class F>
  void for_each_kernel(F f) const {
    for (int i = 0; i < n_static_; ++i) f(static_[i]);
    for (node *n = added_.load(std::memory_order_acquire); n; n = n->next.load(std::memory_order_acquire)) f(n->k);
  }

 private:
  template <std::size_t N>
  constexpr op(const char *name, const kernel<Fn> (&kernels)[N], const fallback_type *fallback, casting limit,
               tie_rule tie, conversion_fn conv)
      : name_(name), static_(kernels), n_static_(static_cast<int>(N)), limit_(limit), tie_(tie), conv_(conv),
        repeat_(first_repeat(kernels, static_cast<int>(N))),
        static_fallback_{fallback ? *fallback : fallback_type{}, resolved<Fn>{}, nullptr},
        fallback_(fallback ? &static_fallback_ : nullptr), record_(make_record(name, this)) {
    static_assert(N <= k_max_kernels, "an operator has at most k_max_kernels kernels");
    if (repeat_ >= 0) detail::operator_table_lists_a_signature_twice();
    static_fallback_.result.fallback = &static_fallback_.k;
  }
  struct node {
    kernel<Fn> k;
    std::atomic<node *> next;
  };
  // The fallback and the one result that names it (what every miss
  // resolves to while it is the operator's).
  struct fallback_node {
    fallback_type k;
    resolved<Fn> result;
    fallback_node *retired_next;
  };
  struct hook_node {
    compile_hook hook;
    void *ctx;
    compile_on when;
    hook_node *older;  // every hook ever set, freed with the operator
  };
  [[noreturn]] CPUD__COLD_FN void no_kernel(const dtype *types, std::size_t n) const {
    cpud__no_kernel(explain(types, n).c_str());
  }
  // Registrations are rare and short (a scan of at most 256 signatures): a
  // spin lock among writers; readers never take it. (No std::this_thread:
  // MinGW's win32 thread model has none.)
  struct writer_lock {
    std::atomic<int> &flag;
    explicit writer_lock(std::atomic<int> &f) : flag(f) {
      while (flag.exchange(1, std::memory_order_acquire))
        while (flag.load(std::memory_order_relaxed)) {
        }
    }
    ~writer_lock() { flag.store(0, std::memory_order_release); }
    writer_lock(const writer_lock &) = delete;
    writer_lock &operator=(const writer_lock &) = delete;
  };

  // The cache: open addressing (k_probes slots from a hash of the key), a
  // table that doubles when a key finds its slots all taken by current
  // entries, up to k_max_cache_slots; past that, a new entry replaces the
  // one in its first slot. Each slot is a sequence lock over plain words: a
  // reader copies them and accepts the copy when the sequence number was
  // even and unchanged, so nothing a reader may hold is ever freed.
  // Entries of an older generation are free slots.
  static constexpr int k_inline_slots = 32;
  static constexpr int k_probes = 8;
  static constexpr unsigned log2(std::size_t n) { return n > 1 ? 1 + log2(n / 2) : 0; }
  struct slot {
    std::atomic<std::uint32_t> seq{0};  // odd while a writer fills the slot
    std::atomic<std::uint32_t> arity{0};
    std::atomic<std::uint64_t> key{0};
    std::atomic<std::uint64_t> gen{0};
    std::atomic<const resolved<Fn> *> result{nullptr};  // null: never filled

    struct copy {
      std::uint32_t seq, arity;
      std::uint64_t key, gen;
      const resolved<Fn> *result;
    };
    // False when a writer was busy with the slot meanwhile.
    bool read(copy *c) const {
      c->seq = seq.load(std::memory_order_acquire);
      c->arity = arity.load(std::memory_order_relaxed);
      c->key = key.load(std::memory_order_relaxed);
      c->gen = gen.load(std::memory_order_relaxed);
      c->result = result.load(std::memory_order_relaxed);
      std::atomic_thread_fence(std::memory_order_acquire);
      return !(c->seq & 1) && seq.load(std::memory_order_relaxed) == c->seq;
    }
    const resolved<Fn> *find(std::uint64_t k, std::size_t n, std::uint64_t g) const {
      copy c;
      return read(&c) && c.result && c.key == k && c.arity == n && c.gen == g ? c.result : nullptr;
    }
    // Fills the slot if it still holds what `was` read; false if another
    // writer came first.
    bool write(const copy &was, std::uint64_t k, std::size_t n, std::uint64_t g, const resolved<Fn> *r) {
      std::uint32_t s = was.seq;
      if (!seq.compare_exchange_strong(s, s + 1, std::memory_order_acquire, std::memory_order_relaxed)) return false;
      std::atomic_thread_fence(std::memory_order_release);
      arity.store(static_cast<std::uint32_t>(n), std::memory_order_relaxed);
      key.store(k, std::memory_order_relaxed);
      gen.store(g, std::memory_order_relaxed);
      result.store(r, std::memory_order_relaxed);
      seq.store(s + 2, std::memory_order_release);
      return true;
    }
  };
  struct table {
    std::size_t mask;
    unsigned shift;  // 64 - log2(slots)
    slot *slots;
    table *retired_next;
    std::size_t index(std::uint64_t key, std::size_t n) const {
      // Folded first: keys differ in whole 16-bit places, and a product's
      // top bits would otherwise see only the low bits of a high place.
      return static_cast<std::size_t>(((key ^ (key >> 23) ^ n) * 0x9e3779b97f4a7c15ull) >> shift);
    }
  };

  // Up to four 16-bit typecodes in one 64-bit key, the first in the low
  // bits; unused places are 0. The argument count is compared too, so (a)
  // and (a, int8 or any code) never share an entry.
  static std::uint64_t pack(const dtype *args, std::size_t n) {
    std::uint64_t key = 0;
    for (std::size_t i = 0; i < n; ++i) key |= std::uint64_t{static_cast<std::uint16_t>(args[i])} << (16 * i);
    return key;
  }

  std::uint64_t generation() const {
    return std::uint64_t{generation_.load(std::memory_order_acquire)} << 32 |
           rules_generation.load(std::memory_order_acquire);
  }

  static constexpr bool same_signature(const kernel<Fn> &a, const kernel<Fn> &b) {
    if (a.arity != b.arity) return false;
    for (int i = 0; i < a.arity; ++i)
      if (a.types[i] != b.types[i]) return false;
    return true;
  }
  // The index of the first kernel whose signature an earlier one has, or -1.
  static constexpr int first_repeat(const kernel<Fn> *ks, int n) {
    for (int j = 1; j < n; ++j)
      for (int i = 0; i < j; ++i)
        if (same_signature(ks[i], ks[j])) return j;
    return -1;
  }

  int candidates(signature *sigs, const kernel<Fn> **ks) const {
    int n = 0;
    for_each_kernel([&](const kernel<Fn> &k) {
      if (n < k_max_kernels) {
        sigs[n] = {k.types, k.arity};
        ks[n++] = &k;
      }
    });
    return n;
  }

  // Ranks every kernel (uncached), running the compile hook where it
  // wants to, and returns the operator's one copy of the result; *gen
  // becomes the generation the answer was made for (the hook registers).
  const resolved<Fn> &rank(const dtype *args, int n, std::uint64_t *gen) const {
    const resolved<Fn> &r = rank_plain(args, n);
    const hook_node *h = hook_.load(std::memory_order_acquire);
    if (!h || !hook_wants(h->when, r)) return r;
    return compile(args, n, gen);
  }
  static bool hook_wants(compile_on when, const resolved<Fn> &r) {
    if (!r.k) return true;
    if (when == compile_on::miss) return false;
    for (int i = 0; i < r.k->arity; ++i)
      if (r.conv[i] != conversion::exact) return true;
    return false;
  }
  // The hook's turn: one at a time per operator; the ranking is made again
  // under the lock (another thread's hook may have registered the kernel),
  // the hook runs if it is still wanted, then the final ranking.
  CPUD__COLD_FN const resolved<Fn> &compile(const dtype *args, int n, std::uint64_t *gen) const {
    static thread_local char token;  // this thread, for a hook that resolves on its own operator
    if (compiling_.load(std::memory_order_acquire) == &token) return rank_plain(args, n);
    for (const void *none = nullptr; !compiling_.compare_exchange_weak(none, &token, std::memory_order_acquire,
                                                                       std::memory_order_relaxed);
         none = nullptr) {
    }
    *gen = generation();
    const resolved<Fn> *r = &rank_plain(args, n);
    const hook_node *h = hook_.load(std::memory_order_acquire);
    if (h && hook_wants(h->when, *r) &&
        h->hook(const_cast<op &>(*this), args, static_cast<std::size_t>(n), h->ctx)) {
      *gen = generation();
      r = &rank_plain(args, n);
    }
    compiling_.store(nullptr, std::memory_order_release);
    return *r;
  }
  const resolved<Fn> &rank(const dtype *args, int n) const {
    std::uint64_t gen = 0;
    return rank(args, n, &gen);
  }
  const resolved<Fn> &rank_plain(const dtype *args, int n) const {
    // Listed for introspection from the first resolution on.
    if (!registered_.load(std::memory_order_acquire) && !registered_.exchange(1, std::memory_order_acq_rel))
      cpud__register_operator(&record_);
    resolved<Fn> out;
    out.kind = resolution::ambiguous;  // a table with a repeated signature resolves nothing
    int index = -1;
    if (repeat_ < 0) {
      signature sigs[k_max_kernels];
      const kernel<Fn> *ks[k_max_kernels];
      const int nc = candidates(sigs, ks);
      const resolution r = cpud::resolve(args, n, sigs, nc, limit_, tie_, conv_);
      out.kind = r.kind;
      out.rank = r.rank;
      if (r.kind == resolution::ok) {
        index = r.index;
        out.k = ks[r.index];
        for (int i = 0; i < n && i < k_max_arity; ++i) out.conv[i] = conv_(args[i], ks[r.index]->types[i]);
      }
    }
    return *intern(out, index);
  }

  const resolved<Fn> &miss(const dtype *args, std::size_t n, std::uint64_t key, std::uint64_t gen, table *t,
                           std::size_t home) const {
    for (int p = 1; p < k_probes; ++p)
      if (const resolved<Fn> *r = t->slots[(home + p) & t->mask].find(key, n, gen)) return *r;
    const resolved<Fn> &r = rank(args, static_cast<int>(n), &gen);
    // Kept only if nothing changed meanwhile (else it may be stale already).
    if (generation() == gen) insert(t, key, n, gen, &r);
    return r;
  }

  void insert(table *t, std::uint64_t key, std::size_t n, std::uint64_t gen, const resolved<Fn> *r) const {
    for (;;) {
      const std::size_t home = t->index(key, n);
      for (int p = 0; p < k_probes; ++p) {
        slot &s = t->slots[(home + p) & t->mask];
        typename slot::copy c;
        if (!s.read(&c)) continue;  // a writer is there
        if (c.result && c.gen == gen && !(c.key == key && c.arity == n)) continue;  // another current entry
        s.write(c, key, n, gen, r);  // a lost race leaves the other writer's entry: fine
        return;
      }
      // Every slot of this key holds a current entry.
      if (t->mask + 1 >= static_cast<std::size_t>(k_max_cache_slots)) {
        slot &s = t->slots[home];
        typename slot::copy c;
        if (s.read(&c)) s.write(c, key, n, gen, r);
        return;
      }
      t = grow(t, gen);
    }
  }

  // A table twice the size holding t's current entries, published unless
  // another thread published one first (then that one); t is kept, retired,
  // until the operator goes: a reader may still be in it.
  table *grow(table *t, std::uint64_t gen) const {
    const std::size_t size = (t->mask + 1) * 2;
    table *bigger = new table{size - 1, t->shift - 1, new slot[size], nullptr};
    for (std::size_t i = 0; i <= t->mask; ++i) {
      typename slot::copy c;
      if (!t->slots[i].read(&c) || !c.result || c.gen != gen) continue;
      const std::size_t home = bigger->index(c.key, c.arity);
      for (int p = 0; p < k_probes; ++p) {
        slot &s = bigger->slots[(home + p) & bigger->mask];
        if (!s.result.load(std::memory_order_relaxed)) {
          typename slot::copy empty;
          s.read(&empty);
          s.write(empty, c.key, c.arity, c.gen, c.result);
          break;
        }
      }
    }
    table *expected = t;
    if (!table_.compare_exchange_strong(expected, bigger, std::memory_order_acq_rel, std::memory_order_acquire)) {
      free_table(bigger);
      return expected;
    }
    if (t != &inline_table_) {
      t->retired_next = retired_.load(std::memory_order_relaxed);
      while (!retired_.compare_exchange_weak(t->retired_next, t, std::memory_order_release, std::memory_order_relaxed)) {
      }
    }
    return bigger;
  }
  void free_table(table *t) const {
    if (t && t != &inline_table_) {
      delete[] t->slots;
      delete t;
    }
  }

  // Results, one copy of each distinct one per operator, never freed while
  // the operator lives: what resolve() returns a reference to and what the
  // cache's slots point at. A result is fixed by its kernel and the
  // conversion of each argument (4 kinds ^ arity), or by its failure (no
  // match, or a tie at a rating), so each has its own place, found by
  // indexing and filled once: at most 4^4 per kernel, however many distinct
  // calls there are.
  using result_cell = std::atomic<const resolved<Fn> *>;
  static constexpr int k_max_rank = k_max_arity + 1;  // counts 0..4 of each kind
  struct result_store {
    std::atomic<result_cell *> by_kernel[k_max_kernels];  // 4^arity cells each, made on first use
    result_cell failed[1 + k_max_rank * k_max_rank * k_max_rank];  // no match; a tie at each rating
  };
  // What `a` points at, made by make() and published if it was null (if
  // another thread published first, discard(mine) and that one).
  template <class T, class Make, class Discard>
  static T *get_or_make(std::atomic<T *> &a, Make make, Discard discard) {
    T *have = a.load(std::memory_order_acquire);
    if (have) return have;
    T *mine = make();
    if (a.compare_exchange_strong(have, mine, std::memory_order_acq_rel, std::memory_order_acquire)) return mine;
    discard(mine);
    return have;
  }
  const resolved<Fn> *intern(const resolved<Fn> &r, int kernel_index) const {
    result_store *st = get_or_make(store_, [] { return new result_store{}; }, [](result_store *x) { delete x; });
    result_cell *cell;
    if (r.k) {
      const int arity = r.k->arity;
      result_cell *cells = get_or_make(
          st->by_kernel[kernel_index], [arity] { return new result_cell[1u << (2 * arity)](); },
          [](result_cell *x) { delete[] x; });
      int combo = 0;
      for (int i = arity - 1; i >= 0; --i) combo = combo * 4 + static_cast<int>(r.conv[i]);
      cell = &cells[combo];
    } else if (r.kind == resolution::no_match) {
      if (fallback_node *f = fallback_.load(std::memory_order_acquire)) return &f->result;
      cell = &st->failed[0];
    } else {
      cell = &st->failed[1 + (r.rank.unsafe * k_max_rank + r.rank.safe) * k_max_rank + r.rank.promote];
    }
    return get_or_make(*cell, [&r] { return new resolved<Fn>(r); }, [](const resolved<Fn> *x) { delete x; });
  }
  void free_results() {
    result_store *st = store_.load(std::memory_order_acquire);
    if (!st) return;
    for (int i = 0; i < k_max_kernels; ++i)
      if (result_cell *cells = st->by_kernel[i].load(std::memory_order_acquire)) {
        const kernel<Fn> *k = kernel_at(i);
        for (int c = 0; k && c < (1 << (2 * k->arity)); ++c) delete cells[c].load(std::memory_order_acquire);
        delete[] cells;
      }
    for (result_cell &c : st->failed) delete c.load(std::memory_order_acquire);
    delete st;
  }

  // Introspection (cpud_operator in operators.h, cpudispatch-info).
  static constexpr cpud_operator make_record(const char *name, const op *self) {
    return cpud_operator{name,       self,         &cb_count,          &cb_function, &cb_types,    &cb_selected,
                         &cb_ntargets, &cb_target, k_max_cache_slots, &cb_cache,    &cb_fallback, &cb_compile,
                         nullptr};
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
  static const char *cb_fallback(const void *p) {
    const fallback_type *f = self(p).fallback();
    return f ? f->name : nullptr;
  }
  static int cb_compile(const void *p) {
    const hook_node *h = self(p).hook_.load(std::memory_order_acquire);
    return h ? static_cast<int>(h->when) : -1;
  }
  static int cb_cache(const void *p, int s, char *args, std::size_t args_cap, char *conv, std::size_t conv_cap,
                      const char **kernel_name) {
    const op &o = self(p);
    const table *t = o.table_.load(std::memory_order_acquire);
    typename slot::copy c;
    // Slots are never freed while the operator lives, results neither.
    if (s < 0 || static_cast<std::size_t>(s) > t->mask || !t->slots[s].read(&c) || !c.result ||
        c.gen != o.generation())
      return 0;
    dtype types[k_max_arity];
    const int n = static_cast<int>(c.arity);
    for (int i = 0; i < n; ++i) types[i] = static_cast<dtype>(static_cast<std::uint16_t>(c.key >> (16 * i)));
    copy_text(signature_text(types, n, type_name), args, args_cap);
    const resolved<Fn> &r = *c.result;
    std::string text = r.k ? "" : r.fallback ? "fallback" : r.kind == resolution::ambiguous ? "ambiguous" : "no match";
    for (int i = 0; r.k && i < n; ++i) text += std::string(i ? ", " : "") + conversion_name(r.conv[i]);
    copy_text(text, conv, conv_cap);
    *kernel_name = r.k ? r.k->name : r.fallback ? r.fallback->name : nullptr;
    return 1;
  }

  const char *name_;
  const kernel<Fn> *static_ = nullptr;
  int n_static_ = 0;
  casting limit_;
  tie_rule tie_;
  conversion_fn conv_;  // built-in and composite types (types.hpp) unless the operator was given others
  int repeat_ = -1;     // a static kernel repeating an earlier one's signature
  std::atomic<node *> added_{nullptr};
  node *tail_ = nullptr;  // under add_lock_
  int n_added_ = 0;       // under add_lock_
  std::atomic<int> add_lock_{0};  // not std::mutex: MinGW's has no constexpr constructor (constinit)
  fallback_node static_fallback_{};  // the constructor's fallback, if it was given one
  std::atomic<fallback_node *> fallback_{nullptr};
  std::atomic<const hook_node *> hook_{nullptr};
  hook_node *retired_hooks_ = nullptr;  // under add_lock_
  mutable std::atomic<const void *> compiling_{nullptr};  // the thread whose hook runs
  std::atomic<std::uint32_t> generation_{0};
  mutable slot inline_slots_[k_inline_slots] = {};
  mutable table inline_table_{k_inline_slots - 1, 64 - log2(k_inline_slots), inline_slots_, nullptr};
  mutable std::atomic<table *> table_{&inline_table_};
  mutable std::atomic<table *> retired_{nullptr};
  mutable std::atomic<result_store *> store_{nullptr};
  mutable cpud_operator record_;
  mutable std::atomic<int> registered_{0};  // int, not bool: riscv64 GCC 12 has no inline 1-byte exchange (libatomic)
};

CPUD_NAMESPACE_END  // namespace cpud

CPUD_NAMESPACE_BEGIN
namespace detail {
template <class... T>
constexpr int count_types(T...) {
  return static_cast<int>(sizeof...(T));
}
}  // namespace detail
CPUD_NAMESPACE_END  // namespace cpud

// A kernel<Fn> for the CPUD_DISPATCH object NAME taking the given types.
#define CPUD_KERNEL(NAME, ...)                                                                     \
  ::cpud::kernel<decltype(NAME)::fn_type> {                                                        \
    {__VA_ARGS__}, ::cpud::detail::count_types(__VA_ARGS__), +[] { return NAME.get(); },           \
        +[] { return NAME.selected_name(); }, +[] { return decltype(NAME)::targets(); }, #NAME,   \
        +[](const ::cpud::feature_set &f) { return decltype(NAME)::set_disabled(f); }            \
  }

// A fallback_kernel for the CPUD_DISPATCH object NAME, whose signature is
// the operator's boxed one (boxed_fn<Fn>: const cpud::call_types & first).
#define CPUD_FALLBACK(NAME)                                                                                  \
  ::cpud::fallback_kernel<decltype(NAME)::fn_type> {                                                         \
    +[] { return NAME.get(); }, +[] { return NAME.selected_name(); }, #NAME                                  \
  }
