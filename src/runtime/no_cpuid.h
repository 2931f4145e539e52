/* SPDX-License-Identifier: MIT */
/* Internal: the x86 reading's introspection (detect.h) where there is no
 * CPUID: none executed, no C library copy, no leaf read. Included by the
 * one detection source a non-x86 build compiles (the table's
 * detect_source), so each definition exists once per build. */
#ifndef CPUDISPATCH_SRC_NO_CPUID_H_
#define CPUDISPATCH_SRC_NO_CPUID_H_

#include "detect.h"

unsigned cpud__cpuid_count(void) { return 0; }
int cpud__libc_cpuid_copy(void) { return 0; }
unsigned cpud__leaves_read(void) { return 0; }
const char *cpud__leaf_name(int bit) {
  (void)bit;
  return NULL;
}

#endif
