/* SPDX-License-Identifier: MIT */
/* The API that changes what may run (cpudispatch.h, cpudispatch/testing.h,
 * cpudispatch/functions.h): the process's masks, each thread's allowed set,
 * re-selection, and the complete detected set. Layer 7: each entry first
 * makes sure start-up ran (startup.c), then changes the process state
 * (process_state.c), which makes every registered function select again. */
#include "cpudispatch/testing.h"
#include "detect.h"
#include "process_state.h"
#include "startup.h"

/* Start-up read only the features the build can use; the first question
 * about the others reads every row (outside the lock: CPUID, a syscall). */
cpud_mask cpud_detected_mask(void) {
  (void)cpud_usable_mask();
  int complete = 0;
  const cpud_mask d = cpud__state_detected(&complete);
  if (complete) return d;
  return cpud__state_complete_detected(cpud__close_over_implied(cpud__detect_raw(cpud__every_feature())));
}

cpud_mask cpud__process_mask(void) {
  (void)cpud_usable_mask();
  return cpud__state_process();
}

void cpud__reselect(cpud_function *f) {
  (void)cpud_usable_mask();
  cpud__state_reselect(f);
}

cpud_mask cpud_set_usable_mask(cpud_mask mask) {
  (void)cpud_usable_mask();
  return cpud__state_set_base(mask);
}

cpud_mask cpud_disabled_features(void) {
  (void)cpud_usable_mask();
  return cpud__state_disabled();
}

int cpud_set_disabled_features(cpud_mask features) {
  (void)cpud_usable_mask();
  const cpud_mask f = cpud_mask_and(features, cpud__every_feature());
  if (!cpud__mask_empty(cpud_mask_and(f, cpud_baseline_mask()))) return -1;
  cpud__state_set_disabled(f);
  return 0;
}

cpud_mask cpud_set_thread_allowed(cpud_mask allowed) {
  (void)cpud_usable_mask();
  return cpud__state_set_thread_allowed(allowed);
}
