/* SPDX-License-Identifier: MIT */
/* The loaded objects and their notes (loaded_objects.h). Layer 1. */
/* dl_iterate_phdr: declared by glibc under C11 only with this. */
#define _GNU_SOURCE 1
#include "loaded_objects.h"

#include <stddef.h>
#include <string.h>

#if CPUD__HAVE_NOTES
#include <link.h>
#elif defined(_WIN32)
#include <windows.h>
#endif

#if CPUD__HAVE_NOTES
static size_t round_up(size_t n, size_t align) { return (n + align - 1) & ~(align - 1); }

/* fn on each "cpud" note of `type` in the object's PT_NOTE segments, until
 * it returns nonzero (returned). */
static int each_note(const struct dl_phdr_info *info, uint32_t type, cpud__note_fn fn, void *arg) {
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE) continue;
    const size_t align = ph->p_align == 8 ? 8 : 4;
    const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
    while (p + 12 <= end) {
      uint32_t h[3];
      memcpy(h, p, sizeof h);
      const unsigned char *name = p + 12, *desc = name + round_up(h[0], align);
      if (desc + h[1] > end) break;
      if (h[0] == 5 && h[2] == type && memcmp(name, "cpud", 5) == 0 && fn(desc, h[1], arg)) return 1;
      p = desc + round_up(h[1], align);
    }
  }
  return 0;
}

/* 1 if one of the object's loaded segments holds this file's code. */
static int holds_self(const struct dl_phdr_info *info) {
  const uintptr_t self = (uintptr_t)&holds_self;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    const uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && self >= lo && self < lo + ph->p_memsz) return 1;
  }
  return 0;
}

typedef struct walk {
  uint32_t type;
  cpud__note_fn fn;
  void *arg;
} walk;

static int on_own_object(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  if (!holds_self(info)) return 0;
  const walk *w = (const walk *)arg;
  each_note(info, w->type, w->fn, w->arg);
  return 1; /* this object's: stop */
}

static int on_any_object(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  const walk *w = (const walk *)arg;
  return each_note(info, w->type, w->fn, w->arg);
}

static int on_first_object(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  *(int *)arg = holds_self(info);
  return 1; /* the first object reported is the program (glibc, musl) */
}
#endif

int cpud__each_own_note(uint32_t type, cpud__note_fn fn, void *arg) {
#if CPUD__HAVE_NOTES
  walk w = {type, fn, arg};
  return dl_iterate_phdr(&on_own_object, &w) != 0;
#else
  (void)type, (void)fn, (void)arg;
  return 0;
#endif
}

int cpud__first_note(uint32_t type, cpud__note_fn fn, void *arg) {
#if CPUD__HAVE_NOTES
  walk w = {type, fn, arg};
  return dl_iterate_phdr(&on_any_object, &w) != 0;
#else
  (void)type, (void)fn, (void)arg;
  return 0;
#endif
}

int cpud__in_main_program(void) {
#if CPUD__HAVE_NOTES
  int mine = 0;
  dl_iterate_phdr(&on_first_object, &mine);
  return mine;
#elif defined(_WIN32)
  HMODULE self = NULL;
  if (!GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                          (LPCSTR)(void *)&cpud__in_main_program, &self))
    return 1;
  return self == GetModuleHandleA(NULL);
#else
  return 1;
#endif
}
