/* Feature names, implied, added and removal masks, and the usable mask
 * every dispatch reads. */
/* dl_iterate_phdr, syscall: declared by glibc under C11 only with this. */
#define _GNU_SOURCE 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpudispatch/compiled.h"
#include "detect.h"
#include "env_masks.h"

/* The process's usable mask with bit 0 as the fast path's licence
 * (selection.c); 0 until the first query initialises it. */
uint64_t cpud__usable[CPUD_MASK_WORDS] = {0}; /* initialised: never a common symbol */

/* The record of env warnings already printed, one for the whole process:
 * an executable and each shared library link their own (hidden) runtime,
 * and each reads the environment; the first copy to print a block of
 * warnings records its hash, and the others do not print it again. Copies
 * with other env prefixes print their own. No symbol is exported for it (a
 * library made with cpudispatch exports only what it asks for): on ELF
 * each copy has a hidden table and announces it in a note (below, "cpud",
 * type CPUD__NOTE_TABLE: the table's offset from the note), and every copy
 * uses the first table announced by the loaded objects in load order, the
 * program first. On Windows a named shared-memory section of this process
 * (Local\cpudispatch-env-warnings-v1-PID): every copy maps the same one. */
#define CPUD__TABLE_SLOTS 16
#if defined(_WIN32)
#include <windows.h>
#else
CPUD_HIDDEN __attribute__((used)) uint64_t cpud__printed_table[CPUD__TABLE_SLOTS] = {0};
/* CPUD__UNSHARED_WARNINGS: no note, each copy its own table; only for
 * test/runtime/twolibs's control, which shows the note is what shares it. */
#if defined(__ELF__) && (defined(__GNUC__) || defined(__clang__)) && !defined(CPUD__UNSHARED_WARNINGS)
/* Version 1 of the layout: 16 slots of 64-bit hashes, 0 free. A later
 * layout takes another type, so copies of two versions never share one. */
#define CPUD__NOTE_TABLE 0x63707531 /* "cpu1"; no suffix: the assembler reads it too */
#define CPUD__STR_(x) #x
#define CPUD__STR(x) CPUD__STR_(x)
/* The offset is resolved when the object is linked (PC-relative, to a
 * hidden symbol of the same object): no dynamic relocation, read-only. */
/* The symbols carry the build's namespace (cpudispatch/namespace.h). */
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

static const char *const k_names[] = {
    NULL,
#define CPUD__NAME(NAME, ...) #NAME,
    CPUD_FEATURES(CPUD__NAME)
#undef CPUD__NAME
};

/* Per feature id: what it implies (transitively), what a group adds to its
 * base (DISABLE of a group disables those too; none for a feature), and
 * all that DISABLE of it turns off (the configure's own set for "-NAME",
 * so the two agree). Configure derives them from the table and emits them
 * as words (cpudispatch_features.h): static data, nothing computed here. */
#define CPUD__SET(NAME, ...) [CPUD_FEATURE_##NAME] = {{__VA_ARGS__}},
const cpud_mask cpud__implied_sets[CPUD_FEATURE_COUNT + 1] = {CPUD_IMPLIED_SETS(CPUD__SET)};
const cpud_mask cpud__adds_sets[CPUD_FEATURE_COUNT + 1] = {CPUD_ADDS_SETS(CPUD__SET)};
const cpud_mask cpud__removes_sets[CPUD_FEATURE_COUNT + 1] = {CPUD_REMOVES_SETS(CPUD__SET)};
#undef CPUD__SET

typedef struct alias_row {
  int id;
  const char *spelling;
} alias_row;
static const alias_row k_aliases[] = {
#define CPUD__ALIAS(NAME, SPELLING) {CPUD_FEATURE_##NAME, SPELLING},
    CPUD_FEATURE_ALIASES(CPUD__ALIAS)
#undef CPUD__ALIAS
    {0, NULL}};

/* Not __builtin_popcountll: below POPCNT (the runtime's floor) GCC calls
 * libgcc's __popcountdi2 for it, and the runtime needs libc alone. */
static int bit_count(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return (int)((x * 0x0101010101010101ull) >> 56);
}

int cpud__mask_count(cpud_mask m) {
  int n = 0;
  for (int i = 0; i < CPUD_MASK_WORDS; ++i) n += bit_count(m.w[i] & cpud__feature_bits(i));
  return n;
}

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
#else
static int first_to_print_in_notes(uint64_t h, int *done);
/* 1 for the first copy of the runtime in the process to claim `h`. */
static int first_to_print(uint64_t h) {
  int done = 0;
  const int first = first_to_print_in_notes(h, &done);
  return done ? first : claim(cpud__printed_table, h);
}
#endif

static int same_name(const char *a, const char *b) {
  for (; *a && *b; ++a, ++b) {
    char x = *a, y = *b;
    if (x >= 'a' && x <= 'z') x = (char)(x - 'a' + 'A');
    if (y >= 'a' && y <= 'z') y = (char)(y - 'a' + 'A');
    if (x != y) return 0;
  }
  return *a == *b;
}

/* A feature is usable when its own bit is set and so is every bit it
 * implies. */
cpud_mask cpud__close_over_implied(cpud_mask raw) {
  cpud_mask out = cpud_mask_none();
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) {
    if (!cpud_mask_has(raw, id)) continue;
    if (cpud__mask_empty(cpud_mask_andnot(cpud__implied_sets[id], raw))) out = cpud_mask_with(out, id);
  }
  return out;
}

/* The features of the X-macro list's rows and what they imply. */
#define CPUD__WITH_IMPLIED(NAME) \
  m = cpud_mask_or(cpud_mask_with(m, CPUD_FEATURE_##NAME), cpud__implied_mask(CPUD_FEATURE_##NAME));

/* Every dispatch target of the build and what it implies. */
cpud_mask cpud__dispatched_mask(void) {
  cpud_mask m = cpud_mask_none();
  CPUD_WITH_DISPATCH(CPUD__WITH_IMPLIED)
  return m;
}

cpud_mask cpud__startup_wanted(void) {
  cpud_mask m = cpud__dispatched_mask();
  CPUD_WITH_BASELINE(CPUD__WITH_IMPLIED)
  return m;
}
#undef CPUD__WITH_IMPLIED

void cpud__mask_names(cpud_mask mask, char *buf, size_t cap) {
  size_t used = 0;
  buf[0] = 0;
  for (int id = 1; id <= CPUD_FEATURE_COUNT && used + 1 < cap; ++id) {
    if (!cpud_mask_has(mask, id)) continue;
    const int n = snprintf(buf + used, cap - used, "%s%s", used ? " " : "", k_names[id]);
    if (n < 0) break;
    used += (size_t)n;
  }
}

#if defined(__ELF__) && defined(__has_include)
#if __has_include(<link.h>)
#define CPUD__HAVE_NOTES 1
#include <link.h>
#endif
#endif

#if CPUD__HAVE_NOTES
/* The records every generated dispatch header leaves (include/cpudispatch/
 * compiled.h) are ELF notes: walk the PT_NOTE segments of the program or
 * shared library that holds this copy of the runtime (the object one of
 * whose loaded segments holds this function), and of no other. */
typedef struct note_walk {
  uintptr_t self;
  int found;
  cpud_mask members, implied;
} note_walk;

static size_t round_up(size_t n, size_t align) { return (n + align - 1) & ~(align - 1); }

/* Calls fn on the description of each of the object's notes named "cpud"
 * of `type`, in its PT_NOTE segments, until fn returns nonzero (returned). */
typedef int (*note_fn)(const unsigned char *desc, uint32_t size, void *arg);
static int each_note(const struct dl_phdr_info *info, uint32_t type, note_fn fn, void *arg) {
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

/* Only this build's records: another library linked into the same
 * program (statically) leaves its own, under its own namespace id. */
static int on_compiled_note(const unsigned char *desc, uint32_t size, void *arg) {
  note_walk *w = (note_walk *)arg;
  if (size != sizeof(uint32_t) * (1 + CPUD__NOTE_WORDS)) return 0;
  uint32_t ns, words[CPUD__NOTE_WORDS];
  memcpy(&ns, desc, sizeof ns);
  if (ns != CPUD_NAMESPACE_ID) return 0;
  memcpy(words, desc + sizeof ns, sizeof words);
  cpud_mask m;
  for (int i = 0; i < CPUD_MASK_WORDS; ++i) m.w[i] = words[2 * i] | (uint64_t)words[2 * i + 1] << 32;
  const cpud_mask f = cpud_mask_and(m, cpud__every_feature());
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    if (cpud_mask_has(f, id)) w->implied = cpud_mask_or(w->implied, cpud__implied_mask(id));
  w->members = cpud_mask_or(w->members, f);
  w->found = 1;
  return 0; /* every record counts */
}

static int on_object(struct dl_phdr_info *info, size_t size, void *arg) {
  note_walk *w = (note_walk *)arg;
  int mine = 0;
  (void)size;
  for (int i = 0; i < info->dlpi_phnum && !mine; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    const uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    mine = ph->p_type == PT_LOAD && w->self >= lo && w->self < lo + ph->p_memsz;
  }
  if (!mine) return 0;
  each_note(info, CPUD__NOTE_TYPE, &on_compiled_note, w);
  return 1; /* this object's: stop */
}

#if defined(CPUD__NOTE_TABLE)
/* The first table any loaded object announces (the program's, or the
 * earliest library's): claimed inside dl_iterate_phdr's callback, while the
 * loader cannot unload its object. */
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

static int on_object_table(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  return each_note(info, CPUD__NOTE_TABLE, &on_table_note, arg);
}

static int first_to_print_in_notes(uint64_t h, int *done) {
  table_claim c = {h, 1};
  /* A reference to our own note keeps its section under --gc-sections. */
  __asm__ volatile("" : : "r"(cpud__printed_table_note));
  *done = dl_iterate_phdr(&on_object_table, &c) != 0;
  return c.first;
}
#endif
#endif

#if !defined(_WIN32) && !(CPUD__HAVE_NOTES && defined(CPUD__NOTE_TABLE))
/* No notes to find: this copy's own table. */
static int first_to_print_in_notes(uint64_t h, int *done) {
  (void)h;
  *done = 0;
  return 1;
}
#endif

void cpud__compiled_targets(int *known, cpud_mask *targets, cpud_mask *dispatched) {
#if CPUD__HAVE_NOTES
  note_walk w;
  memset(&w, 0, sizeof w);
  w.self = (uintptr_t)&on_object;
  dl_iterate_phdr(&on_object, &w);
  if (!w.found) return; /* no dispatch source: the build's set stays */
  *known = 1;
  *targets = w.members;
  *dispatched = cpud_mask_or(w.members, w.implied);
#else
  (void)known, (void)targets, (void)dispatched;
#endif
}

/* Host and library mode (mode init or library: a Python extension,
 * a plugin, a shared library), and a shared library built in program mode:
 * a bad variable never ends the process. Its
 * message is kept for cpud_host_init(), which a host calls first to raise
 * its own error; otherwise (cpud_library_init(), or something initialised
 * the runtime first) it is printed, once per process however many copies
 * of the runtime read the same variable. Either way only the baseline
 * builds run (docs/runtime.md). */
static char g_env_error[sizeof(((cpud__env_outcome *)0)->error)];
static int g_env_failed = 0;   /* set once a bad variable was seen */
static int g_host_claimed = 0; /* cpud_host_init() reports the errors itself */

/* 1 when this copy of the runtime is in the program itself (its
 * executable, or a static library linked into it), 0 in a shared object:
 * a library loaded into a process it does not own never ends it for a
 * variable (docs/runtime.md, "Start-up check"). */
#if CPUD__HAVE_NOTES
static int on_first_object(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  const uintptr_t self = (uintptr_t)&on_first_object;
  int *mine = (int *)arg;
  for (int i = 0; i < info->dlpi_phnum && !*mine; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    const uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    *mine = ph->p_type == PT_LOAD && self >= lo && self < lo + ph->p_memsz;
  }
  return 1; /* the first object reported is the program (glibc, musl) */
}
#endif
static int in_main_program(void) {
#if CPUD__HAVE_NOTES
  int mine = 0;
  dl_iterate_phdr(&on_first_object, &mine);
  return mine;
#elif defined(_WIN32)
  HMODULE self = NULL;
  if (!GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                          (LPCSTR)(void *)&in_main_program, &self))
    return 1;
  return self == GetModuleHandleA(NULL);
#else
  return 1;
#endif
}

void cpud__print_once(const char *line) {
  if (first_to_print(block_hash(line))) {
    fputs(line, stderr);
    fflush(stderr);
  }
}

/* The env masks applied to a detected set: exits on a bad variable, as the
 * start-up check documents, where this copy is in the program itself
 * (program mode); elsewhere (library and host mode, or a shared library
 * built in program mode) see above. The warnings, if any, in o->warning. */
static void apply_env(cpud_mask detected, cpud__env_outcome *o) {
  cpud__env_inputs in;
  memset(&in, 0, sizeof in);
  in.disable = getenv(CPUD_ENV_PREFIX "_DISABLE_CPU_FEATURES");
  in.enable = getenv(CPUD_ENV_PREFIX "_ENABLE_CPU_FEATURES");
  in.usable = detected;
  in.baseline = cpud_baseline_mask();
  in.dispatched = cpud__dispatched_mask();
  in.targets = cpud_mask_none();
#define CPUD__T(NAME) in.targets = cpud_mask_with(in.targets, CPUD_FEATURE_##NAME);
  CPUD_WITH_DISPATCH(CPUD__T)
#undef CPUD__T
  /* Only a variable's warnings need the records: no walk otherwise. */
  if (cpud__names_something(in.disable) || cpud__names_something(in.enable))
    cpud__compiled_targets(&in.compiled, &in.targets, &in.dispatched);
  cpud__apply_env_masks(&in, o);
  if (o->ok) return;
  if (CPUD_STARTUP_CHECK && in_main_program()) {
    fprintf(stderr, "cpudispatch: %s\n", o->error);
    fflush(stderr);
    exit(CPUD_EXIT_ENV);
  }
  int expected = 0;
  if (__atomic_compare_exchange_n(&g_env_failed, &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    snprintf(g_env_error, sizeof g_env_error, "%s", o->error);
    __atomic_store_n(&g_env_failed, 2, __ATOMIC_RELEASE); /* the message is complete */
    if (!__atomic_load_n(&g_host_claimed, __ATOMIC_ACQUIRE)) {
      char line[sizeof g_env_error + 64];
      snprintf(line, sizeof line, "cpudispatch: %s; only the baseline builds run\n", o->error);
      cpud__print_once(line);
    }
  }
  o->usable = cpud_mask_and(detected, in.baseline);
  o->warning[0] = 0;
}

/* The variables of cpudispatch 0.1, whose default prefix every library
 * shared: set while this build reads its own (the project's name), they
 * would be ignored without a word. Said once per process and variable. */
static void warn_old_variables(void) {
#if CPUD_ENV_PREFIX_DERIVED
  static const char *const k_suffixes[] = {"DISABLE_CPU_FEATURES", "ENABLE_CPU_FEATURES",
                                           "SKIP_CPU_BASELINE_CHECK"};
  if (strcmp(CPUD_ENV_PREFIX, "CPUDISPATCH") == 0) return;
  for (size_t i = 0; i < sizeof k_suffixes / sizeof k_suffixes[0]; ++i) {
    char old[64], mine[128], line[512];
    snprintf(old, sizeof old, "CPUDISPATCH_%s", k_suffixes[i]);
    snprintf(mine, sizeof mine, "%s_%s", CPUD_ENV_PREFIX, k_suffixes[i]);
    if (!getenv(old) || getenv(mine)) continue;
    snprintf(line, sizeof line,
             "cpudispatch: warning: %s is set, but %s%s%s reads %s (since cpudispatch 0.2 each library's "
             "variables carry its name); not applied here\n",
             old, CPUD_LIBRARY_NAME[0] ? CPUD_LIBRARY_NAME : "this program", CPUD_LIBRARY_VERSION[0] ? " " : "",
             CPUD_LIBRARY_VERSION, mine);
    cpud__print_once(line);
  }
#endif
}

static void print_warnings(const char *w) {
  while (*w) {
    const char *nl = strchr(w, '\n');
    int n = nl ? (int)(nl - w) : (int)strlen(w);
    fprintf(stderr, "cpudispatch: warning: %.*s\n", n, w);
    w += n + (nl ? 1 : 0);
  }
}

static int g_vector_bytes = -1; /* an assumed CPU's; -1: ask this one */

cpud_mask cpud__init(void) {
  /* Only what this build can use: its baseline and dispatch targets. An
   * ENABLE variable may name any feature the CPU has, so with one set every
   * row is read, and "cannot enable X" is never said of a CPU that has X. */
  const int every = cpud__names_something(getenv(CPUD_ENV_PREFIX "_ENABLE_CPU_FEATURES")) != NULL;
  const cpud_mask detected =
      cpud__close_over_implied(cpud__detect_raw(every ? cpud__every_feature() : cpud__startup_wanted()));
  cpud__env_outcome o;
  apply_env(detected, &o);
  /* Racing initialisers compute the same value; the first to publish it
   * (selection.c) prints the warnings. */
  if (cpud__publish_initial(detected, o.usable, every)) {
    if (o.warning[0] && first_to_print(block_hash(o.warning))) print_warnings(o.warning);
    warn_old_variables();
  }
  return cpud_usable_mask();
}

int cpud_host_init(char *msg, size_t cap) {
  __atomic_store_n(&g_host_claimed, 1, __ATOMIC_RELEASE);
  if (msg && cap) msg[0] = 0;
  (void)cpud_usable_mask(); /* detection and the variables, once */
  /* A racing initialiser may still be writing the message: it is done at 2. */
  int failed;
  while ((failed = __atomic_load_n(&g_env_failed, __ATOMIC_ACQUIRE)) == 1) {
  }
  if (failed) {
    if (msg && cap) snprintf(msg, cap, "cpudispatch: %s", g_env_error);
    return CPUD_EXIT_ENV;
  }
  const char *skip = getenv(CPUD_ENV_PREFIX "_SKIP_CPU_BASELINE_CHECK");
  if (skip && skip[0] && strcmp(skip, "0") != 0) return 0;
  char base[1536];
  if (cpud_check_baseline(base, sizeof base)) {
    if (msg && cap) snprintf(msg, cap, "cpudispatch: %s", base);
    return CPUD_EXIT_BASELINE;
  }
  return 0;
}

int cpud_library_init(char *msg, size_t cap) {
  if (msg && cap) msg[0] = 0;
  /* Detection and the variables, once; a bad variable is printed there
   * (unclaimed) and leaves the baseline builds: not an error of the
   * library's. */
  (void)cpud_usable_mask();
  const char *skip = getenv(CPUD_ENV_PREFIX "_SKIP_CPU_BASELINE_CHECK");
  if (skip && skip[0] && strcmp(skip, "0") != 0) return 0;
  char base[1536];
  if (cpud__check_baseline_of(1, base, sizeof base)) {
    if (msg && cap) snprintf(msg, cap, "cpudispatch: %s", base);
    return CPUD_EXIT_BASELINE;
  }
  return 0;
}

cpud_mask cpud_detect_cpu(const cpud_cpu_report *cpu) {
  return cpu ? cpud__close_over_implied(cpud__detect_raw_from(cpu, cpud__every_feature(), 0, NULL)) : cpud_mask_none();
}

void cpud_assume_cpu(const cpud_cpu_report *cpu) {
  (void)cpud_usable_mask();
  const cpud_mask detected = cpud_detect_cpu(cpu);
  cpud__env_outcome o;
  apply_env(detected, &o);
  __atomic_store_n(&g_vector_bytes, cpu ? cpu->vector_bytes : 0, __ATOMIC_RELAXED);
  cpud__replace_detected(detected, o.usable);
  print_warnings(o.warning);
}

int cpud_vector_bytes(void) {
  /* 0 unless the vectors' feature is usable, for a described CPU too (its
   * report may give a length with SVE masked or absent). */
  const int f = cpud__vector_feature();
  if (!f || !cpud_have(f)) return 0;
  const int assumed = __atomic_load_n(&g_vector_bytes, __ATOMIC_RELAXED);
  return assumed >= 0 ? assumed : cpud__live_vector_bytes();
}

cpud_mask cpud_detected_mask(void) { return cpud__detected_features(); }

cpud_mask cpud_baseline_mask(void) {
  cpud_mask m = cpud_mask_none();
#define CPUD__B(NAME) m = cpud_mask_with(m, CPUD_FEATURE_##NAME);
  CPUD_WITH_BASELINE(CPUD__B)
#undef CPUD__B
  return m;
}

const char *cpud_feature_name(int feature) {
  return feature > 0 && feature <= CPUD_FEATURE_COUNT ? k_names[feature] : NULL;
}

int cpud_feature_by_name(const char *name) {
  if (!name) return 0;
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    if (same_name(name, k_names[id])) return id;
  for (const alias_row *a = k_aliases; a->id; ++a)
    if (same_name(name, a->spelling)) return a->id;
  return 0;
}

/* C and C++ callers (CPUD_DISPATCH_CALL, CPUD_DISPATCH) end here alike. */
void cpud__no_target(const char *function) {
  fprintf(stderr,
          "cpudispatch: no compiled target of %s can run on this CPU and it has no "
          "baseline build; add \"baseline\" to its target list\n",
          function);
  fflush(stderr);
  abort();
}
