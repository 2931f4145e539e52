/* SPDX-License-Identifier: MIT */
/* Internal, layer 4: the process's feature sets under one lock (what the
 * CPU has, what the variables or a test left, what the program turned off,
 * the threads' restrictions) and cpud__usable, which the inline fast path
 * reads. It only holds and publishes them: start-up (startup.c) fills
 * them, the API (selection.c) changes them. */
#ifndef CPUDISPATCH_SRC_PROCESS_STATE_H_
#define CPUDISPATCH_SRC_PROCESS_STATE_H_

#include "cpudispatch/functions.h"

/* Start-up, once the env masks are read: the first caller publishes the
 * detected features and the usable set, later ones (racing initialisers)
 * change nothing. 1 for the first. `detected` covers
 * cpud__startup_wanted() only, or every feature when `complete`. */
CPUD_HIDDEN int cpud__publish_initial(cpud_mask detected, cpud_mask usable, int complete);
/* Replaces both (cpud_assume_cpu); the usable set keeps the baseline. */
CPUD_HIDDEN void cpud__replace_detected(cpud_mask detected, cpud_mask usable);
/* The detected set, and whether it covers every feature. */
CPUD_HIDDEN cpud_mask cpud__state_detected(int *complete);
/* Completes a detected set that covered start-up's features only with
 * `all` (every row read); an assumed CPU that replaced it meanwhile stays.
 * Returns the detected set. */
CPUD_HIDDEN cpud_mask cpud__state_complete_detected(cpud_mask all);
/* What the slow path of every query reads, inline below so that a guarded
 * call costs one call into the runtime (cpud__usable_slow), as before the
 * state had a file of its own. initial-exec TLS: no __tls_get_addr call
 * (a dynamic-loader symbol, not libc's) and a cheaper access on every
 * guarded call; these few words fit the static TLS glibc keeps for
 * libraries loaded with dlopen. */
#define CPUD__TLS __thread __attribute__((tls_model("initial-exec")))
CPUD_HIDDEN extern int cpud__state_ready;      /* 1 once start-up published */
CPUD_HIDDEN extern unsigned cpud__state_epoch; /* bumped by every change */
CPUD_HIDDEN extern unsigned cpud__state_seq;   /* odd while cpud__usable is written */
CPUD_HIDDEN extern CPUD__TLS int cpud__t_restricted;
CPUD_HIDDEN extern CPUD__TLS unsigned cpud__t_seen; /* the epoch cpud__t_mask is for, plus 1 */
CPUD_HIDDEN extern CPUD__TLS cpud_mask cpud__t_mask;
/* Computes and keeps the calling thread's set for a process set. */
CPUD_HIDDEN cpud_mask cpud__state_thread_mask(cpud_mask process, unsigned epoch);

/* The calling thread's usable set in *out (the process's, restricted by
 * the thread's allowed set) and 1, once start-up published; else 0. */
static inline int cpud__state_usable_for_thread(cpud_mask *out) {
  if (!__atomic_load_n(&cpud__state_ready, __ATOMIC_ACQUIRE)) return 0;
  /* The epoch before the set: a change in between only costs a recompute. */
  const unsigned epoch = __atomic_load_n(&cpud__state_epoch, __ATOMIC_SEQ_CST);
  cpud_mask m;
  for (;;) { /* a consistent copy of every word, under the sequence count */
    const unsigned s1 = __atomic_load_n(&cpud__state_seq, __ATOMIC_ACQUIRE);
    for (int i = 0; i < CPUD_MASK_WORDS; ++i) m.w[i] = __atomic_load_n(&cpud__usable[i], __ATOMIC_ACQUIRE);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (!(s1 & 1u) && __atomic_load_n(&cpud__state_seq, __ATOMIC_RELAXED) == s1) break;
  }
  const int shared = (int)(m.w[0] & 1u);
  m.w[0] &= ~(uint64_t)1;
  if (shared || !cpud__t_restricted) *out = m;
  else if (cpud__t_seen == epoch + 1) *out = cpud__t_mask;
  else *out = cpud__state_thread_mask(m, epoch); /* once per change */
  return 1;
}
/* The process's usable set (no thread's restriction). */
CPUD_HIDDEN cpud_mask cpud__state_process(void);
/* Makes mask & detected (and the baseline) the base set; returns the
 * previous one. */
CPUD_HIDDEN cpud_mask cpud__state_set_base(cpud_mask mask);
CPUD_HIDDEN cpud_mask cpud__state_disabled(void);
/* Features (none of the baseline's) the program switched off. */
CPUD_HIDDEN void cpud__state_set_disabled(cpud_mask features);
/* The calling thread's allowed set, as given (all bits of no feature set). */
CPUD_HIDDEN cpud_mask cpud__state_set_thread_allowed(cpud_mask allowed);
/* Registers f and makes it select again on its next call. */
CPUD_HIDDEN void cpud__state_reselect(cpud_function *f);

#endif
