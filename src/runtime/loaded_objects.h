/* SPDX-License-Identifier: MIT */
/* Internal, layer 1: the program and shared libraries loaded in this
 * process, as this copy of the runtime sees them: the ELF notes of the
 * object that holds it or of every object, and whether that object is the
 * program itself. Libc only (dl_iterate_phdr; Windows: module handles). */
#ifndef CPUDISPATCH_SRC_LOADED_OBJECTS_H_
#define CPUDISPATCH_SRC_LOADED_OBJECTS_H_

#include <stdint.h>

#include "cpudispatch/attributes.h"
#include "cpudispatch/namespace.h"

#if defined(__ELF__) && defined(__has_include)
#if __has_include(<link.h>)
/* The loaded objects' notes can be walked. */
#define CPUD__HAVE_NOTES 1
#endif
#endif

/* Called with the description of each note named "cpud" of the type asked
 * for; a nonzero return stops the walk. */
typedef int (*cpud__note_fn)(const unsigned char *desc, uint32_t size, void *arg);

/* The notes of the object one of whose loaded segments holds this copy of
 * the runtime, and of no other. 0 where notes cannot be walked. */
CPUD_HIDDEN int cpud__each_own_note(uint32_t type, cpud__note_fn fn, void *arg);
/* The notes of every loaded object in load order (the program first),
 * until fn returns nonzero: then 1. fn runs while the loader cannot unload
 * the object, so it may write into it. 0 where none stopped the walk. */
CPUD_HIDDEN int cpud__first_note(uint32_t type, cpud__note_fn fn, void *arg);
/* 1 when this copy is in the program itself (its executable, or a static
 * library linked into it), 0 in a shared object. */
CPUD_HIDDEN int cpud__in_main_program(void);

#endif
