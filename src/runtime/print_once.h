/* SPDX-License-Identifier: MIT */
/* Internal, layer 2: warnings printed once per process, however many
 * copies of the runtime (an executable's, each shared library's) read the
 * same variable. */
#ifndef CPUDISPATCH_SRC_PRINT_ONCE_H_
#define CPUDISPATCH_SRC_PRINT_ONCE_H_

#include "cpudispatch/attributes.h"
#include "cpudispatch/namespace.h"

/* 1 for the first copy of the runtime in this process to ask about this
 * block of text (its hash is recorded), 0 for every later ask. */
CPUD_HIDDEN int cpud__first_to_print(const char *block);
/* Prints `line` on stderr unless a copy of the runtime in this process
 * printed the same line before. */
CPUD_HIDDEN void cpud__print_once(const char *line);

#endif
