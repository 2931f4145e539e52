/* SPDX-License-Identifier: MIT */
/*
 * cpudispatch: what a program's dispatch sources were compiled for, known
 * at run time.
 *
 * Every generated NAME.dispatch.h defines one record per compiled target
 * (the target's member features) and one empty record for the source
 * itself. Every file that includes the header holds them, the target
 * builds included, so the linked program or shared library holds the
 * records of every source it can call. A record is an ELF note (section
 * .note.cpudispatch, name "cpud"): the linker gathers notes into the
 * program's or library's PT_NOTE segments, which stay in memory, and the
 * runtime finds its own program's or library's through dl_iterate_phdr.
 * No symbol is involved: nothing is exported. A record carries the
 * namespace of the build it belongs to (CPUD_NAMESPACE_ID), so each copy of
 * the runtime reads only its own library's, even where several libraries
 * share one program (a static link) or a library is linked twice. The environment
 * variables' warnings compare against them (docs/runtime.md): DISABLE=xop
 * in a program none of whose sources was compiled for XOP changes nothing,
 * and says so.
 *
 * ELF only (Linux); elsewhere no record is kept and the warnings compare
 * against the build's cpu-dispatch set.
 */
#ifndef CPUDISPATCH_COMPILED_H_
#define CPUDISPATCH_COMPILED_H_

#include "cpudispatch.h"

/* The note's type, and its description: the build's namespace id, then
 * the features as 32-bit words (notes are 4-byte aligned), word I holding
 * feature ids 32*I..32*I+31. (Records of cpudispatch 0.1 had no id: their
 * even word count never matches this odd one, so neither reads the other.) */
#define CPUD__NOTE_TYPE 0x63707564u
#define CPUD__NOTE_WORDS (2 * CPUD_MASK_WORDS)
typedef struct cpud__compiled_note {
  uint32_t namesz, descsz, type;
  char name[8];
  uint32_t ns;
  uint32_t desc[CPUD__NOTE_WORDS];
} cpud__compiled_note;
/* Word I of the bit of feature F. */
#define CPUD__COMPILED_W(I, F) \
  ((CPUD_FEATURE_##F) / 32 == (I) ? CPUD__CAST(uint32_t, 1) << ((CPUD_FEATURE_##F) % 32) : CPUD__CAST(uint32_t, 0))
#define CPUD__COMPILED_NOTE(...) \
  { 5, CPUD__CAST(uint32_t, 4 + 4 * CPUD__NOTE_WORDS), CPUD__NOTE_TYPE, "cpud", CPUD_NAMESPACE_ID, { __VA_ARGS__ } }

#if defined(__ELF__) && (defined(__GNUC__) || defined(__clang__))
/* retain: kept under --gc-sections too. */
#if defined(__has_attribute)
#if __has_attribute(retain)
#define CPUD__COMPILED_RETAIN retain,
#endif
#endif
#ifndef CPUD__COMPILED_RETAIN
#define CPUD__COMPILED_RETAIN
#endif
#define CPUD__COMPILED_RECORD(ID)                                                                       \
  static const cpud__compiled_note ID __attribute__((CPUD__COMPILED_RETAIN used, section(".note.cpudispatch"), \
                                                     aligned(4)))
#else
#define CPUD__COMPILED_RECORD(ID) static const cpud__compiled_note ID __attribute__((unused))
#endif

#endif /* CPUDISPATCH_COMPILED_H_ */
