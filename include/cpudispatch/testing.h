/* SPDX-License-Identifier: MIT */
/*
 * cpudispatch: hooks for tests and introspection. Detect a described CPU
 * (cpudispatch-info --cpu-dump), dispatch as on it, or make a chosen set
 * usable: the way a test runs every target on one machine. Code still
 * runs on this CPU, so select only what this CPU can run.
 */
#ifndef CPUDISPATCH_TESTING_H_
#define CPUDISPATCH_TESTING_H_

#include <stddef.h>
#include <stdint.h>

#include "cpudispatch/cpudispatch.h"
/* The names cpudispatch.h points here, when it came first (namespace.h). */
#undef cpud_assume_cpu
#undef cpud_detect_cpu
#undef cpud_set_usable_mask
#define cpud_assume_cpu CPUD__NS(cpud_assume_cpu)
#define cpud_detect_cpu CPUD__NS(cpud_detect_cpu)
#define cpud_set_usable_mask CPUD__NS(cpud_set_usable_mask)

#ifdef __cplusplus
extern "C" {
#endif

/* What a CPU and its OS report, as detection reads it: x86 from CPUID leaves
 * and XCR0, Linux hwcap arches from the auxiliary vector's hwcap words (and
 * riscv_hwprobe on riscv64). Leaves not given read as zero; leaves above the
 * maximum basic (leaf 0 EAX) or extended (0x80000000 EAX) leaf read as zero;
 * XCR0 is used only when CPUID.1:ECX.OSXSAVE is set, and without has_xcr0 it
 * is what CPUID.(0Dh,0) says the CPU can save. */
typedef struct cpud_cpuid_leaf {
  uint32_t leaf, subleaf, eax, ebx, ecx, edx;
} cpud_cpuid_leaf;
typedef struct cpud_cpu_report {
  const cpud_cpuid_leaf *leaves; /* x86 */
  size_t leaf_count;
  int has_xcr0;
  uint64_t xcr0;
  int amx_denied;            /* the OS refuses AMX tile state (Linux: arch_prctl) */
  unsigned long hwcap, hwcap2; /* hwcap arches */
  int has_hwprobe;           /* riscv64: the kernel answers riscv_hwprobe */
  uint64_t hwprobe_ima_ext_0; /* its RISCV_HWPROBE_KEY_IMA_EXT_0 answer */
  int vector_bytes;          /* scalable vectors' length in bytes: aarch64 SVE,
                                riscv64 V; 0 unknown */
} cpud_cpu_report;
/* The features such a CPU would be detected with (closed over implied
 * features, before the environment masks); this CPU is never consulted. */
CPUD_HIDDEN cpud_mask cpud_detect_cpu(const cpud_cpu_report *cpu);
/* From now on the process dispatches as on that CPU: its detected features
 * replace this one's, the environment masks are applied to them again (a
 * bad variable exits with CPUD_EXIT_ENV, as at start-up) and every
 * registered function selects again. A tool for introspection and tests:
 * code still runs on this CPU, so select only what this CPU can run. */
CPUD_HIDDEN void cpud_assume_cpu(const cpud_cpu_report *cpu);
/* Make only mask & cpud_detected_mask() (and the baseline) usable for the
 * process, closed over implied features, in place of what the environment
 * variables left; every registered function selects again. Safe while
 * other threads call dispatched functions: a call runs a target of the old
 * or the new mask. Returns the previous mask (as set, before
 * cpud_set_disabled_features). */
CPUD_HIDDEN cpud_mask cpud_set_usable_mask(cpud_mask mask);

#ifdef __cplusplus
}

CPUD_NAMESPACE_BEGIN
// For tests: while alive, only `mask` (within what the CPU has, plus the
// baseline) is usable in the whole process and every dispatched function
// selects again; the previous mask and selections come back at the end of
// the scope.
class scoped_features {
 public:
  explicit scoped_features(const feature_set &mask) : prev_(cpud_set_usable_mask(mask)) {}
  ~scoped_features() { cpud_set_usable_mask(prev_); }
  scoped_features(const scoped_features &) = delete;
  scoped_features &operator=(const scoped_features &) = delete;

 private:
  feature_set prev_;
};

CPUD_NAMESPACE_END  // namespace cpud
#endif

#endif /* CPUDISPATCH_TESTING_H_ */
