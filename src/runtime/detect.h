// Internal: per-arch raw detection. Each arch/OS file defines detect_raw()
// for the build's arch; features.cpp turns the raw bits into the usable mask
// (closure over implied features, env masks).
#ifndef CPUDISPATCH_SRC_DETECT_H_
#define CPUDISPATCH_SRC_DETECT_H_

#include <cstdint>

#include "cpudispatch/cpudispatch.h"

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

// Sets cross this interface as cpud_mask (see env_masks.h).
namespace cpud::internal {

using cpud::feature_set;  // within the runtime's own code

// Bit per feature id of `want` whose own detection bit is set (CPU + OS
// state); group rows of `want` are set unconditionally, the closure check
// decides them. Rows outside `want` are not read (no leaf, no syscall) and
// stay clear. detect_raw() asks this CPU; detect_raw_from() reads a
// described one through the same code (the fake-CPU seam of
// cpud_detect_cpu). On x86 a described CPU can also model glibc's copy of
// its leaves (libc_copy) and count what this CPU's reading would cost
// (*cost): start-up's cost on recorded CPUs.
struct reading_cost {
  unsigned cpuids;       // CPUID instructions executed
  unsigned kernel_asks;  // questions to the kernel (AMX's permission)
};
CPUD_HIDDEN cpud_mask detect_raw(const cpud_mask &want);
CPUD_HIDDEN cpud_mask detect_raw_from(const cpud_cpu_report &cpu, const cpud_mask &want, bool libc_copy = false,
                                      reading_cost *cost = nullptr);

// What start-up detects: the baseline and every dispatch target of the
// build, with what they imply. The rest waits for cpud_detected_mask().
CPUD_HIDDEN cpud_mask startup_wanted();
// Every feature's bit and no other.
CPUD_HIDDEN cpud_mask every_feature();

// The feature whose vectors cpud_vector_bytes measures (SVE, RVV; 0: the
// arch has none), and this thread's length of them in bytes: asked only
// while that feature is usable.
CPUD_HIDDEN int vector_feature();
CPUD_HIDDEN int live_vector_bytes();

// x86 only: the same, choosing whether the C library's copy of the CPUID
// leaves may be used (tests compare both ways).
CPUD_HIDDEN cpud_mask detect_raw_with(bool use_libc_cache, const cpud_mask &want);

// Number of CPUID instructions executed so far (x86; 0 elsewhere), and
// whether the C library's copy of leaves 1, 7.0, 7.1, 0x80000001 is read
// instead (glibc >= 2.33).
CPUD_HIDDEN unsigned cpuid_count();
CPUD_HIDDEN bool libc_cpuid_copy();
// x86: the CPUID leaves this CPU's detection has read so far (from the
// copy or the instruction), one bit per leaf; leaf_name(bit) names it
// ("7.1", "0x80000001"), nullptr past the last. 0 / nullptr elsewhere.
CPUD_HIDDEN unsigned leaves_read();
CPUD_HIDDEN const char *leaf_name(int bit);

// features.cpp: every feature id `id` implies (transitively); what a group
// adds to its base (empty for a feature); what disabling it turns off (it,
// what it adds, and every feature implying one of those); the usable
// subset of a raw set (own bit and all implied bits set); and every
// dispatch target of the build with what it implies.
CPUD_HIDDEN cpud_mask implied_mask(int id);
CPUD_HIDDEN cpud_mask adds_mask(int id);
CPUD_HIDDEN cpud_mask removes_mask(int id);
CPUD_HIDDEN cpud_mask close_over_implied(const cpud_mask &raw);
CPUD_HIDDEN cpud_mask dispatched_mask();
// What this program's (or shared library's) dispatch sources were compiled
// for, from their records (include/cpudispatch/compiled.h): sets *known
// to 1, *targets to the targets' members and *dispatched to those and what
// they imply; leaves all three as they are where there is no record (no
// dispatch source, or not ELF). Walks the loaded objects (dl_iterate_phdr):
// called only when an environment variable is set.
CPUD_HIDDEN void compiled_targets(int *known, cpud_mask *targets, cpud_mask *dispatched);

// selection.cpp, which holds the process's sets under one lock: publishes
// the detected features and the usable set the env masks left (true for
// the first caller among racing initialisers, which prints the env
// warnings); replaces both (cpud_assume_cpu); reads the detected set.
// publish_initial's `detected` covers startup_wanted() only (or every
// feature, when an ENABLE variable needed them all): detected_features()
// completes it on first use.
CPUD_HIDDEN bool publish_initial(const cpud_mask &detected, const cpud_mask &usable, bool complete);
CPUD_HIDDEN void replace_detected(const cpud_mask &detected, const cpud_mask &usable);
CPUD_HIDDEN cpud_mask detected_features();
// The detected set as start-up left it: it covers the build's features
// (startup_wanted()), so the baseline check reads no other row.
CPUD_HIDDEN cpud_mask startup_detected();

}  // namespace cpud::internal

#endif
