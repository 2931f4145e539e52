/* SPDX-License-Identifier: MIT */
/* CPUD_DISPATCH_PICK's reading of a target name (cpudispatch/dispatch.h):
 * which of a function's compiled targets a name means. */
#include <string.h>

#include "cpudispatch/dispatch.h"
#include "feature_table.h"
#include "names.h"

/* The features a target name stands for (names.h): "AVX2__FMA3",
 * "fma3+avx2" and "AVX2+FMA3+AVX" are one set; "baseline" (and a name of
 * baseline features only) is the empty set. 0 when a member is no feature
 * name of this arch. */
static int target_features(const char *name, cpud_mask *out) {
  *out = cpud_mask_none();
  if (!name || !*name) return 0;
  static const char k_baseline[] = "baseline";
  int n = 0;
  while (k_baseline[n] && (name[n] | 0x20) == k_baseline[n]) ++n;
  if (!k_baseline[n] && !name[n]) return 1;
  cpud__target_name t;
  if (!cpud__parse_target_name(name, strlen(name), &t)) return 0;
  /* Where the reduction leaves no member the parse keeps them all: then
   * the (closed) baseline holds every one, and the name is the baseline's. */
  if (!cpud__mask_empty(cpud_mask_andnot(t.members, cpud_baseline_mask()))) *out = t.members;
  return 1;
}

int cpud__pick_find(const char *name, const char *const *names, int count, int *status) {
  cpud_mask want, have;
  if (!target_features(name, &want)) {
    if (status) *status = CPUD_PICK_UNKNOWN;
    return -1;
  }
  for (int i = 0; i < count; ++i)
    if (target_features(names[i], &have) && cpud_mask_equal(have, want)) return i;
  if (status) *status = CPUD_PICK_NOT_COMPILED;
  return -1;
}
