/* Internal: per-arch raw detection and the runtime's shared internals (C).
 * Each arch/OS file (the table's detect_source) defines cpud__detect_raw()
 * for the build's arch; features.c turns the raw bits into the usable mask
 * (closure over implied features, env masks). Tools and tests written in
 * C++ reach the same functions through cpud::internal (below). */
#ifndef CPUDISPATCH_SRC_DETECT_H_
#define CPUDISPATCH_SRC_DETECT_H_

#include <stdint.h>

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

#ifdef __cplusplus
extern "C" {
#endif

/* Set operations the runtime needs beyond cpudispatch.h's (C has no
 * operators), on the features of a set only: bit 0 and bits past the table
 * are ignored. Inline: start-up and the env masks use them per feature. */
static inline uint64_t cpud__feature_bits(int i) {
  const int top = CPUD_FEATURE_COUNT - 64 * i; /* the last id's bit in word i */
  const uint64_t m = top >= 63 ? ~(uint64_t)0 : top < 0 ? 0 : ((uint64_t)1 << (top + 1)) - 1;
  return i == 0 ? m & ~(uint64_t)1 : m;
}
static inline int cpud__mask_empty(cpud_mask m) {
  for (int i = 0; i < CPUD_MASK_WORDS; ++i)
    if (m.w[i] & cpud__feature_bits(i)) return 0;
  return 1;
}
CPUD_HIDDEN int cpud__mask_count(cpud_mask m);
/* Every feature's bit and no other. */
static inline cpud_mask cpud__every_feature(void) {
  cpud_mask m;
  for (int i = 0; i < CPUD_MASK_WORDS; ++i) m.w[i] = cpud__feature_bits(i);
  return m;
}

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

/* What start-up detects: the baseline and every dispatch target of the
 * build, with what they imply. The rest waits for cpud_detected_mask(). */
CPUD_HIDDEN cpud_mask cpud__startup_wanted(void);

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

/* features.c: every feature id `id` implies (transitively); what a group
 * adds to its base (empty for a feature); what disabling it turns off (it,
 * what it adds, and every feature implying one of those); the usable
 * subset of a raw set (own bit and all implied bits set); and every
 * dispatch target of the build with what it implies. The three per-id sets
 * are configure's (cpudispatch_features.h), not recomputed here. */
CPUD_HIDDEN extern const cpud_mask cpud__implied_sets[CPUD_FEATURE_COUNT + 1];
CPUD_HIDDEN extern const cpud_mask cpud__adds_sets[CPUD_FEATURE_COUNT + 1];
CPUD_HIDDEN extern const cpud_mask cpud__removes_sets[CPUD_FEATURE_COUNT + 1];
static inline cpud_mask cpud__implied_mask(int id) {
  return id > 0 && id <= CPUD_FEATURE_COUNT ? cpud__implied_sets[id] : cpud_mask_none();
}
static inline cpud_mask cpud__adds_mask(int id) {
  return id > 0 && id <= CPUD_FEATURE_COUNT ? cpud__adds_sets[id] : cpud_mask_none();
}
static inline cpud_mask cpud__removes_mask(int id) {
  return id > 0 && id <= CPUD_FEATURE_COUNT ? cpud__removes_sets[id] : cpud_mask_none();
}
CPUD_HIDDEN cpud_mask cpud__close_over_implied(cpud_mask raw);
CPUD_HIDDEN cpud_mask cpud__dispatched_mask(void);
/* The names of mask's features, space-separated, in id order (cut short,
 * never overrun, when cap is too small): for messages. */
CPUD_HIDDEN void cpud__mask_names(cpud_mask mask, char *buf, size_t cap);
/* cpud_check_baseline() with the message's subject: the program (0) or a
 * library inside another process (1) (baseline_check.c). */
CPUD_HIDDEN int cpud__check_baseline_of(int library, char *msg, size_t cap);
/* Prints `line` on stderr unless a copy of the runtime in this process
 * printed the same line before (features.c's table of printed lines). */
CPUD_HIDDEN void cpud__print_once(const char *line);
/* What this program's (or shared library's) dispatch sources were compiled
 * for, from their records (include/cpudispatch/compiled.h): sets *known
 * to 1, *targets to the targets' members and *dispatched to those and what
 * they imply; leaves all three as they are where there is no record (no
 * dispatch source, or not ELF). Walks the loaded objects (dl_iterate_phdr):
 * called only when an environment variable is set. */
CPUD_HIDDEN void cpud__compiled_targets(int *known, cpud_mask *targets, cpud_mask *dispatched);

/* selection.c, which holds the process's sets under one lock: publishes
 * the detected features and the usable set the env masks left (1 for the
 * first caller among racing initialisers, which prints the env warnings);
 * replaces both (cpud_assume_cpu); reads the detected set. The initial
 * `detected` covers cpud__startup_wanted() only (or every feature, when an
 * ENABLE variable needed them all): cpud__detected_features() completes it
 * on first use. */
CPUD_HIDDEN int cpud__publish_initial(cpud_mask detected, cpud_mask usable, int complete);
CPUD_HIDDEN void cpud__replace_detected(cpud_mask detected, cpud_mask usable);
CPUD_HIDDEN cpud_mask cpud__detected_features(void);
/* The detected set as start-up left it: it covers the build's features
 * (cpud__startup_wanted()), so the baseline check reads no other row. */
CPUD_HIDDEN cpud_mask cpud__startup_detected(void);

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
