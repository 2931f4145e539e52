/* SPDX-License-Identifier: MIT */
/* Internal, layer 1 (docs/architecture.md, "The runtime's layers"): the
 * build's feature table as data, the names of its rows and set operations
 * on it. Pure: no state, no detection, no environment. Everything else of
 * the runtime reads the table through this header. */
#ifndef CPUDISPATCH_SRC_FEATURE_TABLE_H_
#define CPUDISPATCH_SRC_FEATURE_TABLE_H_

#include <stddef.h>
#include <stdint.h>

#include "cpudispatch/cpudispatch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Set operations beyond cpudispatch.h's (C has no operators), on the
 * features of a set only: bit 0 and bits past the table are ignored.
 * Inline: start-up and the env masks use them per feature. */
static inline uint64_t cpud__feature_bits(int i) {
  const int top = CPUD_FEATURE_COUNT - 64 * i; /* the last id's bit in word i */
  const uint64_t m = top >= 63 ? ~(uint64_t)0 : top < 0 ? 0 : ((uint64_t)1 << (top + 1)) - 1;
  return i == 0 ? m & ~(uint64_t)1 : m;
}
static inline int cpud__mask_empty(cpud_mask m) {
  for (int i = 0; i < CPUD_MASK_WORDS; ++i)
    if (m.w[i] & cpud__feature_bits(i)) return 0;
  return 1;
}
CPUD_HIDDEN int cpud__mask_count(cpud_mask m);
/* Every feature's bit and no other. */
static inline cpud_mask cpud__every_feature(void) {
  cpud_mask m;
  for (int i = 0; i < CPUD_MASK_WORDS; ++i) m.w[i] = cpud__feature_bits(i);
  return m;
}

/* Per feature id: every feature it implies (transitively); what a group
 * adds to its base (empty for a feature); what disabling it turns off (it,
 * what it adds, and every feature implying one of those). Configure's sets
 * (cpudispatch_features.h), not recomputed here. */
CPUD_HIDDEN extern const cpud_mask cpud__implied_sets[CPUD_FEATURE_COUNT + 1];
CPUD_HIDDEN extern const cpud_mask cpud__adds_sets[CPUD_FEATURE_COUNT + 1];
CPUD_HIDDEN extern const cpud_mask cpud__removes_sets[CPUD_FEATURE_COUNT + 1];
static inline cpud_mask cpud__implied_mask(int id) {
  return id > 0 && id <= CPUD_FEATURE_COUNT ? cpud__implied_sets[id] : cpud_mask_none();
}
static inline cpud_mask cpud__adds_mask(int id) {
  return id > 0 && id <= CPUD_FEATURE_COUNT ? cpud__adds_sets[id] : cpud_mask_none();
}
static inline cpud_mask cpud__removes_mask(int id) {
  return id > 0 && id <= CPUD_FEATURE_COUNT ? cpud__removes_sets[id] : cpud_mask_none();
}
/* The usable subset of a raw set: each feature whose own bit and every
 * implied bit are set. */
CPUD_HIDDEN cpud_mask cpud__close_over_implied(cpud_mask raw);
/* Every dispatch target of the build with what it implies; that and the
 * baseline's: what start-up detects (the rest waits for
 * cpud_detected_mask()). */
CPUD_HIDDEN cpud_mask cpud__dispatched_mask(void);
CPUD_HIDDEN cpud_mask cpud__startup_wanted(void);
/* The names of mask's features, space-separated, in id order (cut short,
 * never overrun, when cap is too small): for messages. */
CPUD_HIDDEN void cpud__mask_names(cpud_mask mask, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
