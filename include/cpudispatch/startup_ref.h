/* SPDX-License-Identifier: MIT */
/*
 * cpudispatch: why the start-up check is in every program that can reach
 * code built for the baseline.
 *
 * The check (src/runtime/baseline_check.c) is a constructor: nothing
 * calls it. A linker copies an object out of a static archive only to
 * resolve a symbol, so a program that links a static library holding the
 * runtime (`link_whole` copies its objects into libfoo.a) would leave the
 * check's object behind and run its first baseline instruction on any CPU.
 * So every file that includes a cpudispatch header (cpudispatch.h, and
 * through it dispatch.h and each generated NAME.dispatch.h, which every
 * caller of a kernel includes) keeps a pointer to a symbol defined next to
 * the check. The reference sits in that file's object, whatever the link
 * shape: an executable, a shared library, a static library linked with or
 * without --whole-archive, installed and linked by `cc ... -lfoo`. Once the
 * object is in the link, the check's object is too, and its constructor
 * runs before any other of the program's (docs/runtime.md, "Start-up").
 *
 * The pointer is constant data (no initialiser runs, so target builds may
 * include this too) and `used` keeps it at -O2 and under LTO. The anchor is
 * the runtime's own (cpudispatch/namespace.h): each library's files keep
 * their own library's check. In library mode without an init function
 * (mode=library) the same object holds the ELF property that makes
 * the loader refuse the library on a CPU below its baseline, and the check
 * that reports it where no loader did. Not planted in the runtime itself,
 * where an init function calls cpud_host_init() or cpud_library_init()
 * instead (mode=init), or in files built at the floor with
 * cpudispatch_floor_dep (CPUD_NO_BASELINE_GUARD): they hold no baseline
 * code to guard, and may be linked without the runtime.
 */
#ifndef CPUDISPATCH_STARTUP_REF_H_
#define CPUDISPATCH_STARTUP_REF_H_

#include "cpudispatch/namespace.h"
#include "cpudispatch_config.h"

#if (CPUD_STARTUP_CHECK || CPUD_MODE_LIBRARY) && !defined(CPUD__RUNTIME) && !defined(CPUD_NO_BASELINE_GUARD) && \
    !defined(CPUD__NO_STARTUP_REF) && (defined(__GNUC__) || defined(__clang__))
#ifdef __cplusplus
extern "C" {
#endif
#if defined(_WIN32)
extern const char cpud__startup_check_anchor;
#else
extern __attribute__((visibility("hidden"))) const char cpud__startup_check_anchor;
#endif
#ifdef __cplusplus
}
#endif
/* CPUD__NO_STARTUP_REF leaves it out: for the negative control only
 * (test/shapes), which shows a static library's program losing the check. */
static const char *const cpud__startup_check_ref __attribute__((used)) = &cpud__startup_check_anchor;
#endif

#endif /* CPUDISPATCH_STARTUP_REF_H_ */
