/* SPDX-License-Identifier: MIT */
/* Internal, layer 2: per-arch raw detection. Each arch/OS file (the
 * table's detect_source) defines cpud__detect_raw() for the build's arch;
 * start-up (startup.c) turns the raw bits into the usable mask (closure
 * over implied features, env masks). Tools and tests written in C++ reach
 * the same functions, and the feature table's (feature_table.h), through
 * cpud::internal (below). */
#ifndef CPUDISPATCH_SRC_DETECT_H_
#define CPUDISPATCH_SRC_DETECT_H_

#include <stdint.h>

#include "cpudispatch/testing.h"
#include "feature_table.h"

enum cpud_detect_kind {
  CPUD_DETECT_GROUP,
  CPUD_DETECT_CPUID,
  CPUD_DETECT_CPUID_GE,
  CPUD_DETECT_HWCAP,
  CPUD_DETECT_HWCAP2,
  CPUD_DETECT_HWPROBE,
  CPUD_DETECT_VECTOR_BYTES
};
enum cpud_reg { CPUD_REG_EAX, CPUD_REG_EBX, CPUD_REG_ECX, CPUD_REG_EDX };

#ifdef __cplusplus
extern "C" {
#endif

/* Bit per feature id of `want` whose own detection bit is set (CPU + OS
 * state); group rows of `want` are set unconditionally, the closure check
 * decides them. Rows outside `want` are not read (no leaf, no syscall) and
 * stay clear. cpud__detect_raw() asks this CPU; cpud__detect_raw_from()
 * reads a described one through the same code (the fake-CPU seam of
 * cpud_detect_cpu). On x86 a described CPU can also model glibc's copy of
 * its leaves (libc_copy) and count what this CPU's reading would cost
 * (*cost, may be NULL): start-up's cost on recorded CPUs. */
typedef struct cpud__reading_cost {
  unsigned cpuids;      /* CPUID instructions executed */
  unsigned kernel_asks; /* questions to the kernel (AMX's permission) */
} cpud__reading_cost;
CPUD_HIDDEN cpud_mask cpud__detect_raw(cpud_mask want);
CPUD_HIDDEN cpud_mask cpud__detect_raw_from(const cpud_cpu_report *cpu, cpud_mask want, int libc_copy,
                                            cpud__reading_cost *cost);
/* x86 only: cpud__detect_raw, choosing whether the C library's copy of the
 * CPUID leaves may be used (tests compare both ways). */
CPUD_HIDDEN cpud_mask cpud__detect_raw_with(int use_libc_cache, cpud_mask want);

/* The feature whose vectors cpud_vector_bytes measures (SVE, RVV; 0: the
 * arch has none), and this thread's length of them in bytes: asked only
 * while that feature is usable. */
CPUD_HIDDEN int cpud__vector_feature(void);
CPUD_HIDDEN int cpud__live_vector_bytes(void);

/* Number of CPUID instructions executed so far (x86; 0 elsewhere), and
 * whether the C library's copy of leaves 1, 7.0, 7.1, 0x80000001 is read
 * instead (glibc >= 2.33). */
CPUD_HIDDEN unsigned cpud__cpuid_count(void);
CPUD_HIDDEN int cpud__libc_cpuid_copy(void);
/* x86: the CPUID leaves this CPU's detection has read so far (from the
 * copy or the instruction), one bit per leaf; cpud__leaf_name(bit) names it
 * ("7.1", "0x80000001"), NULL past the last. 0 / NULL elsewhere. */
CPUD_HIDDEN unsigned cpud__leaves_read(void);
CPUD_HIDDEN const char *cpud__leaf_name(int bit);

#ifdef __cplusplus
}

// The same functions under the names C++ tools and tests use (inline, so
// the runtime itself stays C).
CPUD_NAMESPACE_BEGIN
namespace internal {
using cpud::feature_set;
using reading_cost = cpud__reading_cost;
inline cpud_mask detect_raw(const cpud_mask &want) { return cpud__detect_raw(want); }
inline cpud_mask detect_raw_from(const cpud_cpu_report &cpu, const cpud_mask &want, bool libc_copy = false,
                                 reading_cost *cost = nullptr) {
  return cpud__detect_raw_from(&cpu, want, libc_copy, cost);
}
inline cpud_mask detect_raw_with(bool use_libc_cache, const cpud_mask &want) {
  return cpud__detect_raw_with(use_libc_cache, want);
}
inline cpud_mask startup_wanted() { return cpud__startup_wanted(); }
inline cpud_mask every_feature() { return cpud__every_feature(); }
inline unsigned cpuid_count() { return cpud__cpuid_count(); }
inline bool libc_cpuid_copy() { return cpud__libc_cpuid_copy() != 0; }
inline unsigned leaves_read() { return cpud__leaves_read(); }
inline const char *leaf_name(int bit) { return cpud__leaf_name(bit); }
inline cpud_mask implied_mask(int id) { return cpud__implied_mask(id); }
inline cpud_mask adds_mask(int id) { return cpud__adds_mask(id); }
inline cpud_mask removes_mask(int id) { return cpud__removes_mask(id); }
inline cpud_mask close_over_implied(const cpud_mask &raw) { return cpud__close_over_implied(raw); }
inline cpud_mask dispatched_mask() { return cpud__dispatched_mask(); }
}  // namespace internal
CPUD_NAMESPACE_END  // namespace cpud
#endif

#endif
