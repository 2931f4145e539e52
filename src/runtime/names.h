/* SPDX-License-Identifier: MIT */
/* Internal: the one reader of feature lists and target names in the
 * runtime's language (docs/options.md, "Feature lists"), defined in
 * names.c. The environment variables (env_masks.c), CPUD_DISPATCH_PICK
 * (pick.c) and cpudispatch-run (src/run) read names through it;
 * test/grammar runs it on the shared cases. */
#ifndef CPUDISPATCH_SRC_NAMES_H_
#define CPUDISPATCH_SRC_NAMES_H_

#include <stddef.h>

#include "cpudispatch/cpudispatch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The next name of a list at or after *p: its start in *start and its
 * length, 0 at the end; *p moves past it. The separators are the Python
 * reader's five: space, comma, tab, CR, LF, in any run. */
CPUD_HIDDEN size_t cpud__next_name(const char **p, const char **start);

/* A target: a feature's name or alias, or a group of them joined by '+' or
 * "__" ("AVX2", "avx512_skx+vpclmulqdq", "AVX512_SKX__VPCLMULQDQ"), in any
 * case. */
typedef struct cpud__target_name {
  cpud_mask members;
  int ids[CPUD_FEATURE_COUNT]; /* the members, highest interest (id) first */
  int count;
} cpud__target_name;

/* The target the `len` bytes at `text` name; 0 if a part names no feature
 * of this arch. As cpudispatch_gen reduces a group, a member that another
 * member implies, or that the baseline holds, adds nothing (AVX2+F16C is
 * AVX2); if that leaves none, every member stays. */
CPUD_HIDDEN int cpud__parse_target_name(const char *text, size_t len, cpud__target_name *out);

/* Ascending interest, as cpudispatch_gen orders targets: by the highest
 * member, then the next (a group just above its highest member alone). */
CPUD_HIDDEN int cpud__ranks_below(cpud_mask a, cpud_mask b);

#ifdef __cplusplus
}

#include <cstddef>

CPUD_NAMESPACE_BEGIN
namespace internal {
using target_name = cpud__target_name;
inline std::size_t next_name(const char **p, const char **start) { return cpud__next_name(p, start); }
inline bool parse_target_name(const char *text, std::size_t len, target_name *out) {
  return cpud__parse_target_name(text, len, out) != 0;
}
inline bool ranks_below(const cpud_mask &a, const cpud_mask &b) { return cpud__ranks_below(a, b) != 0; }
}  // namespace internal
CPUD_NAMESPACE_END  // namespace cpud
#endif

#endif
