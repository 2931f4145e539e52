/*
 * cpudispatch: what a program's dispatch sources were compiled for, known
 * at start-up.
 *
 * Every generated NAME.dispatch.h defines one record per compiled target
 * (the target's member features, a cpud_mask) and one empty record for the
 * source itself, in the section "cpud_compiled". Every file that includes
 * the header holds them, the target builds included, so the linked program
 * or shared library holds the records of every source it can call. The
 * runtime reads them between the linker's __start_/__stop_ symbols, which
 * are hidden: each copy of the runtime (one per program or shared library)
 * sees its own. The environment variables' warnings compare against them
 * (docs/runtime.md): DISABLE=xop in a program none of whose sources was
 * compiled for XOP changes nothing, and says so.
 *
 * ELF only (Linux); elsewhere no record is kept and the warnings compare
 * against the build's cpu-dispatch set.
 */
#ifndef CPUDISPATCH_COMPILED_H_
#define CPUDISPATCH_COMPILED_H_

#include "cpudispatch.h"

/* Word I of the mask bit of feature F. */
#define CPUD__COMPILED_W(I, F) \
  ((CPUD_FEATURE_##F) / 64 == (I) ? (uint64_t)1 << ((CPUD_FEATURE_##F) % 64) : (uint64_t)0)

#if defined(__ELF__) && (defined(__GNUC__) || defined(__clang__))
/* retain: kept under --gc-sections by linkers that drop sections only
 * __start_/__stop_ refer to (lld's -z start-stop-gc). */
#if defined(__has_attribute)
#if __has_attribute(retain)
#define CPUD__COMPILED_RETAIN retain,
#endif
#endif
#ifndef CPUD__COMPILED_RETAIN
#define CPUD__COMPILED_RETAIN
#endif
#define CPUD__COMPILED_RECORD(ID) \
  static const cpud_mask ID __attribute__((CPUD__COMPILED_RETAIN used, section("cpud_compiled"), aligned(8)))
#else
#define CPUD__COMPILED_RECORD(ID) static const cpud_mask ID __attribute__((unused))
#endif

#endif /* CPUDISPATCH_COMPILED_H_ */
