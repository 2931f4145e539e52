/* SPDX-License-Identifier: MIT */
/* The entry points of host and library mode (cpudispatch.h): a Python
 * extension, a plugin or a library that lives inside other processes calls
 * one first and reports a failure its own way; neither ever exits. Layer 7. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline_check.h"
#include "startup.h"

static int skip_asked(void) {
  const char *skip = getenv(CPUD_ENV_PREFIX "_SKIP_CPU_BASELINE_CHECK");
  return skip && skip[0] && strcmp(skip, "0") != 0;
}

int cpud_host_init(char *msg, size_t cap) {
  cpud__claim_env_errors();
  if (msg && cap) msg[0] = 0;
  (void)cpud_usable_mask(); /* detection and the variables, once */
  if (cpud__env_failure(msg, cap)) return CPUD_EXIT_ENV;
  if (skip_asked()) return 0;
  char base[1536];
  if (cpud_check_baseline(base, sizeof base)) {
    if (msg && cap) snprintf(msg, cap, "cpudispatch: %s", base);
    return CPUD_EXIT_BASELINE;
  }
  return 0;
}

int cpud_library_init(char *msg, size_t cap) {
  if (msg && cap) msg[0] = 0;
  /* Detection and the variables, once; a bad variable is printed there
   * (unclaimed) and leaves the baseline builds: not an error of the
   * library's. */
  (void)cpud_usable_mask();
  if (skip_asked()) return 0;
  char base[1536];
  if (cpud__check_baseline_of(1, base, sizeof base)) {
    if (msg && cap) snprintf(msg, cap, "cpudispatch: %s", base);
    return CPUD_EXIT_BASELINE;
  }
  return 0;
}
