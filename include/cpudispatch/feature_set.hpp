/* SPDX-License-Identifier: MIT */
/*
 * cpudispatch: C++'s feature_set, a cpud_mask with members and set
 * operators (| & ~ ==), and CPUD_BIT(F) as one. cpudispatch.h includes it
 * in C++; all constexpr, no run-time code.
 */
#ifndef CPUDISPATCH_FEATURE_SET_HPP_
#define CPUDISPATCH_FEATURE_SET_HPP_

#include <cstdint>

#include "cpudispatch/cpudispatch.h"

// These are inline functions, and an inline function compiled into objects
// with different flags is one symbol to the linker, which keeps any one
// copy. In a consumer, cpudispatch-check gives each dispatch source's
// target builds their own copies (test/hazards); the runtime is C and
// defines none (test/floor); the operators have internal linkage.
// Hidden (every `namespace cpud` of the headers): a library built with
// default visibility exports none of these inline functions or what they
// instantiate, only what it asks for (test/shapes: nm -D of libfoo.so).
CPUD_NAMESPACE_BEGIN

// A set of features for C++: a cpud_mask (passed to and returned from the
// C functions as it is) with members to query it; the set operators below
// work on any cpud_mask. All constexpr.
//   cpud_set_disabled_features(CPUD_BIT(AVX512F) | CPUD_BIT(AVX512_SKX));
struct feature_set : cpud_mask {
  constexpr feature_set() : cpud_mask{} {}
  constexpr feature_set(const cpud_mask &m) : cpud_mask(m) {}  // NOLINT: from the C API
  // The set of one feature id (empty for an id of no feature).
  constexpr explicit feature_set(int id) : cpud_mask{} {
    if (id > 0 && id <= CPUD_FEATURE_COUNT) w[id >> 6] |= uint64_t{1} << (id & 63);
  }
  static constexpr feature_set all() {
    feature_set s;
    for (uint64_t &x : s.w) x = ~uint64_t{0};
    return s;
  }
  constexpr bool has(int id) const {
    return id > 0 && id <= CPUD_FEATURE_COUNT && ((w[id >> 6] >> (id & 63)) & 1u);
  }
  // The bits of word i that are features (not bit 0, none past the table).
  static constexpr uint64_t feature_bits(int i) {
    const int top = CPUD_FEATURE_COUNT - 64 * i;  // the last id's bit in word i
    uint64_t m = top >= 63 ? ~uint64_t{0} : top < 0 ? 0 : (uint64_t{1} << (top + 1)) - 1;
    return i == 0 ? m & ~uint64_t{1} : m;
  }
  // Feature ids in the set: none / how many / the highest (0 if none).
  constexpr bool empty() const {
    for (int i = 0; i < CPUD_MASK_WORDS; ++i)
      if (w[i] & feature_bits(i)) return false;
    return true;
  }
  constexpr int count() const {
    int n = 0;
    for (int i = 0; i < CPUD_MASK_WORDS; ++i) n += bit_count(w[i] & feature_bits(i));
    return n;
  }
  // Not __builtin_popcountll: below POPCNT (a floor-built tool's level)
  // GCC calls libgcc's __popcountdi2 for it.
  static constexpr int bit_count(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return static_cast<int>((x * 0x0101010101010101ull) >> 56);
  }
  constexpr int highest() const {
    for (int i = CPUD_MASK_WORDS - 1; i >= 0; --i) {
      const uint64_t x = w[i] & feature_bits(i);
      if (x) return 64 * i + 63 - __builtin_clzll(x);
    }
    return 0;
  }
  constexpr feature_set &operator|=(const cpud_mask &o) {
    for (int i = 0; i < CPUD_MASK_WORDS; ++i) w[i] |= o.w[i];
    return *this;
  }
  constexpr feature_set &operator&=(const cpud_mask &o) {
    for (int i = 0; i < CPUD_MASK_WORDS; ++i) w[i] &= o.w[i];
    return *this;
  }
};

CPUD_NAMESPACE_END  // namespace cpud

// Set operators on cpud_mask, so that the C functions' results combine
// directly (and feature_set, a cpud_mask, with them): a | b, a & ~b, a == b.
// Equality compares features only.
static constexpr cpud::feature_set operator|(const cpud_mask &a, const cpud_mask &b) {
  cpud::feature_set s(a);
  for (int i = 0; i < CPUD_MASK_WORDS; ++i) s.w[i] |= b.w[i];
  return s;
}
static constexpr cpud::feature_set operator&(const cpud_mask &a, const cpud_mask &b) {
  cpud::feature_set s(a);
  for (int i = 0; i < CPUD_MASK_WORDS; ++i) s.w[i] &= b.w[i];
  return s;
}
// Every other bit (a & ~b is a without b).
static constexpr cpud::feature_set operator~(const cpud_mask &a) {
  cpud::feature_set s(a);
  for (int i = 0; i < CPUD_MASK_WORDS; ++i) s.w[i] = ~s.w[i];
  return s;
}
static constexpr bool operator==(const cpud_mask &a, const cpud_mask &b) {
  for (int i = 0; i < CPUD_MASK_WORDS; ++i)
    if ((a.w[i] ^ b.w[i]) & cpud::feature_set::feature_bits(i)) return false;
  return true;
}
static constexpr bool operator!=(const cpud_mask &a, const cpud_mask &b) { return !(a == b); }

#define CPUD_BIT(F) (::cpud::feature_set(CPUD_FEATURE_##F))

#endif /* CPUDISPATCH_FEATURE_SET_HPP_ */
