/* SPDX-License-Identifier: MIT */
/*
 * cpudispatch run-time API (C and C++). The runtime behind it is C11 and
 * needs libc alone; the C++ parts below are inline, over the C functions.
 *
 * Features are the rows of the build's feature table (cpudispatch_features.h,
 * generated from src/features/<arch>/table.py). A feature is *usable* when
 * the CPU has it, the OS saves its register state, everything it implies is
 * usable, and no environment mask turned it off.
 *
 * This header is the API a program calls (docs/api.md); the dispatch
 * macros are in dispatch.h and dispatch.hpp, the registries in functions.h
 * and operators.h, the hooks for tests in testing.h (docs/api.md,
 * "Headers").
 */
#ifndef CPUDISPATCH_H_
#define CPUDISPATCH_H_

#include <stddef.h>
#include <stdint.h>

#include "cpudispatch/attributes.h"
#include "cpudispatch/namespace.h"
#include "cpudispatch_config.h"
#include "cpudispatch_features.h"

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
/* A set of features: bit id % 64 of word id / 64 for each feature id, in
 * as many 64-bit words as the build's table needs (the tables grow past
 * 64 features). Bit 0 is no feature. */
#define CPUD_MASK_WORDS (CPUD_FEATURE_COUNT / 64 + 1)
typedef struct cpud_mask {
  uint64_t w[CPUD_MASK_WORDS];
} cpud_mask;

static inline cpud_mask cpud_mask_none(void) {
  cpud_mask m;
  for (int i = 0; i < CPUD_MASK_WORDS; ++i) m.w[i] = 0;
  return m;
}
/* Every bit, the features' and the others': "no restriction". */
static inline cpud_mask cpud_mask_all(void) {
  cpud_mask m;
  for (int i = 0; i < CPUD_MASK_WORDS; ++i) m.w[i] = ~CPUD__CAST(uint64_t, 0);
  return m;
}
/* 1 if feature id `id` is in m (0 for an id of no feature). */
static inline int cpud_mask_has(cpud_mask m, int id) {
  return id > 0 && id <= CPUD_FEATURE_COUNT && CPUD__CAST(int, (m.w[id >> 6] >> (id & 63)) & 1u);
}
/* m with feature id `id` added (unchanged for an id of no feature). */
static inline cpud_mask cpud_mask_with(cpud_mask m, int id) {
  if (id > 0 && id <= CPUD_FEATURE_COUNT) m.w[id >> 6] |= CPUD__CAST(uint64_t, 1) << (id & 63);
  return m;
}
static inline cpud_mask cpud_mask_of(int id) { return cpud_mask_with(cpud_mask_none(), id); }
static inline cpud_mask cpud_mask_or(cpud_mask a, cpud_mask b) {
  for (int i = 0; i < CPUD_MASK_WORDS; ++i) a.w[i] |= b.w[i];
  return a;
}
static inline cpud_mask cpud_mask_and(cpud_mask a, cpud_mask b) {
  for (int i = 0; i < CPUD_MASK_WORDS; ++i) a.w[i] &= b.w[i];
  return a;
}
/* a without b */
static inline cpud_mask cpud_mask_andnot(cpud_mask a, cpud_mask b) {
  for (int i = 0; i < CPUD_MASK_WORDS; ++i) a.w[i] &= ~b.w[i];
  return a;
}
/* 1 if a and b hold the same features (other bits are ignored). */
static inline int cpud_mask_equal(cpud_mask a, cpud_mask b) {
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    if (cpud_mask_has(a, id) != cpud_mask_has(b, id)) return 0;
  return 1;
}
/* CPUD_BIT(AVX2): the set of one feature (C: a cpud_mask; C++: a
 * cpud::feature_set, which has | & ~ and ==). */
#ifndef __cplusplus
#define CPUD_BIT(F) cpud_mask_of(CPUD_FEATURE_##F)
#endif

/* --- what may run --- */
/* Internal, for the inline functions below: the process's usable words,
 * bit 0 set while no thread restricts itself (then they are every thread's
 * answer), 0 until the first query; and the path taken otherwise, which
 * initialises or applies the calling thread's restriction. Hidden: each
 * shared library that links the runtime has its own copy. */
CPUD_HIDDEN extern uint64_t cpud__usable[CPUD_MASK_WORDS];
CPUD_HIDDEN cpud_mask cpud__usable_slow(void);
CPUD_HIDDEN int cpud__have_slow(int feature);

/* The features the calling thread's dispatch may use, closed over implied
 * features (detects on first use; thread-safe). */
static inline cpud_mask cpud_usable_mask(void) {
#if CPUD_MASK_WORDS == 1
  uint64_t w = __atomic_load_n(&cpud__usable[0], __ATOMIC_ACQUIRE);
  if (w & 1u) {
    cpud_mask m;
    m.w[0] = w & ~CPUD__CAST(uint64_t, 1);
    return m;
  }
#endif
  return cpud__usable_slow();
}
/* 1 if feature id F is usable, else 0: one load (two past the first word);
 * 0 for any feature the build neither has in its baseline nor dispatches. */
static inline int cpud_have(int feature) {
  uint64_t w = __atomic_load_n(&cpud__usable[0], __ATOMIC_ACQUIRE);
  if (!(w & 1u)) return cpud__have_slow(feature);
  if (feature <= 0 || feature > CPUD_FEATURE_COUNT) return 0;
  if (feature >> 6) w = __atomic_load_n(&cpud__usable[feature >> 6], __ATOMIC_ACQUIRE);
  return CPUD__CAST(int, (w >> (feature & 63)) & 1u);
}
#define CPUD_HAVE(F) cpud_have(CPUD_FEATURE_##F)

/* --- detection and the baseline --- */
/* Exit statuses of the start-up check (docs/runtime.md). */
#define CPUD_EXIT_BASELINE 69 /* the CPU lacks a baseline feature */
#define CPUD_EXIT_ENV 78      /* a bad PREFIX_DISABLE/ENABLE_CPU_FEATURES */

/* Every feature of the table the CPU and OS support, closed, before the
 * environment masks (the first call reads the rows start-up did not). */
CPUD_HIDDEN cpud_mask cpud_detected_mask(void);
/* The build's baseline. */
CPUD_HIDDEN cpud_mask cpud_baseline_mask(void);
/* The number of baseline features this CPU lacks (0: fine); the start-up
 * check's message, without a newline, in msg unless it is NULL. */
CPUD_HIDDEN int cpud_check_baseline(char *msg, size_t cap);
/* Host mode (-Dcpudispatch:mode=init; docs/python.md): detect, read the
 * variables, check the baseline; 0, CPUD_EXIT_ENV or CPUD_EXIT_BASELINE
 * with the start-up check's line in msg. Never exits. */
CPUD_HIDDEN int cpud_host_init(char *msg, size_t cap);
/* Library mode (docs/libraries.md): 0, or CPUD_EXIT_BASELINE with the
 * message; a bad variable is printed once and leaves the baseline builds.
 * Never exits. */
CPUD_HIDDEN int cpud_library_init(char *msg, size_t cap);
/* The calling thread's scalable vector length in bytes (aarch64 SVE,
 * riscv64 V), 0 where there is none or it is not usable. */
CPUD_HIDDEN int cpud_vector_bytes(void);

/* --- switching targets off at run time (docs/api.md) --- */
/* Process-wide: these features and every feature implying one stop being
 * usable, replacing the previous set; -1 (nothing changed) for a baseline
 * feature, else 0. Safe while other threads call dispatched functions. */
CPUD_HIDDEN int cpud_set_disabled_features(cpud_mask features);
/* The set cpud_set_disabled_features last gave (empty at start). */
CPUD_HIDDEN cpud_mask cpud_disabled_features(void);
/* Per thread: the calling thread dispatches only within `allowed` (the
 * baseline stays); returns the previous set; cpud_mask_all(): no
 * restriction. While any thread is restricted, calls select per call. */
CPUD_HIDDEN cpud_mask cpud_set_thread_allowed(cpud_mask allowed);
/* The calling thread's allowed set (cpud_mask_all() when unrestricted). */
CPUD_HIDDEN cpud_mask cpud_thread_allowed(void);

/* --- names and sets --- */
/* The features of mask whose implied features are all in mask. */
CPUD_HIDDEN cpud_mask cpud_close_over_implied(cpud_mask mask);
/* mask plus every feature its features imply. */
CPUD_HIDDEN cpud_mask cpud_with_implied(cpud_mask mask);
/* The name of a feature id ("AVX2"), or NULL. */
CPUD_HIDDEN const char *cpud_feature_name(int feature);
/* The feature id of a name or alias, in any case; 0 if unknown. */
CPUD_HIDDEN int cpud_feature_by_name(const char *name);

#ifdef __cplusplus
}
#endif

/* Moved in cpudispatch 0.4.0 (NEWS.md): a call through this header alone
 * stops the compile and names the header that declares it now. */
#define CPUD__MOVED(MESSAGE) _Pragma(MESSAGE)
#if !defined(CPUDISPATCH_TESTING_H_)
#undef cpud_assume_cpu
#undef cpud_detect_cpu
#undef cpud_set_usable_mask
#define cpud_assume_cpu(...) CPUD__MOVED("GCC error \"cpud_assume_cpu is declared in cpudispatch/testing.h since cpudispatch 0.4.0: include it (NEWS.md)\"") CPUD__NS(cpud_assume_cpu)(__VA_ARGS__)
#define cpud_detect_cpu(...) CPUD__MOVED("GCC error \"cpud_detect_cpu is declared in cpudispatch/testing.h since cpudispatch 0.4.0: include it (NEWS.md)\"") CPUD__NS(cpud_detect_cpu)(__VA_ARGS__)
#define cpud_set_usable_mask(...) CPUD__MOVED("GCC error \"cpud_set_usable_mask is declared in cpudispatch/testing.h since cpudispatch 0.4.0: include it (NEWS.md)\"") CPUD__NS(cpud_set_usable_mask)(__VA_ARGS__)
#endif
#if !defined(CPUDISPATCH_FUNCTIONS_H_)
#undef cpud_functions
#define cpud_functions(...) CPUD__MOVED("GCC error \"cpud_functions is declared in cpudispatch/functions.h since cpudispatch 0.4.0: include it (NEWS.md)\"") CPUD__NS(cpud_functions)(__VA_ARGS__)
#endif
#if !defined(CPUDISPATCH_OPERATORS_H_)
#undef cpud_for_each_operator
#define cpud_for_each_operator(...) CPUD__MOVED("GCC error \"cpud_for_each_operator is declared in cpudispatch/operators.h since cpudispatch 0.4.0: include it (NEWS.md)\"") CPUD__NS(cpud_for_each_operator)(__VA_ARGS__)
#endif

#ifdef __cplusplus
#include "cpudispatch/feature_set.hpp"
#endif

/* Keeps the start-up check in every program that links this file's object. */
#include "startup_ref.h"

#endif /* CPUDISPATCH_H_ */
