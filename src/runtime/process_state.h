/* SPDX-License-Identifier: MIT */
/* Internal, layer 4: the process's feature sets under one lock (what the
 * CPU has, what the variables or a test left, what the program turned off,
 * the threads' restrictions) and cpud__usable, which the inline fast path
 * reads. It only holds and publishes them: start-up (startup.c) fills
 * them, the API (selection.c) changes them. */
#ifndef CPUDISPATCH_SRC_PROCESS_STATE_H_
#define CPUDISPATCH_SRC_PROCESS_STATE_H_

#include "cpudispatch/functions.h"

/* 1 once start-up published its sets. */
CPUD_HIDDEN int cpud__state_ready(void);
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
/* The calling thread's usable set: the process's, restricted by the
 * thread's allowed set. */
CPUD_HIDDEN cpud_mask cpud__state_usable_for_thread(void);
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
