/* SPDX-License-Identifier: MIT */
/* What a dispatched call does on a CPU none of its targets suits, where
 * its source has no baseline build (cpudispatch/functions.h). */
#include <stdio.h>
#include <stdlib.h>

#include "cpudispatch/functions.h"

/* C and C++ callers (CPUD_DISPATCH_CALL, CPUD_DISPATCH) end here alike. */
void cpud__no_target(const char *function) {
  fprintf(stderr,
          "cpudispatch: no compiled target of %s can run on this CPU and it has no "
          "baseline build; add \"baseline\" to its target list\n",
          function);
  fflush(stderr);
  abort();
}
