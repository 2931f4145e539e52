// SPDX-License-Identifier: MIT
// Element types of runtime data and how a value of one becomes another: the
// first layer of typed dispatch (operators choose a kernel by the types of
// their arguments; docs/typed.md). Header-only, C++17, everything constexpr:
// the conversion matrix is computed by the compiler from a list of rules.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>

#include "cpudispatch/attributes.h"
#include "cpudispatch/namespace.h"
#include "cpudispatch/dtype_list.h"
#include "cpudispatch/dtype_rules.h"

CPUD_NAMESPACE_BEGIN

// Built-in typecodes (cpudispatch/dtype_list.h, the same as C's
// CPUD_DTYPE_*). Composite types a library interns at run time (a dtype with
// channels and a layout, ...) get codes from k_builtin_dtypes up.
enum class dtype : std::uint16_t {
#define CPUD__DTYPE_CXX(C, CXX, NAME) CXX,
  CPUD_DTYPE_LIST(CPUD__DTYPE_CXX)
#undef CPUD__DTYPE_CXX
};
#define CPUD__DTYPE_COUNT(C, CXX, NAME) +1
constexpr int k_builtin_dtypes = 0 CPUD_DTYPE_LIST(CPUD__DTYPE_COUNT);
#undef CPUD__DTYPE_COUNT

constexpr const char *dtype_name(dtype t) {
#define CPUD__DTYPE_NAME(C, CXX, NAME) NAME,
  constexpr const char *names[k_builtin_dtypes] = {CPUD_DTYPE_LIST(CPUD__DTYPE_NAME)};
#undef CPUD__DTYPE_NAME
  return static_cast<int>(t) < k_builtin_dtypes ? names[static_cast<int>(t)] : "?";
}

// The typecode of a C++ type (float16: _Float16, where the compiler has it).
template <class T>
struct dtype_of;
#define CPUD__DTYPE_OF(T, CODE) \
  template <>                   \
  struct dtype_of<T> {          \
    static constexpr dtype value = dtype::CODE; \
  };
CPUD__DTYPE_OF(bool, bool_)
CPUD__DTYPE_OF(std::int8_t, int8)
CPUD__DTYPE_OF(std::int16_t, int16)
CPUD__DTYPE_OF(std::int32_t, int32)
CPUD__DTYPE_OF(std::int64_t, int64)
CPUD__DTYPE_OF(std::uint8_t, uint8)
CPUD__DTYPE_OF(std::uint16_t, uint16)
CPUD__DTYPE_OF(std::uint32_t, uint32)
CPUD__DTYPE_OF(std::uint64_t, uint64)
// GCC 12 defines __FLT16_MAX__ on aarch64 but has _Float16 in C++ only on
// x86 (GCC 13 elsewhere); Clang has it wherever it defines the macro.
#if defined(__FLT16_MAX__) && (defined(__clang__) || defined(__x86_64__) || defined(__i386__) || __GNUC__ >= 13)
#define CPUD_HAVE_FLOAT16 1
CPUD__DTYPE_OF(_Float16, float16)
#endif
CPUD__DTYPE_OF(float, float32)
CPUD__DTYPE_OF(double, float64)
CPUD__DTYPE_OF(std::complex<float>, complex64)
CPUD__DTYPE_OF(std::complex<double>, complex128)
#undef CPUD__DTYPE_OF
template <class T>
constexpr dtype dtype_v = dtype_of<T>::value;

// How a value of one type converts to another, stricter first (Numba's
// kinds): exact (the same type), promote (the same kind, more range or
// precision), safe (no information lost), unsafe (information may be lost),
// none (no conversion).
enum class conversion : std::uint8_t { exact, promote, safe, unsafe, none };

constexpr const char *conversion_name(conversion c) {
  constexpr const char *names[] = {"exact", "promote", "safe", "unsafe", "none"};
  return names[static_cast<int>(c)];
}

// One declared rule: `from` converts to `to` with `forward`, and `to` back to
// `from` with `backward` (none: no way back declared).
struct conversion_rule {
  dtype from, to;
  conversion forward, backward;
};

// The kinds of every pair of built-in types. Looked up with any two codes:
// a code is itself (exact, a composite type's too), and a code outside the
// built-in ones (a composite type, type_registry::k_invalid) converts to
// and from nothing else; the cells are never read out of bounds.
struct conversion_matrix {
  conversion kind[k_builtin_dtypes][k_builtin_dtypes];
  constexpr conversion operator()(dtype from, dtype to) const {
    if (from == to) return conversion::exact;
    const int f = static_cast<int>(from), t = static_cast<int>(to);
    if (f >= k_builtin_dtypes || t >= k_builtin_dtypes) return conversion::none;
    return kind[f][t];
  }
};

// The closure of a rule list: a conversion may chain rules, and a chain is as
// strict as its loosest step; each pair takes its strictest chain (int8 ->
// int16 -> int32 is a promotion; int32 -> float64 -> complex128 is safe).
template <std::size_t N>
constexpr conversion_matrix close_rules(const conversion_rule (&rules)[N]) {
  conversion_matrix m{};
  constexpr int n = k_builtin_dtypes;
  auto better = [](conversion a, conversion b) { return a < b ? a : b; };
  auto worse = [](conversion a, conversion b) { return a < b ? b : a; };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) m.kind[i][j] = i == j ? conversion::exact : conversion::none;
  for (const conversion_rule &r : rules) {
    const int a = static_cast<int>(r.from), b = static_cast<int>(r.to);
    m.kind[a][b] = better(m.kind[a][b], r.forward);
    m.kind[b][a] = better(m.kind[b][a], r.backward);
  }
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) m.kind[i][j] = better(m.kind[i][j], worse(m.kind[i][k], m.kind[k][j]));
  return m;
}

namespace detail {
// dtype_rules.h names types by their C suffixes (BOOL, INT8, ...).
enum c_code : std::uint16_t {
#define CPUD__DTYPE_C_CODE(C, CXX, NAME) k_##C,
  CPUD_DTYPE_LIST(CPUD__DTYPE_C_CODE)
#undef CPUD__DTYPE_C_CODE
};
}  // namespace detail
#define CPUD__RULE_CXX(F, T, FW, BW) \
  {static_cast<dtype>(detail::k_##F), static_cast<dtype>(detail::k_##T), conversion::FW, conversion::BW},

// Numba's number rules (cpudispatch/dtype_rules.h says which).
inline constexpr conversion_rule numba_rules[] = {CPUD_NUMBA_RULES(CPUD__RULE_CXX)};

inline constexpr conversion_matrix numba_conversions = close_rules(numba_rules);

// The default rule set's kind for one pair of types: exact for a code and
// itself, none when either code is outside the built-in ones (composite
// types convert by a registry's rules: types.hpp), else Numba's.
constexpr conversion can_convert(dtype from, dtype to) { return numba_conversions(from, to); }

// NumPy's casting rules (numpy.can_cast(from, to, 'safe'); dtype_rules.h):
// against Numba's, uint8 -> float16 and uint16 -> float32 (and on, to
// complex64) are safe, and complex -> real is unsafe, not none.
inline constexpr conversion_rule numpy_rules[] = {CPUD_NUMPY_RULES(CPUD__RULE_CXX)};

inline constexpr conversion_matrix numpy_conversions = close_rules(numpy_rules);

// NumPy's kind for one pair of types (exact for a code and itself, none when
// either code is outside the built-in ones): pass it as an operator's
// conversion function (operator.hpp) to rank kernels by NumPy's rules.
constexpr conversion can_cast_numpy(dtype from, dtype to) { return numpy_conversions(from, to); }
#undef CPUD__RULE_CXX

CPUD_NAMESPACE_END  // namespace cpud
