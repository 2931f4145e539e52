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
 *       re-checks the CPU on every call: cache CPUD_DISPATCH_SELECT instead,
 *       or use the C++ CPUD_DISPATCH, in hot code). A source without a
 *       baseline build on a CPU none of its targets suits: prints why and
 *       aborts, like the C++ dispatcher
 *   CPUD_DISPATCH_SELECT(sum_f32)
 *       the best target's address (NULL when none can run and the source
 *       has no baseline build)
 *   CPUD_DISPATCH_CALL_ALL(sum_f32, (p, n))
 *       calls every target this CPU can run, then the baseline (tests)
 *
 * The lower-level CPUD__DISPATCH_CALL(CHK, CB, ...) and
 * CPUD__DISPATCH_BASELINE_CALL(CB, ...) come from the generated header.
 */
#ifndef CPUDISPATCH_DISPATCH_H_
#define CPUDISPATCH_DISPATCH_H_

#include "cpudispatch/cpudispatch.h"

#define CPUD_CAT_(a, b) a##b
#define CPUD_CAT(a, b) CPUD_CAT_(a, b)
#define CPUD_STR_(a) #a
#define CPUD_STR(a) CPUD_STR_(a)

/* NAME as compiled for the current target: NAME_AVX2, NAME_baseline, ... */
#define CPUD_FN(NAME) CPUD_CAT(NAME, CPUD_CAT(_, CPUD_TARGET))
/* The current target's name as a string literal: "AVX2", "baseline", ... */
#define CPUD_TARGET_NAME CPUD_STR(CPUD_TARGET)
/* A per-target C++ namespace, so inline functions and types a dispatch
 * source defines never merge across targets: namespace CPUD_TARGET_NS {...} */
#define CPUD_TARGET_NS CPUD_CAT(cpud_target_, CPUD_TARGET)

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
   CPUD__DISPATCH_FALLBACK(&NAME##_baseline, 0))

#define CPUD__ALL_ONE(CHECK, T, NAME, ARGS) if (CHECK) { (void)(NAME##_##T ARGS); }
#define CPUD__ALL_BASE(NAME, ARGS) (void)(NAME##_baseline ARGS);
#define CPUD_DISPATCH_CALL_ALL(NAME, ARGS)                             \
  do {                                                                 \
    CPUD__DISPATCH_CALL(CPUD_HAVE, CPUD__ALL_ONE, NAME, ARGS)          \
    CPUD__DISPATCH_BASELINE_CALL(CPUD__ALL_BASE, NAME, ARGS)           \
  } while (0)

#endif /* CPUDISPATCH_DISPATCH_H_ */
