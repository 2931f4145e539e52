// SPDX-License-Identifier: MIT
// Composite types: a library's own descriptors (element type x channels x
// layout, ...) interned through a fingerprint, a short byte string, into
// typecodes from k_builtin_dtypes up, with conversion rules of its own
// (docs/typed.md). One registry per shared object (hidden, like all of
// cpudispatch); interning and lookups never block, declaring rules takes a
// lock and publishes a new closed rule set.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "cpudispatch/cpudispatch.h"
#include "cpudispatch/dtype.hpp"
#include "cpudispatch/resolve.hpp"

CPUD_NAMESPACE_BEGIN

// Bumped by every rule a registry declares: operators' cached resolutions
// made before it stop counting.
CPUD_HIDDEN inline std::atomic<std::uint32_t> rules_generation{0};

class CPUD_HIDDEN type_registry {
 public:
  static constexpr int k_capacity = 4096;  // composite types per registry
  static constexpr std::size_t k_max_fingerprint = 64;
  static constexpr std::size_t k_max_name = 63;

  // The typecode of the type this fingerprint describes: the same bytes give
  // the same code, whichever thread asks first. dtype{0xffff} when the
  // registry is full or the fingerprint too long.
  dtype intern(const void *fp, std::size_t len) {
    if (len > k_max_fingerprint) return k_invalid;
    const std::uint64_t h = hash(fp, len);
    for (std::size_t probe = 0; probe < k_slots; ++probe) {
      std::atomic<record *> &slot = slots_[(h + probe) & (k_slots - 1)];
      record *r = slot.load(std::memory_order_acquire);
      if (!r) {
        const int n = next_.fetch_add(1, std::memory_order_relaxed);
        if (n >= k_capacity) return k_invalid;
        record *mine = new record{h, len, {}, static_cast<dtype>(k_builtin_dtypes + n)};
        std::memcpy(mine->bytes, fp, len);
        if (slot.compare_exchange_strong(r, mine, std::memory_order_acq_rel, std::memory_order_acquire))
          return mine->code;
        delete mine;  // another thread filled the slot first: look at what it put there
        // The code n is lost; codes stay unique, only the capacity shrinks.
      }
      if (r->hash == h && r->len == len && std::memcmp(r->bytes, fp, len) == 0) return r->code;
    }
    return k_invalid;
  }
  dtype intern(const std::string &fp) { return intern(fp.data(), fp.size()); }

  // Declares that `from` converts to `to` with `kind` (either may be a
  // built-in type); the rule set is closed again, chains included. False,
  // and nothing declared, for a code this registry never gave out, a rule
  // between two built-in types (their matrix is fixed) or kind `none`.
  bool declare(dtype from, dtype to, conversion kind) {
    if (!known(from) || !known(to) || kind == conversion::none ||
        (static_cast<int>(from) < k_builtin_dtypes && static_cast<int>(to) < k_builtin_dtypes))
      return false;
    std::lock_guard<std::mutex> lock(write_);
    rules *cur = rules_.load(std::memory_order_acquire);
    rules *next = new rules(cur ? *cur : rules{});
    next->add(from, to, kind);
    rules_.store(next, std::memory_order_release);
    rules_generation.fetch_add(1, std::memory_order_acq_rel);
    if (cur) retired_.push_back(cur);  // a reader may still hold it
    return true;
  }

  // Names a composite type in messages and introspection ("rgb8 C-order"
  // instead of "type#14"); a later call renames. False, and nothing named,
  // for a built-in type, a code this registry never gave out, or a name
  // longer than k_max_name bytes.
  bool set_name(dtype t, const std::string &name) {
    if (static_cast<int>(t) < k_builtin_dtypes || !known(t) || name.size() > k_max_name) return false;
    std::lock_guard<std::mutex> lock(write_);
    const std::string *old = names_[static_cast<int>(t) - k_builtin_dtypes].exchange(new std::string(name));
    if (old) retired_names_.push_back(old);  // a reader may still hold it
    return true;
  }
  // A type's name: built-in names, a composite's set_name, else "type#CODE".
  std::string name(dtype t) const {
    const int c = static_cast<int>(t);
    if (c >= k_builtin_dtypes && known(t))
      if (const std::string *n = names_[c - k_builtin_dtypes].load(std::memory_order_acquire)) return *n;
    return type_text(t);
  }

  // The conversion between any two typecodes: built-in pairs from the
  // built-in matrix, others from the declared rules (none if undeclared).
  conversion convert(dtype from, dtype to) const {
    if (from == to) return conversion::exact;
    if (static_cast<int>(from) < k_builtin_dtypes && static_cast<int>(to) < k_builtin_dtypes)
      return can_convert(from, to);
    const rules *r = rules_.load(std::memory_order_acquire);
    return r ? r->get(from, to) : conversion::none;
  }

  ~type_registry() {
    for (auto &s : slots_) delete s.load(std::memory_order_acquire);
    delete rules_.load(std::memory_order_acquire);
    for (rules *r : retired_) delete r;
    for (auto &n : names_) delete n.load(std::memory_order_acquire);
    for (const std::string *n : retired_names_) delete n;
  }

  static constexpr dtype k_invalid = static_cast<dtype>(0xffff);

 private:
  static constexpr std::size_t k_slots = 2 * k_capacity;  // a power of two, half full at most

  struct record {
    std::uint64_t hash;
    std::size_t len;
    unsigned char bytes[k_max_fingerprint];
    dtype code;
  };

  // Declared rules, closed: every pair reachable through a chain of rules
  // (built-in conversions included) with the strictest chain's kind.
  struct rules {
    std::vector<dtype> from, to;
    std::vector<conversion> kind;
    conversion get(dtype a, dtype b) const {
      for (std::size_t i = 0; i < from.size(); ++i)
        if (from[i] == a && to[i] == b) return kind[i];
      return conversion::none;
    }
    void put(dtype a, dtype b, conversion k, bool *changed) {
      for (std::size_t i = 0; i < from.size(); ++i)
        if (from[i] == a && to[i] == b) {
          if (k < kind[i]) {
            kind[i] = k;
            *changed = true;
          }
          return;
        }
      from.push_back(a);
      to.push_back(b);
      kind.push_back(k);
      *changed = true;
    }
    conversion any(dtype a, dtype b) const {
      if (a == b) return conversion::exact;
      if (static_cast<int>(a) < k_builtin_dtypes && static_cast<int>(b) < k_builtin_dtypes) return can_convert(a, b);
      return get(a, b);
    }
    void add(dtype a, dtype b, conversion k) {
      bool changed = false;
      put(a, b, k, &changed);
      // Close: extend every known pair through every other until nothing
      // improves (the rule sets are small; declaring is not a hot path).
      while (changed) {
        changed = false;
        std::vector<dtype> nodes;
        for (std::size_t i = 0; i < from.size(); ++i)
          for (dtype d : {from[i], to[i]}) {
            bool seen = false;
            for (dtype x : nodes) seen = seen || x == d;
            if (!seen) nodes.push_back(d);
          }
        for (int i = 0; i < k_builtin_dtypes; ++i) {
          bool seen = false;
          for (dtype x : nodes) seen = seen || x == static_cast<dtype>(i);
          if (!seen) nodes.push_back(static_cast<dtype>(i));
        }
        for (dtype x : nodes)
          for (dtype y : nodes)
            for (dtype z : nodes) {
              if (x == z || (static_cast<int>(x) < k_builtin_dtypes && static_cast<int>(z) < k_builtin_dtypes))
                continue;
              const conversion xy = any(x, y), yz = any(y, z);
              if (xy == conversion::none || yz == conversion::none) continue;
              put(x, z, xy < yz ? yz : xy, &changed);
            }
      }
    }
  };

  bool known(dtype t) const {
    const int c = static_cast<int>(t);
    return c < k_builtin_dtypes || (t != k_invalid && c - k_builtin_dtypes < next_.load(std::memory_order_acquire));
  }

  static std::uint64_t hash(const void *p, std::size_t n) {  // FNV-1a
    std::uint64_t h = 0xcbf29ce484222325ull;
    const unsigned char *b = static_cast<const unsigned char *>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
  }

  std::atomic<record *> slots_[k_slots] = {};
  std::atomic<int> next_{0};
  std::atomic<rules *> rules_{nullptr};
  std::mutex write_;
  std::vector<rules *> retired_;
  std::atomic<const std::string *> names_[k_capacity] = {};
  std::vector<const std::string *> retired_names_;
};

// The registry of this shared object, and the conversion operators use by
// default: built-in and composite types alike.
CPUD_HIDDEN inline type_registry &types() {
  static type_registry r;
  return r;
}
inline conversion convert(dtype from, dtype to) { return types().convert(from, to); }
// How operators name types in errors and introspection.
inline std::string type_name(dtype t) { return types().name(t); }

CPUD_NAMESPACE_END  // namespace cpud
