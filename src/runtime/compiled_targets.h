/* SPDX-License-Identifier: MIT */
/* Internal, layer 2: what this program's (or shared library's) dispatch
 * sources were compiled for, from the records their generated headers
 * leave (include/cpudispatch/compiled.h). */
#ifndef CPUDISPATCH_SRC_COMPILED_TARGETS_H_
#define CPUDISPATCH_SRC_COMPILED_TARGETS_H_

#include "cpudispatch/cpudispatch.h"

/* Sets *known to 1, *targets to the targets' members and *dispatched to
 * those and what they imply; leaves all three as they are where there is
 * no record (no dispatch source, or not ELF). Walks the loaded objects
 * (dl_iterate_phdr): called only when an environment variable is set. */
CPUD_HIDDEN void cpud__compiled_targets(int *known, cpud_mask *targets, cpud_mask *dispatched);

#endif
