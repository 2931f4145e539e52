/* SPDX-License-Identifier: MIT */
/* Internal, layer 6: the baseline check's message, for the program or for
 * a library inside another process. */
#ifndef CPUDISPATCH_SRC_BASELINE_CHECK_H_
#define CPUDISPATCH_SRC_BASELINE_CHECK_H_

#include <stddef.h>

#include "cpudispatch/cpudispatch.h"

/* cpud_check_baseline() with the message's subject: the program (0) or a
 * library inside another process (1). */
CPUD_HIDDEN int cpud__check_baseline_of(int library, char *msg, size_t cap);

#endif
