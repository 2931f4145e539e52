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

  template <std::size_t N>
  constexpr op(const char *name, const kernel<Fn> (&kernels)[N], casting limit = casting::safe,
               tie_rule tie = tie_rule::error, conversion_fn conv = convert)
      : name_(name), static_(kernels), n_static_(static_cast<int>(N)), limit_(limit), tie_(tie), conv_(conv),
        repeat_(first_repeat(kernels, static_cast<int>(N))), record_(make_record(name, this)) {
    static_assert(N <= k_max_kernels, "an operator has at most k_max_kernels kernels");
    if (repeat_ >= 0) detail::operator_table_lists_a_signature_twice();
  }
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
  struct node {
    kernel<Fn> k;
    std::atomic<node *> next;
  };
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

  // Ranks every kernel (uncached) and returns the operator's one copy of
  // the result.
  const resolved<Fn> &rank(const dtype *args, int n) const {
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
    const resolved<Fn> &r = rank(args, static_cast<int>(n));
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
    return cpud_operator{name,       self,         &cb_count,          &cb_function, &cb_types, &cb_selected,
                         &cb_ntargets, &cb_target, k_max_cache_slots, &cb_cache,    nullptr};
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
    std::string text = r.k ? "" : r.kind == resolution::ambiguous ? "ambiguous" : "no match";
    for (int i = 0; r.k && i < n; ++i) text += std::string(i ? ", " : "") + conversion_name(r.conv[i]);
    copy_text(text, conv, conv_cap);
    *kernel_name = r.k ? r.k->name : nullptr;
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
