/*
 * cpudispatch run-time API (C and C++).
 *
 * Features are the rows of the build's feature table (cpudispatch_features.h,
 * generated from src/features/<arch>/meson.build). A feature is *usable* when
 * the CPU has it, the OS saves its register state, everything it implies is
 * usable, and no environment mask turned it off.
 */
#ifndef CPUDISPATCH_H_
#define CPUDISPATCH_H_

#include <stdint.h>

#include "cpudispatch_config.h"
#include "cpudispatch_features.h"

#if defined(__GNUC__) || defined(__clang__)
#define CPUD_HIDDEN __attribute__((visibility("hidden")))
#else
#define CPUD_HIDDEN
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Feature ids: CPUD_FEATURE_<NAME>, 1..CPUD_FEATURE_COUNT. */
enum cpud_feature {
  CPUD_FEATURE_NONE = 0,
#define CPUD__ENUM(NAME, ...) CPUD_FEATURE_##NAME,
  CPUD_FEATURES(CPUD__ENUM)
#undef CPUD__ENUM
  CPUD_FEATURE_END_
};
/* One bit per feature id; bit 0 marks a mask as initialised. */
#define CPUD_BIT(F) (UINT64_C(1) << CPUD_FEATURE_##F)

/* Usable features, bit per id; 0 until the first query initialises it.
 * Hidden: each shared library that links the runtime has its own copy. */
CPUD_HIDDEN extern uint64_t cpud__usable;
CPUD_HIDDEN uint64_t cpud__init(void);

/* Mask of usable features (detects on first use; thread-safe). */
static inline uint64_t cpud_usable_mask(void) {
  uint64_t m = __atomic_load_n(&cpud__usable, __ATOMIC_ACQUIRE);
  return m ? m : cpud__init();
}
/* 1 if feature id F is usable, else 0. */
static inline int cpud_have(int feature) {
  return (int)((cpud_usable_mask() >> feature) & 1u);
}
#define CPUD_HAVE(F) cpud_have(CPUD_FEATURE_##F)

/* Name of a feature id ("AVX2"), or NULL. */
CPUD_HIDDEN const char *cpud_feature_name(int feature);
/* Feature id of a name or alias, case-insensitive; 0 if unknown. */
CPUD_HIDDEN int cpud_feature_by_name(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* CPUDISPATCH_H_ */
