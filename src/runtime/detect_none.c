/* SPDX-License-Identifier: MIT */
/* Arches without a detection backend: only group rows (which need nothing)
 * count as detected, so no dispatch target is ever selected. */
#include "detect.h"
#include "no_cpuid.h"

cpud_mask cpud__detect_raw(cpud_mask want) {
  cpud_mask raw = cpud_mask_none();
#define CPUD__ROW(NAME, INTEREST, KIND, ...) \
  if (KIND == CPUD_DETECT_GROUP) raw = cpud_mask_with(raw, CPUD_FEATURE_##NAME);
  CPUD_FEATURES(CPUD__ROW)
#undef CPUD__ROW
  return cpud_mask_and(raw, want);
}

cpud_mask cpud__detect_raw_from(const cpud_cpu_report *cpu, cpud_mask want, int libc_copy,
                                cpud__reading_cost *cost) {
  (void)cpu, (void)libc_copy, (void)cost;
  return cpud__detect_raw(want);
}

cpud_mask cpud__detect_raw_with(int use_libc_cache, cpud_mask want) {
  (void)use_libc_cache;
  return cpud__detect_raw(want);
}

int cpud__vector_feature(void) { return 0; }
int cpud__live_vector_bytes(void) { return 0; }
