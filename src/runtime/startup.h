/* SPDX-License-Identifier: MIT */
/* Internal, layer 5: the first query's work, once per process: detect
 * what the build can use, read the environment variables, publish the
 * sets (process_state.h); and the outcome of the variables, which host
 * and library mode report their own way. */
#ifndef CPUDISPATCH_SRC_STARTUP_H_
#define CPUDISPATCH_SRC_STARTUP_H_

#include "cpudispatch/cpudispatch.h"
#include "env_masks.h"

/* Detects, applies the variables and publishes, unless that is done;
 * returns the calling thread's usable set. */
CPUD_HIDDEN cpud_mask cpud__init(void);
/* The detected set as start-up left it: it covers the build's features
 * (cpud__startup_wanted()), so the baseline check reads no other row. */
CPUD_HIDDEN cpud_mask cpud__startup_detected(void);
/* The env masks applied to a detected set. A bad variable exits with
 * CPUD_EXIT_ENV where this copy is in the program itself and the build
 * has the start-up check; elsewhere it is recorded (cpud__env_failure),
 * printed once per process unless a host claimed it, and leaves the
 * baseline. The warnings, if any, in o->warning. */
CPUD_HIDDEN void cpud__apply_env(cpud_mask detected, cpud__env_outcome *o);
/* Prints each line of a warning block as "cpudispatch: warning: LINE". */
CPUD_HIDDEN void cpud__print_warnings(const char *block);
/* Host mode: from now on a bad variable's message is the host's to report,
 * not printed. */
CPUD_HIDDEN void cpud__claim_env_errors(void);
/* 1 when a bad variable was seen, its message in msg (from
 * "cpudispatch: "); 0 otherwise. Waits for a racing initialiser to finish
 * writing it. */
CPUD_HIDDEN int cpud__env_failure(char *msg, size_t cap);

#endif
