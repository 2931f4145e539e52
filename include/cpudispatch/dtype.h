/* SPDX-License-Identifier: MIT */
/*
 * cpudispatch: typed dispatch from C. The built-in element types' codes (the
 * same as cpud::dtype in dtype.hpp) and resolution of a kernel by argument
 * types with Numba's conversion rules (docs/typed.md).
 */
#ifndef CPUDISPATCH_DTYPE_H_
#define CPUDISPATCH_DTYPE_H_

#include <stdint.h>

#include "cpudispatch/cpudispatch.h"
#include "cpudispatch/dtype_list.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The built-in element types' codes: CPUD_DTYPE_BOOL ... CPUD_DTYPE_COMPLEX128
 * (the same values as cpud::dtype). */
enum {
#define CPUD__DTYPE_C(C, CXX, NAME) CPUD_DTYPE_##C,
  CPUD_DTYPE_LIST(CPUD__DTYPE_C)
#undef CPUD__DTYPE_C
  CPUD_DTYPE_COUNT
};

/* Conversion kinds, stricter first, and the casting limits a caller passes. */
enum { CPUD_CONV_EXACT, CPUD_CONV_PROMOTE, CPUD_CONV_SAFE, CPUD_CONV_UNSAFE, CPUD_CONV_NONE };
/* What a tie at the best rating does (cpud::tie_rule): CPUD_TIE_ERROR, -2
 * naming the tied candidates; CPUD_TIE_MOST_SPECIFIC, the one tied
 * candidate whose parameter types each convert at most safely to every
 * other's, if there is exactly one (else -2); CPUD_TIE_FIRST, the first tied
 * candidate in the candidates' order (NumPy's loop search, which takes the
 * first registered loop the inputs cast to). */
enum { CPUD_TIE_ERROR, CPUD_TIE_MOST_SPECIFIC, CPUD_TIE_FIRST };

/* The conversion kind from one built-in type to another (CPUD_CONV_NONE for
 * a code outside the built-in ones). */
CPUD_HIDDEN int cpud_can_convert(int from, int to);

/* Chooses among n_cands candidate signatures of n parameters each
 * (cand_types holds them one after another) the one the argument types
 * select, converting at most by `casting` (CPUD_CONV_PROMOTE, _SAFE or
 * _UNSAFE; _EXACT for exact matches only) with tie rule `tie`
 * (CPUD_TIE_ERROR, _MOST_SPECIFIC or _FIRST). Returns its index; -1: no
 * candidate accepts the arguments; -2: the best candidates tie and the tie
 * rule does not choose (the first two are written to tied[0..1] when tied
 * is not NULL);
 * -3: bad input (n outside 0..8, n_cands outside 0..256, an unknown casting
 * or tie value, a null array). */
CPUD_HIDDEN int cpud_resolve(const uint16_t *args, int n, const uint16_t *cand_types, int n_cands, int casting,
                             int tie, int *tied);

/* The same with a fallback kernel (cpud::op's set_fallback, PyTorch's
 * backend fallback): where no candidate accepts the arguments, returns
 * `fallback` (an index of the caller's, >= 0: its catch-all, e.g. n_cands
 * for a generic loop kept after the typed ones) instead of -1; a tie (-2)
 * and bad input (-3, also for a negative fallback) stay errors. */
CPUD_HIDDEN int cpud_resolve_or_fallback(const uint16_t *args, int n, const uint16_t *cand_types, int n_cands,
                                         int casting, int tie, int *tied, int fallback);

#ifdef __cplusplus
}
#endif

#endif /* CPUDISPATCH_DTYPE_H_ */
