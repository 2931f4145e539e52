// Internal: the one C++ reader of feature lists and target names (docs/
// options.md, "Feature lists"), defined in names.cpp. The environment
// variables (env_masks.cpp), CPUD_DISPATCH_PICK (registry.cpp) and
// cpudispatch-run (src/run) read names through it; test/grammar runs it on
// the shared cases.
#ifndef CPUDISPATCH_SRC_NAMES_H_
#define CPUDISPATCH_SRC_NAMES_H_

#include <cstddef>

#include "cpudispatch/cpudispatch.h"

// Sets cross this interface as cpud_mask (see env_masks.h).
namespace cpud::internal {

// The next name of a list at or after *p: its start in *start and its
// length, 0 at the end; *p moves past it. The separators are the Python
// parsers' five: space, comma, tab, CR, LF, in any run.
CPUD_HIDDEN std::size_t next_name(const char **p, const char **start);

// A target: a feature's name or alias, or a group of them joined by '+' or
// "__" ("AVX2", "avx512_skx+vpclmulqdq", "AVX512_SKX__VPCLMULQDQ"), in any
// case.
struct target_name {
  cpud_mask members;
  int ids[CPUD_FEATURE_COUNT];  // the members, highest interest (id) first
  int count;
};

// The target the `len` bytes at `text` name; false if a part names no
// feature of this arch. As cpudispatch_gen reduces a group, a member that
// another member implies, or that the baseline holds, adds nothing
// (AVX2+F16C is AVX2); if that leaves none, every member stays.
CPUD_HIDDEN bool parse_target_name(const char *text, std::size_t len, target_name *out);

// Ascending interest, as cpudispatch_gen orders targets: by the highest
// member, then the next (a group just above its highest member alone).
CPUD_HIDDEN bool ranks_below(const cpud_mask &a, const cpud_mask &b);

}  // namespace cpud::internal

#endif
