/* SPDX-License-Identifier: MIT */
/* What a dispatched call does on a CPU none of its targets suits, where
 * its source has no baseline build (cpudispatch/functions.h), and an
 * operator's call() that finds no kernel (cpudispatch/operators.h). */
#include <stdio.h>
#include <stdlib.h>

#include "cpudispatch/functions.h"
#include "cpudispatch/operators.h"

/* C and C++ callers (CPUD_DISPATCH_CALL, CPUD_DISPATCH) end here alike. */
void cpud__no_target(const char *function) {
  fprintf(stderr,
          "cpudispatch: no compiled target of %s can run on this CPU and it has no "
          "baseline build; add \"baseline\" to its target list\n",
          function);
  fflush(stderr);
  abort();
}

/* An operator's call() with no kernel for the types and no fallback
 * (operator.hpp): the operator's own explanation, one line. */
void cpud__no_kernel(const char *text) {
  fprintf(stderr, "cpudispatch: %s\n", text);
  fflush(stderr);
  abort();
}
