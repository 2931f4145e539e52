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

#include <stddef.h>
#include <stdint.h>

#include "cpudispatch_config.h"
#include "cpudispatch_features.h"

#if defined(__GNUC__) || defined(__clang__)
#define CPUD_HIDDEN __attribute__((visibility("hidden")))
#define CPUD_NORETURN __attribute__((noreturn))
#else
#define CPUD_HIDDEN
#define CPUD_NORETURN
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

/* Mask of usable features (detects on first use; thread-safe). The mask is
 * closed: a feature's bit is set only when the bits of everything it implies
 * are set too, so CPUD_HAVE(AVX2) alone tells whether AVX2 code may run, and
 * the C macros (which test every feature a target needs) and the C++
 * dispatcher (which tests the target's own bit) always agree. */
static inline uint64_t cpud_usable_mask(void) {
  uint64_t m = __atomic_load_n(&cpud__usable, __ATOMIC_ACQUIRE);
  return m ? m : cpud__init();
}
/* 1 if feature id F is usable, else 0. */
static inline int cpud_have(int feature) {
  return (int)((cpud_usable_mask() >> feature) & 1u);
}
#define CPUD_HAVE(F) cpud_have(CPUD_FEATURE_##F)

/* Exit statuses of the start-up check (documented in docs/runtime.md). */
#define CPUD_EXIT_BASELINE 69 /* the CPU lacks a baseline feature */
#define CPUD_EXIT_ENV 78      /* a bad PREFIX_DISABLE/ENABLE_CPU_FEATURES */

/* Features the CPU and OS support, closed over implied features, before
 * the environment masks. */
CPUD_HIDDEN uint64_t cpud_detected_mask(void);
/* The build's baseline, as a mask. */
CPUD_HIDDEN uint64_t cpud_baseline_mask(void);
/* Checks the baseline against this CPU. Returns the number of missing
 * features (0: fine) and, if msg is not NULL, writes the message the
 * start-up check would print (without a trailing newline). */
CPUD_HIDDEN int cpud_check_baseline(char *msg, size_t cap);

/* --- dispatched functions (C++ CPUD_DISPATCH registers itself on its first
 * call; introspection and the tests walk the list) --- */
typedef struct cpud_function cpud_function;
struct cpud_function {
  const char *name;
  int (*target_count)(void);          /* compiled targets, baseline included */
  const char *(*target_name)(int i);  /* i = 0 is the highest interest */
  int (*target_feature)(int i);       /* feature id, 0 for the baseline */
  int (*selected)(void);              /* index of the selected target, -1: none yet */
  void (*reset)(void);                /* forget the selection; the next call selects again */
  const cpud_function *next;          /* set by cpud__register */
  int registered;
};
CPUD_HIDDEN void cpud__register(cpud_function *f);
/* Every registered dispatched function, most recent first. */
CPUD_HIDDEN const cpud_function *cpud_functions(void);
/* For tests: make only mask & cpud_detected_mask() (and the baseline)
 * usable, closed over implied features (a feature stays usable only with
 * everything it implies), and re-select every registered function. Not for
 * concurrent use with calls of dispatched functions. Returns the previous
 * usable mask. */
CPUD_HIDDEN uint64_t cpud_set_usable_mask(uint64_t mask);

/* Prints "cpudispatch: no compiled target of FUNCTION can run on this CPU
 * and it has no baseline build; ..." and aborts: what a dispatched call of
 * a source without a baseline build does on a CPU none of its targets suits
 * (C and C++ alike). */
CPUD_HIDDEN CPUD_NORETURN void cpud__no_target(const char *function);

/* Name of a feature id ("AVX2"), or NULL. */
CPUD_HIDDEN const char *cpud_feature_name(int feature);
/* Feature id of a name or alias, case-insensitive; 0 if unknown. */
CPUD_HIDDEN int cpud_feature_by_name(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* CPUDISPATCH_H_ */
