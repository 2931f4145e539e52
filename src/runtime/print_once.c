/* SPDX-License-Identifier: MIT */
/* The record of warnings already printed, one for the whole process
 * (print_once.h). Layer 2.
 *
 * An executable and each shared library link their own (hidden) runtime,
 * and each reads the environment; the first copy to print a block of
 * warnings records its hash, and the others do not print it again. Copies
 * with other env prefixes print their own. No symbol is exported for it (a
 * library made with cpudispatch exports only what it asks for): on ELF
 * each copy has a hidden table and announces it in a note ("cpud", type
 * CPUD__NOTE_TABLE: the table's offset from the note), and every copy uses
 * the first table announced by the loaded objects in load order, the
 * program first. On Windows a named shared-memory section of this process
 * (Local\cpudispatch-env-warnings-v1-PID): every copy maps the same one. */
#include "print_once.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "loaded_objects.h"

#define CPUD__TABLE_SLOTS 16
#if defined(_WIN32)
#include <windows.h>
#else
CPUD_HIDDEN __attribute__((used)) uint64_t cpud__printed_table[CPUD__TABLE_SLOTS] = {0};
/* CPUD__UNSHARED_WARNINGS: no note, each copy its own table; only for
 * test/runtime/twolibs's control, which shows the note is what shares it. */
#if CPUD__HAVE_NOTES && (defined(__GNUC__) || defined(__clang__)) && !defined(CPUD__UNSHARED_WARNINGS)
/* Version 1 of the layout: 16 slots of 64-bit hashes, 0 free. A later
 * layout takes another type, so copies of two versions never share one. */
#define CPUD__NOTE_TABLE 0x63707531 /* "cpu1"; no suffix: the assembler reads it too */
#define CPUD__STR_(x) #x
#define CPUD__STR(x) CPUD__STR_(x)
/* The offset is resolved when the object is linked (PC-relative, to a
 * hidden symbol of the same object): no dynamic relocation, read-only.
 * The symbols carry the build's namespace (cpudispatch/namespace.h). */
#define CPUD__TABLE_SYM CPUD__NS_STR(cpud__printed_table)
#define CPUD__NOTE_SYM CPUD__NS_STR(cpud__printed_table_note)
__asm__(".pushsection .note.cpudispatch,\"a\"\n"
        ".balign 4\n"
        ".long 5\n"
        ".long 4\n"
        ".long " CPUD__STR(CPUD__NOTE_TABLE) "\n"
        ".asciz \"cpud\"\n"
        ".balign 4\n"
        ".globl " CPUD__NOTE_SYM "\n"
        ".hidden " CPUD__NOTE_SYM "\n"
        CPUD__NOTE_SYM ":\n"
        ".long " CPUD__TABLE_SYM " - " CPUD__NOTE_SYM "\n"
        ".popsection\n");
extern const unsigned char cpud__printed_table_note[];
#endif
#endif

/* FNV-1a of a warning block; never 0 (0 marks a free slot). */
static uint64_t block_hash(const char *s) {
  uint64_t h = 1469598103934665603u;
  for (; *s; ++s) h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h ? h : 1;
}

/* Claims `h` in a table: 1 when this call recorded it, 0 when it was there. */
static int claim(uint64_t *table, uint64_t h) {
  /* The tables are 8-byte aligned (a global array, a mapped page), which a
   * uint64_t pointer does not say on 32-bit x86 (4 there): Clang would call
   * libatomic's __atomic_compare_exchange_8 instead of LOCK CMPXCHG8B. */
  typedef uint64_t slot __attribute__((aligned(8)));
  for (int i = 0; table && i < CPUD__TABLE_SLOTS; ++i) {
    uint64_t seen = 0;
    if (__atomic_compare_exchange_n((slot *)&table[i], &seen, h, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return 1;
    if (seen == h) return 0;
  }
  return 1; /* table full or unavailable: print rather than lose a warning */
}

#if defined(_WIN32)
static int first_to_print(uint64_t h) {
  char name[64];
  snprintf(name, sizeof name, "Local\\cpudispatch-env-warnings-v1-%lu", (unsigned long)GetCurrentProcessId());
  /* Zero-filled when created; the handle stays open for the process's life. */
  const DWORD size = CPUD__TABLE_SLOTS * sizeof(uint64_t);
  HANDLE m = CreateFileMappingA(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, size, name);
  return claim(m ? (uint64_t *)MapViewOfFile(m, FILE_MAP_ALL_ACCESS, 0, 0, size) : NULL, h);
}
#elif defined(CPUD__NOTE_TABLE)
/* The first table any loaded object announces (the program's, or the
 * earliest library's), claimed while the loader cannot unload its object. */
typedef struct table_claim {
  uint64_t h;
  int first;
} table_claim;

static int on_table_note(const unsigned char *desc, uint32_t size, void *arg) {
  table_claim *c = (table_claim *)arg;
  if (size != 4) return 0;
  int32_t off;
  memcpy(&off, desc, sizeof off);
  c->first = claim((uint64_t *)(uintptr_t)(desc + off), c->h);
  return 1;
}

static int first_to_print(uint64_t h) {
  table_claim c = {h, 1};
  /* A reference to our own note keeps its section under --gc-sections. */
  __asm__ volatile("" : : "r"(cpud__printed_table_note));
  return cpud__first_note(CPUD__NOTE_TABLE, &on_table_note, &c) ? c.first : claim(cpud__printed_table, h);
}
#else
/* No notes to find: this copy's own table. */
static int first_to_print(uint64_t h) { return claim(cpud__printed_table, h); }
#endif

int cpud__first_to_print(const char *block) { return first_to_print(block_hash(block)); }

void cpud__print_once(const char *line) {
  if (cpud__first_to_print(line)) {
    fputs(line, stderr);
    fflush(stderr);
  }
}
