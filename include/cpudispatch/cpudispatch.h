/*
 * cpudispatch run-time API (C and C++). The runtime behind it is C11 and
 * needs libc alone; the C++ parts below are inline, over the C functions.
 *
 * Features are the rows of the build's feature table (cpudispatch_features.h,
 * generated from src/features/<arch>/table.py). A feature is *usable* when
 * the CPU has it, the OS saves its register state, everything it implies is
 * usable, and no environment mask turned it off.
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

/* The process's usable features, with bit 0 set while no thread restricts
 * itself (cpud_set_thread_allowed): then they are every thread's answer.
 * 0 until the first query initialises them. Hidden: each shared library
 * that links the runtime has its own copy. */
CPUD_HIDDEN extern uint64_t cpud__usable[CPUD_MASK_WORDS];
/* Initialise, or apply the calling thread's restriction; a consistent
 * copy of every word. */
CPUD_HIDDEN cpud_mask cpud__usable_slow(void);
CPUD_HIDDEN int cpud__have_slow(int feature);
CPUD_HIDDEN cpud_mask cpud__init(void);

/* The features the calling thread's dispatch may use (detects on first
 * use; thread-safe). The set is closed: a feature is in it only when
 * everything it implies is too, so CPUD_HAVE(AVX2) alone tells whether
 * AVX2 code may run, and the C macros (which test every feature a target
 * needs) and the C++ dispatcher (which tests the target's own bit) always
 * agree. */
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
/* 1 if feature id F is usable, else 0: one load (two when the id is past
 * the first word). A single bit needs no consistent copy of all words:
 * each word holds a closed answer for its own bits. Only the build's
 * features (baseline, cpu-dispatch targets, what they imply) are ever
 * usable: 0 for any other, whatever the CPU has (cpud_detected_mask). */
static inline int cpud_have(int feature) {
  uint64_t w = __atomic_load_n(&cpud__usable[0], __ATOMIC_ACQUIRE);
  if (!(w & 1u)) return cpud__have_slow(feature);
  if (feature <= 0 || feature > CPUD_FEATURE_COUNT) return 0;
  if (feature >> 6) w = __atomic_load_n(&cpud__usable[feature >> 6], __ATOMIC_ACQUIRE);
  return CPUD__CAST(int, (w >> (feature & 63)) & 1u);
}
#define CPUD_HAVE(F) cpud_have(CPUD_FEATURE_##F)

/* Exit statuses of the start-up check (documented in docs/runtime.md). */
#define CPUD_EXIT_BASELINE 69 /* the CPU lacks a baseline feature */
#define CPUD_EXIT_ENV 78      /* a bad PREFIX_DISABLE/ENABLE_CPU_FEATURES */

/* Features the CPU and OS support, closed over implied features, before
 * the environment masks: every feature of the table. Start-up reads only
 * the build's features; the first call reads the others (CPUID leaves, the
 * kernel's AMX permission), once. */
CPUD_HIDDEN cpud_mask cpud_detected_mask(void);
/* The build's baseline, as a mask. */
CPUD_HIDDEN cpud_mask cpud_baseline_mask(void);
/* Checks the baseline against this CPU. Returns the number of missing
 * features (0: fine) and, if msg is not NULL, writes the message the
 * start-up check would print (without a trailing newline). */
CPUD_HIDDEN int cpud_check_baseline(char *msg, size_t cap);
/* For hosts that must not exit (a Python extension, a plugin; build with
 * -Dcpudispatch:mode=init, "host mode"): detects, reads the
 * environment variables and checks the baseline, in the start-up check's
 * order, and returns 0 when all is well, CPUD_EXIT_ENV for a bad variable
 * or CPUD_EXIT_BASELINE for a CPU below the baseline, with the line the
 * start-up check would print (from "cpudispatch: ", no newline) in msg.
 * Call it before any dispatched or baseline code runs, from code compiled
 * at the floor (docs/python.md); it never exits. In host mode a bad
 * variable leaves only the baseline builds usable. */
CPUD_HIDDEN int cpud_host_init(char *msg, size_t cap);
/* Library mode: for a shared library that lives inside other processes
 * (built with -Dcpudispatch:mode=init). Its init, compiled at the
 * floor, calls this first and forwards a failure through its own API
 * (docs/libraries.md, "Library mode"). Returns 0, or CPUD_EXIT_BASELINE with
 * the start-up check's line in msg for a CPU below the baseline: then none
 * of the library's baseline code may run. A bad variable is not an error
 * here: it is printed once per process on stderr and leaves only the
 * baseline builds usable. Never exits. */
CPUD_HIDDEN int cpud_library_init(char *msg, size_t cap);

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
CPUD_HIDDEN cpud_mask cpud_detect_cpu(const cpud_cpu_report *cpu);
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
CPUD_HIDDEN cpud_mask cpud_set_usable_mask(cpud_mask mask);
/* What CPUD_DISPATCH_PICK (dispatch.h) says of a target name. */
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

/* --- switching targets off at run time --- */
/* Process-wide: the given features, and every feature that implies one of
 * them, stop being usable (e.g. CPUD_BIT(AVX512F) where AVX-512 is known to
 * be slower); every registered function selects again. Replaces the set
 * given before (an empty set switches nothing off). Safe while other threads call
 * dispatched functions, like cpud_set_usable_mask. Returns 0, or -1 and
 * changes nothing when a feature is part of the build's baseline (which
 * every part of the program is compiled for). Bits of no feature are
 * ignored. */
CPUD_HIDDEN int cpud_set_disabled_features(cpud_mask features);
/* The set cpud_set_disabled_features last gave (empty at start). */
CPUD_HIDDEN cpud_mask cpud_disabled_features(void);
/* Per thread: the calling thread's dispatch uses only features in `allowed`
 * (closed over implied features; the baseline always stays usable). Every
 * other thread is unaffected. Returns the previous allowed set, to restore
 * it; cpud_mask_all() means unrestricted, the default. While any thread is
 * restricted, every dispatched call of every thread selects per call (a few
 * ns; docs/runtime.md); the C++ guards cpud::exclude_features and
 * cpud::only_features (dispatch.hpp) call this. */
CPUD_HIDDEN cpud_mask cpud_set_thread_allowed(cpud_mask allowed);
CPUD_HIDDEN cpud_mask cpud_thread_allowed(void);
/* The features of mask whose implied features are all in mask (how every
 * usable mask is closed). */
CPUD_HIDDEN cpud_mask cpud_close_over_implied(cpud_mask mask);
/* mask plus every feature its features imply. */
CPUD_HIDDEN cpud_mask cpud_with_implied(cpud_mask mask);

/* Internal, for dispatch.hpp: the process's usable mask, a
 * counter bumped by every change of a mask, and re-selection of one
 * function. */
CPUD_HIDDEN cpud_mask cpud__process_mask(void);
CPUD_HIDDEN unsigned cpud__epoch(void);
CPUD_HIDDEN void cpud__reselect(cpud_function *f);

/* --- typed operators (operator.hpp) register themselves on their first
 * resolution and leave the list when destroyed; introspection walks it --- */
typedef struct cpud_operator cpud_operator;
struct cpud_operator {
  const char *name;
  const void *self;
  int (*kernel_count)(const void *self);
  /* Kernel i (static table first, then added ones in the order added): its
   * dispatched function's name, its parameter types as text ("(float32,
   * float32)"), the target it selects for the calling thread, and its
   * compiled targets (highest interest first). */
  const char *(*kernel_function)(const void *self, int i);
  void (*kernel_types)(const void *self, int i, char *buf, size_t cap);
  const char *(*kernel_selected)(const void *self, int i);
  int (*kernel_target_count)(const void *self, int i);
  const char *(*kernel_target_name)(const void *self, int i, int j);
  /* Resolution cache slot s, 0 <= s < cache_slots (the most slots the cache
   * grows to; past its current size a slot holds nothing): 0 when it holds nothing
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

// These are inline functions, and an inline function compiled into objects
// with different flags is one symbol to the linker, which keeps any one
// copy. In a consumer, cpudispatch-check gives each dispatch source's
// target builds their own copies (test/hazards); the runtime is C and
// defines none (test/floor); the operators have internal linkage.
// Hidden (every `namespace cpud` of the headers): a library built with
// default visibility exports none of these inline functions or what they
// instantiate, only what it asks for (test/shapes: nm -D of libfoo.so).
CPUD_NAMESPACE_BEGIN

// A set of features for C++: a cpud_mask (passed to and returned from the
// C functions as it is) with members to query it; the set operators below
// work on any cpud_mask. All constexpr.
//   cpud_set_disabled_features(CPUD_BIT(AVX512F) | CPUD_BIT(AVX512_SKX));
struct feature_set : cpud_mask {
  constexpr feature_set() : cpud_mask{} {}
  constexpr feature_set(const cpud_mask &m) : cpud_mask(m) {}  // NOLINT: from the C API
  // The set of one feature id (empty for an id of no feature).
  constexpr explicit feature_set(int id) : cpud_mask{} {
    if (id > 0 && id <= CPUD_FEATURE_COUNT) w[id >> 6] |= uint64_t{1} << (id & 63);
  }
  static constexpr feature_set all() {
    feature_set s;
    for (uint64_t &x : s.w) x = ~uint64_t{0};
    return s;
  }
  constexpr bool has(int id) const {
    return id > 0 && id <= CPUD_FEATURE_COUNT && ((w[id >> 6] >> (id & 63)) & 1u);
  }
  // The bits of word i that are features (not bit 0, none past the table).
  static constexpr uint64_t feature_bits(int i) {
    const int top = CPUD_FEATURE_COUNT - 64 * i;  // the last id's bit in word i
    uint64_t m = top >= 63 ? ~uint64_t{0} : top < 0 ? 0 : (uint64_t{1} << (top + 1)) - 1;
    return i == 0 ? m & ~uint64_t{1} : m;
  }
  // Feature ids in the set: none / how many / the highest (0 if none).
  constexpr bool empty() const {
    for (int i = 0; i < CPUD_MASK_WORDS; ++i)
      if (w[i] & feature_bits(i)) return false;
    return true;
  }
  constexpr int count() const {
    int n = 0;
    for (int i = 0; i < CPUD_MASK_WORDS; ++i) n += bit_count(w[i] & feature_bits(i));
    return n;
  }
  // Not __builtin_popcountll: below POPCNT (a floor-built tool's level)
  // GCC calls libgcc's __popcountdi2 for it.
  static constexpr int bit_count(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return static_cast<int>((x * 0x0101010101010101ull) >> 56);
  }
  constexpr int highest() const {
    for (int i = CPUD_MASK_WORDS - 1; i >= 0; --i) {
      const uint64_t x = w[i] & feature_bits(i);
      if (x) return 64 * i + 63 - __builtin_clzll(x);
    }
    return 0;
  }
  constexpr feature_set &operator|=(const cpud_mask &o) {
    for (int i = 0; i < CPUD_MASK_WORDS; ++i) w[i] |= o.w[i];
    return *this;
  }
  constexpr feature_set &operator&=(const cpud_mask &o) {
    for (int i = 0; i < CPUD_MASK_WORDS; ++i) w[i] &= o.w[i];
    return *this;
  }
};

CPUD_NAMESPACE_END  // namespace cpud

// Set operators on cpud_mask, so that the C functions' results combine
// directly (and feature_set, a cpud_mask, with them): a | b, a & ~b, a == b.
// Equality compares features only.
static constexpr cpud::feature_set operator|(const cpud_mask &a, const cpud_mask &b) {
  cpud::feature_set s(a);
  for (int i = 0; i < CPUD_MASK_WORDS; ++i) s.w[i] |= b.w[i];
  return s;
}
static constexpr cpud::feature_set operator&(const cpud_mask &a, const cpud_mask &b) {
  cpud::feature_set s(a);
  for (int i = 0; i < CPUD_MASK_WORDS; ++i) s.w[i] &= b.w[i];
  return s;
}
// Every other bit (a & ~b is a without b).
static constexpr cpud::feature_set operator~(const cpud_mask &a) {
  cpud::feature_set s(a);
  for (int i = 0; i < CPUD_MASK_WORDS; ++i) s.w[i] = ~s.w[i];
  return s;
}
static constexpr bool operator==(const cpud_mask &a, const cpud_mask &b) {
  for (int i = 0; i < CPUD_MASK_WORDS; ++i)
    if ((a.w[i] ^ b.w[i]) & cpud::feature_set::feature_bits(i)) return false;
  return true;
}
static constexpr bool operator!=(const cpud_mask &a, const cpud_mask &b) { return !(a == b); }

#define CPUD_BIT(F) (::cpud::feature_set(CPUD_FEATURE_##F))
#endif

/* Keeps the start-up check in every program that links this file's object. */
#include "startup_ref.h"

#endif /* CPUDISPATCH_H_ */
