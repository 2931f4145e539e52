// The C entry points of typed dispatch (cpudispatch/dtype.h) over the
// header-only C++ rules and resolution: no allocation, libc only.
#include "cpudispatch/dtype.h"

// What the two headers below include, first, so that their own includes
// are no-ops inside the namespace.
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>

// The header-only rules and resolution with internal linkage: the runtime
// defines no COMDAT or unique symbol that a consumer's copy of the same
// inline code (compiled with its own flags) could replace, or be replaced
// by (test/floor checks the runtime's objects).
// (Inside a named namespace too: cpudispatch.h already declares ::cpud.)
namespace cpud_typed {
namespace {
#include "cpudispatch/dtype.hpp"
#include "cpudispatch/resolve.hpp"
}  // namespace
}  // namespace cpud_typed

// The C codes and the C++ enum come from one list (dtype_list.h); the
// conversion kinds, casting limits and tie rules are written twice, so
// checked here.
static_assert(CPUD_DTYPE_COUNT == cpud_typed::cpud::k_builtin_dtypes, "C and C++ typecodes agree");
static_assert(CPUD_CONV_EXACT == static_cast<int>(cpud_typed::cpud::conversion::exact) &&
                  CPUD_CONV_PROMOTE == static_cast<int>(cpud_typed::cpud::conversion::promote) &&
                  CPUD_CONV_SAFE == static_cast<int>(cpud_typed::cpud::conversion::safe) &&
                  CPUD_CONV_UNSAFE == static_cast<int>(cpud_typed::cpud::conversion::unsafe) &&
                  CPUD_CONV_NONE == static_cast<int>(cpud_typed::cpud::conversion::none),
              "C and C++ conversion kinds agree");
static_assert(CPUD_CONV_SAFE == static_cast<int>(cpud_typed::cpud::casting::safe) &&
                  CPUD_CONV_UNSAFE == static_cast<int>(cpud_typed::cpud::casting::unsafe),
              "C kinds and C++ casting limits agree");
static_assert(CPUD_TIE_ERROR == static_cast<int>(cpud_typed::cpud::tie_rule::error) &&
                  CPUD_TIE_MOST_SPECIFIC == static_cast<int>(cpud_typed::cpud::tie_rule::most_specific) &&
                  CPUD_TIE_FIRST == static_cast<int>(cpud_typed::cpud::tie_rule::first),
              "C and C++ tie rules agree");

namespace {
constexpr int k_max_cands = 256;
}

extern "C" int cpud_can_convert(int from, int to) {
  if (from < 0 || to < 0 || from >= cpud_typed::cpud::k_builtin_dtypes || to >= cpud_typed::cpud::k_builtin_dtypes) return CPUD_CONV_NONE;
  return static_cast<int>(cpud_typed::cpud::can_convert(static_cast<cpud_typed::cpud::dtype>(from), static_cast<cpud_typed::cpud::dtype>(to)));
}

extern "C" int cpud_resolve(const uint16_t *args, int n, const uint16_t *cand_types, int n_cands, int casting,
                            int tie, int *tied) {
  if (n < 0 || n > 8 || n_cands < 0 || n_cands > k_max_cands || casting < CPUD_CONV_EXACT ||
      casting > CPUD_CONV_UNSAFE || tie < CPUD_TIE_ERROR || tie > CPUD_TIE_FIRST ||
      (n > 0 && !args) || (n > 0 && n_cands > 0 && !cand_types))
    return -3;
  cpud_typed::cpud::dtype a[8];
  for (int i = 0; i < n; ++i) a[i] = static_cast<cpud_typed::cpud::dtype>(args[i]);
  cpud_typed::cpud::dtype types[k_max_cands * 8];  // copied: an enum may not alias its uint16_t storage
  cpud_typed::cpud::signature sigs[k_max_cands];
  for (int c = 0; c < n_cands; ++c) {
    for (int i = 0; i < n; ++i) types[c * n + i] = static_cast<cpud_typed::cpud::dtype>(cand_types[c * n + i]);
    sigs[c] = {types + c * n, n};
  }
  const cpud_typed::cpud::resolution r =
      cpud_typed::cpud::resolve(a, n, sigs, n_cands, static_cast<cpud_typed::cpud::casting>(casting),
                    static_cast<cpud_typed::cpud::tie_rule>(tie),
                    [](cpud_typed::cpud::dtype f, cpud_typed::cpud::dtype t) {
                      return static_cast<int>(f) < cpud_typed::cpud::k_builtin_dtypes && static_cast<int>(t) < cpud_typed::cpud::k_builtin_dtypes
                                 ? cpud_typed::cpud::can_convert(f, t)
                                 : cpud_typed::cpud::conversion::none;
                    });
  if (r.kind == cpud_typed::cpud::resolution::ok) return r.index;
  if (r.kind == cpud_typed::cpud::resolution::ambiguous) {
    if (tied) {
      tied[0] = r.tied[0];
      tied[1] = r.tied[1];
    }
    return -2;
  }
  return -1;
}
