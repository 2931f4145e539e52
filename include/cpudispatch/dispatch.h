/* SPDX-License-Identifier: MIT */
/*
 * cpudispatch: calling the targets of a dispatch source, from C or C++.
 *
 * A dispatch source (say sum.dispatch.c) is compiled once per target. Inside
 * it, name each dispatched function CPUD_FN(sum_f32): that becomes
 * sum_f32_AVX2, sum_f32_SSE42, sum_f32_baseline, ... one per compiled target.
 * Callers include the generated "sum.dispatch.h" and then:
 *
 *   CPUD_DISPATCH_DECLARE(float sum_f32, (const float *, size_t))
 *       declares every compiled target of sum_f32
 *   CPUD_DISPATCH_CALL(sum_f32, (p, n))
 *       calls the highest-interest target this CPU can run (an expression;
 *       re-checks the CPU on every call: in hot code use the cached
 *       dispatcher below, cache CPUD_DISPATCH_SELECT, or use the C++
 *       CPUD_DISPATCH). A source without a baseline build on a CPU none of
 *       its targets suits: prints why and aborts, like the C++ dispatcher
 *   CPUD_DISPATCH_SELECT(sum_f32)
 *       the best target's address (NULL when none can run and the source
 *       has no baseline build)
 *   CPUD_DISPATCH_CALL_ALL(sum_f32, (p, n))
 *       calls every target this CPU can run, then the baseline (tests)
 *   CPUD_DISPATCH_SELECTED_NAME(sum_f32)
 *       the name of the target CPUD_DISPATCH_SELECT returns ("AVX2",
 *       "baseline"), NULL when none
 *
 * A cached dispatcher, for hot code: written once at file scope,
 *
 *   CPUD_DISPATCH_DEFINE(float, sum_f32, (const float *, size_t));
 *       declares the targets (as CPUD_DISPATCH_DECLARE) and defines, static
 *       to this file, a cached pointer and a registry record
 *   CPUD_DISPATCH_CALL_CACHED(sum_f32, (p, n))
 *       selects on the first call (registering sum_f32 in cpud_functions(),
 *       so that mask changes select again), then calls through the cached
 *       pointer: one load, a test and an indirect call
 *   CPUD_DISPATCH_CACHED(sum_f32)
 *       the cached pointer itself (NULL when no target can run)
 *   CPUD_DISPATCH_PICK(sum_f32, "avx2", &status)
 *       the compiled target of that name if it may run now, else NULL;
 *       status: CPUD_PICK_OK, _NOT_USABLE, _NOT_COMPILED or _UNKNOWN
 *   CPUD_DISPATCH_RECORD(sum_f32)
 *       its cpud_function record: compiled targets, the selected one
 *
 * The lower-level CPUD__DISPATCH_CALL(CHK, CB, ...) and
 * CPUD__DISPATCH_BASELINE_CALL(CB, ...) come from the generated header; CB
 * always gets CHECK, TARGET and the rest, so it takes (CHECK, T, ...), and
 * before C23 a caller with nothing to pass gives a dummy argument (~).
 */
#ifndef CPUDISPATCH_DISPATCH_H_
#define CPUDISPATCH_DISPATCH_H_

#define CPUD_CAT_(a, b) a##b
#define CPUD_CAT(a, b) CPUD_CAT_(a, b)
#define CPUD_STR_(a) #a
#define CPUD_STR(a) CPUD_STR_(a)

/* NAME as compiled for the current target: NAME_AVX2, NAME_baseline, ...
 * The generated header maps each such name of its source to the symbol
 * behind the library's namespace (NAMESPACE__NAME_AVX2), for the source and
 * its callers alike: the pasted name is a macro of that header. */
#define CPUD_FN(NAME) CPUD_CAT(NAME, CPUD_CAT(_, CPUD_TARGET))

#if defined(__ASSEMBLER__)
/* An assembly dispatch source (.S, docs/assembly.md) gets what names its
 * symbols and says its build: CPUD_FN (above), CPUD_TARGET, CPUD_HAVE_<F>
 * and CPUD_TARGET_<F> (cpudispatch_config.h), the target mark; nothing of C. */
#include "cpudispatch_config.h"
#else /* C and C++ */

#include "cpudispatch/cpudispatch.h"
#include "cpudispatch/functions.h"

#ifdef __cplusplus
extern "C" {
#endif
/* What CPUD_DISPATCH_PICK says of a target name. */
enum cpud_pick_status {
  CPUD_PICK_OK = 0,           /* compiled, and usable by the calling thread now */
  CPUD_PICK_NOT_USABLE = 1,   /* compiled; the CPU lacks it, or a mask switched it off */
  CPUD_PICK_NOT_COMPILED = 2, /* a target of this arch the function was not compiled for */
  CPUD_PICK_UNKNOWN = 3       /* not a target name of this arch (nor "baseline") */
};
/* Internal, for CPUD_DISPATCH_PICK: the index among names[0..count) of the
 * target `name` names (any case; a group as A+B or A__B, in any order), or
 * -1 with *status (if status is not NULL) CPUD_PICK_NOT_COMPILED or
 * CPUD_PICK_UNKNOWN. */
CPUD_HIDDEN int cpud__pick_find(const char *name, const char *const *names, int count, int *status);
#ifdef __cplusplus
}
#endif

/* A dispatch source defines CPUD_FN(name) with no declaration of it in
 * sight (its callers declare it: CPUD_DISPATCH_DECLARE): in a dispatch
 * source's build, -Wmissing-prototypes (C, Clang's C++) and
 * -Wmissing-declarations (GCC's C++) have nothing to say, for the rest of
 * the file. Elsewhere they stay as the project set them (test
 * strict-flags). */
#if defined(CPUD__DISPATCH_BUILD) && defined(__clang__)
#pragma clang diagnostic ignored "-Wmissing-prototypes"
#elif defined(CPUD__DISPATCH_BUILD) && defined(__GNUC__) && defined(__cplusplus)
#pragma GCC diagnostic ignored "-Wmissing-declarations"
#elif defined(CPUD__DISPATCH_BUILD) && defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#endif

/* The current target's name as a string literal: "AVX2", "baseline", ... */
#define CPUD_TARGET_NAME CPUD_STR(CPUD_TARGET)
/* The namespace of the kernels: the generated header sets it to its
 * library's (cpudispatch/namespace.h); the build's otherwise. */
#ifndef CPUD__KERNEL_NS
#define CPUD__KERNEL_NS CPUD_NAMESPACE
#endif
/* A per-target C++ namespace, so inline functions and types a dispatch
 * source defines never merge across targets, nor with another library's:
 * namespace CPUD_TARGET_NS {...} is NAMESPACE__cpud_target_AVX2. */
#define CPUD_TARGET_NS CPUD_CAT(CPUD__KERNEL_NS, CPUD_CAT(__cpud_target_, CPUD_TARGET))

#define CPUD__NOCHK(F) 1
#define CPUD__DECL_ONE(CHECK, T, LEFT, ARGS) LEFT##_##T ARGS;
#define CPUD__DECL_BASE(LEFT, ARGS) LEFT##_baseline ARGS;
#define CPUD_DISPATCH_DECLARE(LEFT, ARGS)                              \
  CPUD__DISPATCH_CALL(CPUD__NOCHK, CPUD__DECL_ONE, LEFT, ARGS)         \
  CPUD__DISPATCH_BASELINE_CALL(CPUD__DECL_BASE, LEFT, ARGS)

#define CPUD__CALL_ONE(CHECK, T, NAME, ARGS) (CHECK) ? NAME##_##T ARGS :
/* Without a baseline build and with no usable target: abort with a message
 * (the lowest target's call only gives the expression its type). */
#define CPUD__NO_TARGET(NAME, ARGS) \
  (cpud__no_target(#NAME), CPUD_CAT(NAME##_, CPUD__LOWEST_TARGET) ARGS)
#define CPUD_DISPATCH_CALL(NAME, ARGS)                                 \
  (CPUD__DISPATCH_CALL(CPUD_HAVE, CPUD__CALL_ONE, NAME, ARGS)          \
   CPUD__DISPATCH_FALLBACK(NAME##_baseline ARGS, CPUD__NO_TARGET(NAME, ARGS)))

#define CPUD__SELECT_ONE(CHECK, T, NAME) (CHECK) ? &NAME##_##T :
#define CPUD_DISPATCH_SELECT(NAME)                                     \
  (CPUD__DISPATCH_CALL(CPUD_HAVE, CPUD__SELECT_ONE, NAME)              \
   CPUD__DISPATCH_FALLBACK(&NAME##_baseline, CPUD__NULL))

#define CPUD__ALL_ONE(CHECK, T, NAME, ARGS) if (CHECK) { (void)(NAME##_##T ARGS); }
#define CPUD__ALL_BASE(NAME, ARGS) (void)(NAME##_baseline ARGS);
#define CPUD_DISPATCH_CALL_ALL(NAME, ARGS)                             \
  do {                                                                 \
    CPUD__DISPATCH_CALL(CPUD_HAVE, CPUD__ALL_ONE, NAME, ARGS)          \
    CPUD__DISPATCH_BASELINE_CALL(CPUD__ALL_BASE, NAME, ARGS)           \
  } while (0)

#define CPUD__NAME_IF(CHECK, T, NAME) (CHECK) ? #T :
#define CPUD_DISPATCH_SELECTED_NAME(NAME)                              \
  (CPUD__DISPATCH_CALL(CPUD_HAVE, CPUD__NAME_IF, NAME)                 \
   CPUD__DISPATCH_FALLBACK("baseline", CPUD__CAST(const char *, CPUD__NULL)))

/* ---- the cached dispatcher (CPUD_DISPATCH_DEFINE) ----
 * It mirrors the C++ CPUD_DISPATCH (dispatch.hpp): a cached pointer, a
 * cpud_function record registered on the first selection, reset by every
 * mask change (the next call selects again), and, while some thread
 * restricts itself (cpud_set_thread_allowed), a selection per call from the
 * calling thread's mask. It selects with the same CHECK chain as
 * CPUD_DISPATCH_SELECT, evaluated against a mask. In C no function can
 * forward an unknown parameter list, so the cached pointer is 0 until the
 * first selection (and after a reset) and each call tests it. Everything is
 * static to the file that writes CPUD_DISPATCH_DEFINE. The functions are
 * static inline, and those a caller uses are marked unused too: Clang warns
 * of an unused static inline function outside a header, where a macro's
 * expansion lands. */
#if defined(__GNUC__) || defined(__clang__)
#define CPUD__UNUSED __attribute__((unused))
#else
#define CPUD__UNUSED
#endif
/* The first call's selection (and a selection per call while a thread is
 * restricted) is a function of its own, out of line and cold: inlined, its
 * four runtime calls would give every caller of CPUD_DISPATCH_CALL_CACHED
 * a prologue that saves callee-saved registers on the hot path too (test
 * cached-call-hot-path reads the caller's code). CPUD__INLINE_COLD_PATH
 * (that test's control alone) puts it back inline. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(CPUD__INLINE_COLD_PATH)
#define CPUD__COLD_PATH __attribute__((noinline, cold, unused))
#else
#define CPUD__COLD_PATH CPUD__UNUSED inline
#endif
/* The lists of the source that defines NAME, wherever the caller writes
 * CPUD_DISPATCH_DEFINE (and C++'s CPUD_DISPATCH): each generated header
 * names, for every function its source defines with CPUD_FN(NAME),
 * CPUD__SOURCE_OF_NAME as its macros' prefix (CPUD_sum__), so a file may
 * include several dispatch headers in any order first. A NAME that no
 * included header's source defines: one error naming it
 * (NAME_is_no_CPUD_FN_name_of_an_included_dispatch_header undeclared). */
#if !defined(CPUD__LAST_HEADER_LISTS)
#define CPUD__OF(NAME, M) CPUD_CAT(CPUD__SOURCE_OF_##NAME, M)
#else /* test example-fallback-chain's control alone: the last header's lists */
#define CPUD__OF(NAME, M) CPUD__##M
#endif
#define CPUD__DECLARE_OF(NAME, LEFT, ARGS)                                                          \
  typedef char cpud__known_##NAME[sizeof(NAME##_is_no_CPUD_FN_name_of_an_included_dispatch_header)]; \
  CPUD__OF(NAME, DISPATCH_CALL)(CPUD__NOCHK, CPUD__DECL_ONE, LEFT, ARGS)                          \
  CPUD__OF(NAME, DISPATCH_BASELINE_CALL)(CPUD__DECL_BASE, LEFT, ARGS)
#define CPUD__IN_MASK(F) cpud_mask_has(cpud__m, CPUD_FEATURE_##F)
#define CPUD__FN_OF(CHECK, T, NAME) &NAME##_##T,
#define CPUD__FN_OF_BASE(NAME) &NAME##_baseline,
#define CPUD__NAME_OF(CHECK, T, NAME) #T,
#define CPUD__NAME_OF_BASE(NAME) "baseline",
#define CPUD__KEY_OF(CHECK, T, NAME) CPUD_CAT(CPUD_FEATURE_, CPUD__KEY_##T),
#define CPUD__KEY_OF_BASE(NAME) 0,
/* In cpud__index_NAME: with cpud__want < 0, the first target usable in
 * cpud__m; else whether target cpud__want is. */
#define CPUD__INDEX_OF(CHECK, T, NAME)                                         \
  if ((cpud__want < 0 || cpud__want == cpud__i) && (CHECK)) return cpud__i; \
  if (cpud__want == cpud__i) return -1;                                      \
  ++cpud__i;

#define CPUD_DISPATCH_DEFINE(RET, NAME, ARGS)                                                                  \
  CPUD__DECLARE_OF(NAME, RET NAME, ARGS)                                                                       \
  typedef RET(*cpud__fn_##NAME) ARGS;                                                                          \
  /* The compiled targets, highest interest first, the baseline build, then an end entry. */                   \
  static const cpud__fn_##NAME cpud__fns_##NAME[] = {                                                          \
      CPUD__OF(NAME, DISPATCH_CALL)(CPUD__NOCHK, CPUD__FN_OF, NAME)                                                      \
      CPUD__OF(NAME, DISPATCH_BASELINE_CALL)(CPUD__FN_OF_BASE, NAME) CPUD__NULL};                                        \
  static const char *const cpud__names_##NAME[] = {                                                            \
      CPUD__OF(NAME, DISPATCH_CALL)(CPUD__NOCHK, CPUD__NAME_OF, NAME)                                                    \
      CPUD__OF(NAME, DISPATCH_BASELINE_CALL)(CPUD__NAME_OF_BASE, NAME) "none"};                                          \
  static const int cpud__keys_##NAME[] = {                                                                     \
      CPUD__OF(NAME, DISPATCH_CALL)(CPUD__NOCHK, CPUD__KEY_OF, NAME)                                                     \
      CPUD__OF(NAME, DISPATCH_BASELINE_CALL)(CPUD__KEY_OF_BASE, NAME) 0};                                                \
  static cpud__fn_##NAME cpud__slot_##NAME; /* the cached target; 0: select on the next call */                \
  static int cpud__per_call_##NAME;        /* 1: some thread is restricted: select per call */                 \
  static int cpud__selected_##NAME = -1;   /* what the record's selected() says */                             \
  static cpud__fn_##NAME cpud__below_slot_##NAME; /* CPUD_DISPATCH_BELOW's cached build; 0: choose again */     \
  /* Index of the first target usable in cpud__m (cpud__want < 0; the                                          \
     baseline's, or the end entry's, when none is), or whether target                                          \
     cpud__want is (its index, else -1). */                                                                    \
  static inline int cpud__index_##NAME(cpud_mask cpud__m, int cpud__want) {                                    \
    int cpud__i = 0;                                                                                           \
    (void)cpud__m;                                                                                             \
    CPUD__OF(NAME, DISPATCH_CALL)(CPUD__IN_MASK, CPUD__INDEX_OF, NAME)                                                   \
    return cpud__want < 0 || cpud__want == cpud__i ? cpud__i : -1;                                             \
  }                                                                                                            \
  static inline int cpud__count_##NAME(void) {                                                                 \
    return CPUD__CAST(int, sizeof cpud__names_##NAME / sizeof cpud__names_##NAME[0]) - 1;                      \
  }                                                                                                            \
  static inline const char *cpud__target_name_##NAME(int cpud__i) { return cpud__names_##NAME[cpud__i]; }      \
  static inline int cpud__target_feature_##NAME(int cpud__i) { return cpud__keys_##NAME[cpud__i]; }            \
  static inline int cpud__selected_of_##NAME(void) {                                                           \
    const int cpud__i = __atomic_load_n(&cpud__selected_##NAME, __ATOMIC_RELAXED);                             \
    return cpud__i < cpud__count_##NAME() ? cpud__i : -1;                                                      \
  }                                                                                                            \
  static inline void cpud__reset_##NAME(void) {                                                                \
    __atomic_store_n(&cpud__selected_##NAME, -1, __ATOMIC_RELAXED);                                            \
    __atomic_store_n(&cpud__per_call_##NAME, 0, __ATOMIC_SEQ_CST);                                             \
    __atomic_store_n(&cpud__slot_##NAME, CPUD__CAST(cpud__fn_##NAME, CPUD__NULL), __ATOMIC_SEQ_CST);           \
    __atomic_store_n(&cpud__below_slot_##NAME, CPUD__CAST(cpud__fn_##NAME, CPUD__NULL), __ATOMIC_SEQ_CST);     \
  }                                                                                                            \
  static cpud_function cpud__record_##NAME = {#NAME, &cpud__count_##NAME, &cpud__target_name_##NAME,           \
                                              &cpud__target_feature_##NAME, &cpud__selected_of_##NAME,         \
                                              &cpud__reset_##NAME, CPUD__NULL, 0};                             \
  /* Registered first, so that from then on a mask change resets the record;                                   \
     then selected, checking that no change came in between (as                                                \
     dispatcher::resolve in dispatch.hpp). */                                                                  \
  static inline cpud__fn_##NAME cpud__resolve_##NAME(void) {                                                   \
    /* Declarations first: a C90-minded -Wdeclaration-after-statement stays quiet. */                          \
    const unsigned cpud__e = (cpud__register(&cpud__record_##NAME), cpud__epoch());                            \
    const int cpud__i = cpud__index_##NAME(cpud_usable_mask(), -1);                                            \
    const int cpud__shared = CPUD__CAST(int, __atomic_load_n(&cpud__usable[0], __ATOMIC_SEQ_CST) & 1u);        \
    const cpud__fn_##NAME cpud__f = cpud__fns_##NAME[cpud__i];                                                 \
    cpud__fn_##NAME cpud__unset = CPUD__NULL;                                                                  \
    __atomic_store_n(&cpud__selected_##NAME,                                                                   \
                     cpud__shared ? cpud__i : cpud__index_##NAME(cpud__process_mask(), -1), __ATOMIC_RELAXED); \
    __atomic_store_n(&cpud__per_call_##NAME, !cpud__shared, __ATOMIC_SEQ_CST);                                 \
    if (cpud__shared)                                                                                          \
      __atomic_compare_exchange_n(&cpud__slot_##NAME, &cpud__unset, cpud__f, 0, __ATOMIC_SEQ_CST,              \
                                  __ATOMIC_SEQ_CST);                                                           \
    if (cpud__epoch() != cpud__e) cpud__reset_##NAME();                                                        \
    return cpud__f;                                                                                            \
  }                                                                                                            \
  /* The slot is empty: select per call while a thread is restricted, else (again) cache. Out of line. */      \
  CPUD__COLD_PATH static cpud__fn_##NAME cpud__uncached_##NAME(void) {                                         \
    if (__atomic_load_n(&cpud__per_call_##NAME, __ATOMIC_RELAXED)) {                                           \
      const cpud_mask cpud__m = cpud_usable_mask();                                                            \
      if (!(__atomic_load_n(&cpud__usable[0], __ATOMIC_RELAXED) & 1u))                                         \
        return cpud__fns_##NAME[cpud__index_##NAME(cpud__m, -1)];                                              \
    }                                                                                                          \
    return cpud__resolve_##NAME();                                                                             \
  }                                                                                                            \
  CPUD__UNUSED static inline cpud__fn_##NAME cpud__cached_##NAME(void) {                                       \
    const cpud__fn_##NAME cpud__f = __atomic_load_n(&cpud__slot_##NAME, __ATOMIC_RELAXED);                     \
    return cpud__f ? cpud__f : cpud__uncached_##NAME();                                                        \
  }                                                                                                            \
  CPUD__UNUSED static inline cpud__fn_##NAME cpud__callee_##NAME(void) {                                       \
    cpud__fn_##NAME cpud__f = __atomic_load_n(&cpud__slot_##NAME, __ATOMIC_RELAXED);                           \
    if (!cpud__f && !(cpud__f = cpud__uncached_##NAME())) cpud__no_target(#NAME);                              \
    return cpud__f;                                                                                            \
  }                                                                                                            \
  /* Redispatch (CPUD_DISPATCH_BELOW): the first target after `cpud__from` (this file's own target) that   \
     may run now; cached while every thread sees the same set, as the call's pointer. Out of line. */         \
  CPUD__COLD_PATH static cpud__fn_##NAME cpud__below_slow_##NAME(const char *cpud__from) {                      \
    const unsigned cpud__e = (cpud__register(&cpud__record_##NAME), cpud__epoch());                            \
    const cpud_mask cpud__m = cpud_usable_mask();                                                              \
    const int cpud__n = cpud__count_##NAME();                                                                  \
    int cpud__j = cpud__pick_find(cpud__from, cpud__names_##NAME, cpud__n, CPUD__NULL) + 1;                    \
    cpud__fn_##NAME cpud__f;                                                                                   \
    while (cpud__j > 0 && cpud__j < cpud__n && cpud__index_##NAME(cpud__m, cpud__j) < 0) ++cpud__j;            \
    cpud__f = cpud__j > 0 ? cpud__fns_##NAME[cpud__j] : CPUD__CAST(cpud__fn_##NAME, CPUD__NULL);              \
    if (cpud__f && (__atomic_load_n(&cpud__usable[0], __ATOMIC_SEQ_CST) & 1u)) {                              \
      __atomic_store_n(&cpud__below_slot_##NAME, cpud__f, __ATOMIC_SEQ_CST);                                  \
      if (cpud__epoch() != cpud__e)                                                                           \
        __atomic_store_n(&cpud__below_slot_##NAME, CPUD__CAST(cpud__fn_##NAME, CPUD__NULL), __ATOMIC_SEQ_CST); \
    }                                                                                                          \
    return cpud__f;                                                                                            \
  }                                                                                                            \
  CPUD__UNUSED static inline cpud__fn_##NAME cpud__below_##NAME(const char *cpud__from) {                     \
    const cpud__fn_##NAME cpud__f = __atomic_load_n(&cpud__below_slot_##NAME, __ATOMIC_RELAXED);               \
    return cpud__f ? cpud__f : cpud__below_slow_##NAME(cpud__from);                                            \
  }                                                                                                            \
  CPUD__UNUSED static inline cpud__fn_##NAME cpud__pick_##NAME(const char *cpud__target, int *cpud__status) {  \
    const int cpud__i = cpud__pick_find(cpud__target, cpud__names_##NAME, cpud__count_##NAME(), cpud__status); \
    const int cpud__ok = cpud__i >= 0 && cpud__index_##NAME(cpud_usable_mask(), cpud__i) >= 0;                 \
    if (cpud__i >= 0 && cpud__status) *cpud__status = cpud__ok ? CPUD_PICK_OK : CPUD_PICK_NOT_USABLE;          \
    return cpud__ok ? cpud__fns_##NAME[cpud__i] : CPUD__NULL;                                                  \
  }                                                                                                            \
  struct cpud__defined_##NAME /* ended by the caller's ';' */

#define CPUD_DISPATCH_CALL_CACHED(NAME, ARGS) (cpud__callee_##NAME() ARGS)
#define CPUD_DISPATCH_CACHED(NAME) cpud__cached_##NAME()
#define CPUD_DISPATCH_PICK(NAME, TARGET, STATUS) cpud__pick_##NAME(TARGET, STATUS)
#define CPUD_DISPATCH_RECORD(NAME) ((const cpud_function *)&cpud__record_##NAME)
/* Inside a dispatch source that writes CPUD_DISPATCH_DEFINE for its own
 * NAME: the build of NAME below the one this file is compiled as, the
 * first target after it that may run now (the baseline build at the end);
 * NULL in the baseline build, and where nothing after it can run. Cached
 * like CPUD_DISPATCH_CALL_CACHED's pointer (docs/api.md, "Redispatch"). */
#if defined(CPUD__DISPATCH_BUILD)
#define CPUD_DISPATCH_BELOW(NAME) cpud__below_##NAME(CPUD_TARGET_NAME)
#else /* baseline code is no build of NAME: nothing is "below" it */
#define CPUD_DISPATCH_BELOW(NAME)                                                                         \
  CPUD__MOVED("GCC error \"CPUD_DISPATCH_BELOW is for code inside a dispatch source (docs/api.md, Redispatch)\"") \
  CPUD__NULL
#endif

#endif /* C and C++ */
#endif /* CPUDISPATCH_DISPATCH_H_ */
