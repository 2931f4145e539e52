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

/* The process's usable features, bit per id, with bit 0 set while no
 * thread restricts itself (cpud_set_thread_allowed): then it is every
 * thread's answer. 0 until the first query initialises it. Hidden: each
 * shared library that links the runtime has its own copy. */
CPUD_HIDDEN extern uint64_t cpud__usable;
/* Initialises, or applies the calling thread's restriction. */
CPUD_HIDDEN uint64_t cpud__usable_slow(void);
CPUD_HIDDEN uint64_t cpud__init(void);

/* Mask of features the calling thread's dispatch may use (detects on first
 * use; thread-safe). The mask is
 * closed: a feature's bit is set only when the bits of everything it implies
 * are set too, so CPUD_HAVE(AVX2) alone tells whether AVX2 code may run, and
 * the C macros (which test every feature a target needs) and the C++
 * dispatcher (which tests the target's own bit) always agree. */
static inline uint64_t cpud_usable_mask(void) {
  uint64_t m = __atomic_load_n(&cpud__usable, __ATOMIC_ACQUIRE);
  return (m & 1u) ? m : cpud__usable_slow();
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

/* --- detection from a described CPU (cpudispatch-info --cpu-dump, tests) ---
 * What a CPU and its OS report, as detection reads it: x86 from CPUID leaves
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
CPUD_HIDDEN uint64_t cpud_detect_cpu(const cpud_cpu_report *cpu);
/* From now on the process dispatches as on that CPU: its detected features
 * replace this one's, the environment masks are applied to them again (a
 * bad variable exits with CPUD_EXIT_ENV, as at start-up) and every
 * registered function selects again. A tool for introspection and tests:
 * code still runs on this CPU, so select only what this CPU can run. */
CPUD_HIDDEN void cpud_assume_cpu(const cpud_cpu_report *cpu);
/* The length in bytes of the scalable vectors the calling thread's code
 * gets (aarch64: SVE, prctl(PR_SVE_GET_VL); riscv64: V, CSR vlenb), 0 when
 * the arch has none or they are not usable; an assumed CPU's value after
 * cpud_assume_cpu. */
CPUD_HIDDEN int cpud_vector_bytes(void);

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
/* Make only mask & cpud_detected_mask() (and the baseline) usable for the
 * process, closed over implied features (a feature stays usable only with
 * everything it implies), in place of what the environment variables left,
 * and make every registered function select again. Safe while other threads
 * call dispatched functions: a call runs a target of the old or the new
 * mask, and calls that start after this returns use the new one. For tests;
 * returns the previous mask (as set, before cpud_set_disabled_features). */
CPUD_HIDDEN uint64_t cpud_set_usable_mask(uint64_t mask);

/* --- switching targets off at run time --- */
/* Process-wide: the given features, and every feature that implies one of
 * them, stop being usable (e.g. CPUD_BIT(AVX512F) where AVX-512 is known to
 * be slower); every registered function selects again. Replaces the set
 * given before (0 switches nothing off). Safe while other threads call
 * dispatched functions, like cpud_set_usable_mask. Returns 0, or -1 and
 * changes nothing when a feature is part of the build's baseline (which
 * every part of the program is compiled for). Bits of no feature are
 * ignored. */
CPUD_HIDDEN int cpud_set_disabled_features(uint64_t features);
/* The set cpud_set_disabled_features last gave (0 at start). */
CPUD_HIDDEN uint64_t cpud_disabled_features(void);
/* Per thread: the calling thread's dispatch uses only features in `allowed`
 * (closed over implied features; the baseline always stays usable). Every
 * other thread is unaffected. Returns the previous allowed set, to restore
 * it; ~0 (everything) means unrestricted, the default. While any thread is
 * restricted, every dispatched call of every thread selects per call (a few
 * ns; docs/runtime.md); the C++ guards cpud::exclude_features and
 * cpud::only_features (dispatch.hpp) call this. */
CPUD_HIDDEN uint64_t cpud_set_thread_allowed(uint64_t allowed);
CPUD_HIDDEN uint64_t cpud_thread_allowed(void);
/* The features of mask whose implied features are all in mask (how every
 * usable mask is closed). */
CPUD_HIDDEN uint64_t cpud_close_over_implied(uint64_t mask);
/* mask plus every feature its features imply. */
CPUD_HIDDEN uint64_t cpud_with_implied(uint64_t mask);

/* Internal, for dispatch.hpp: the process's usable mask (bit 0 set), a
 * counter bumped by every change of a mask, and re-selection of one
 * function. */
CPUD_HIDDEN uint64_t cpud__process_mask(void);
CPUD_HIDDEN unsigned cpud__epoch(void);
CPUD_HIDDEN void cpud__reselect(cpud_function *f);

/* --- typed operators (operator.hpp) register themselves on their first
 * resolution and leave the list when destroyed; introspection walks it --- */
typedef struct cpud_operator cpud_operator;
struct cpud_operator {
  const char *name;
  const void *self;
  int (*kernel_count)(const void *self);
  /* Kernel i (static table first, then added ones, newest first): its
   * dispatched function's name, its parameter types as text ("(float32,
   * float32)"), the target it selects for the calling thread, and its
   * compiled targets (highest interest first). */
  const char *(*kernel_function)(const void *self, int i);
  void (*kernel_types)(const void *self, int i, char *buf, size_t cap);
  const char *(*kernel_selected)(const void *self, int i);
  int (*kernel_target_count)(const void *self, int i);
  const char *(*kernel_target_name)(const void *self, int i, int j);
  /* Resolution cache slot s, 0 <= s < cache_slots: 0 when it holds nothing
   * current; else 1, with the argument types and each argument's
   * conversion written as text and *kernel set to the chosen kernel's
   * function (NULL, and "no match" or "ambiguous" for the conversions, when
   * the types matched nothing or tied). */
  int cache_slots;
  int (*cache_entry)(const void *self, int s, char *args, size_t args_cap, char *conv, size_t conv_cap,
                     const char **kernel);
  cpud_operator *next;
};
CPUD_HIDDEN void cpud__register_operator(cpud_operator *op);
CPUD_HIDDEN void cpud__unregister_operator(cpud_operator *op);
/* Calls fn for each registered operator, most recent first, while holding
 * the list's lock (an operator cannot be destroyed meanwhile; fn must not
 * resolve on an operator that has not registered yet). */
CPUD_HIDDEN void cpud_for_each_operator(void (*fn)(const cpud_operator *op, void *ctx), void *ctx);

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
