/* SPDX-License-Identifier: MIT */
/* The start-up check (layer 6): before any other constructor of the program or
 * library it is linked into (priority 101, the first one open to programs),
 * refuse to run on a CPU that lacks a baseline feature, with one clear
 * message naming the library, instead of dying of SIGILL in the first
 * baseline instruction.
 *
 * This file, like the whole runtime, is compiled for the arch's floor:
 * WITHOUT the baseline flags, and with floor flags that undo a consumer's
 * global -march/-mavx2 (src/runtime/meson.build), so nothing here can
 * itself use a baseline-only instruction (test/floor/). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "baseline_check.h"
#include "feature_table.h"
#include "print_once.h"
#include "startup.h"

static const char k_env_skip[] = CPUD_ENV_PREFIX "_SKIP_CPU_BASELINE_CHECK";

/* What every file that includes a cpudispatch header points at
 * (include/cpudispatch/startup_ref.h): linking such a file brings this
 * object, and so the constructor below, into the program, whatever the
 * link shape. */
CPUD_HIDDEN const char cpud__startup_check_anchor = 0;

#if CPUD_MODE_LIBRARY && CPUD_LOADER_ISA_NEEDED && defined(__ELF__) && defined(__x86_64__)
/* Library mode without an init function (mode=library): nothing in
 * the library can stop a host from calling its baseline code, so the
 * loader must. This object (which every file of the library reaches
 * through the anchor above) carries GNU_PROPERTY_X86_ISA_1_NEEDED with the
 * x86-64 level that covers the baseline; the linker ORs it into the
 * library or program, and glibc >= 2.33 refuses to load it on a CPU below
 * that level: dlopen() fails with "CPU ISA level is lower than required"
 * and the host goes on (a program linked with it does not start). */
#define CPUD__PROP_STR_(x) #x
#define CPUD__PROP_STR(x) CPUD__PROP_STR_(x)
__asm__(".pushsection .note.gnu.property,\"a\",@note\n"
        ".balign 8\n"
        ".long 4\n"          /* name size: "GNU" */
        ".long 16\n"         /* description size: one property, padded to 8 */
        ".long 5\n"          /* NT_GNU_PROPERTY_TYPE_0 */
        ".asciz \"GNU\"\n"
        ".long 0xc0008002\n" /* GNU_PROPERTY_X86_ISA_1_NEEDED */
        ".long 4\n"
        ".long " CPUD__PROP_STR(CPUD_LOADER_ISA_NEEDED) "\n"
        ".long 0\n"
        ".popsection\n");
#endif

/* "alpha 1.2", "alpha", or "" where the build does not know its project. */
static void library_label(char *buf, size_t cap) {
  if (!CPUD_LIBRARY_NAME[0])
    buf[0] = 0;
  else
    snprintf(buf, cap, "%s%s%s", CPUD_LIBRARY_NAME, CPUD_LIBRARY_VERSION[0] ? " " : "", CPUD_LIBRARY_VERSION);
}

/* The message names the build's project and speaks to whoever runs the
 * program: in program mode "alpha 1.2 in this program was built for ...",
 * for a library inside another process (cpud_library_init, library mode)
 * "alpha 1.2, a library in this process, was built for ...". */
int cpud__check_baseline_of(int library, char *msg, size_t cap) {
  const cpud_mask base = cpud_baseline_mask();
  /* What start-up detected, which covers the baseline: asking
   * cpud_detected_mask() here would read every other row too. */
  const cpud_mask missing = cpud_mask_andnot(base, cpud__startup_detected());
  const int count = cpud__mask_count(missing);
  if (msg && cap) {
    msg[0] = 0;
    if (count) {
      char b[512], m[512], who[200], subject[256], advice[256];
      cpud__mask_names(base, b, sizeof b);
      cpud__mask_names(missing, m, sizeof m);
      library_label(who, sizeof who);
      if (!who[0])
        snprintf(subject, sizeof subject, "this %s", library ? "library" : "program");
      else if (library)
        snprintf(subject, sizeof subject, "%s, a library in this process,", who);
      else
        snprintf(subject, sizeof subject, "%s in this program", who);
      if (who[0])
        snprintf(advice, sizeof advice, "a build of %s for older CPUs", CPUD_LIBRARY_NAME);
      else
        snprintf(advice, sizeof advice, "a build of it for older CPUs");
      snprintf(msg, cap,
               "%s was built for %s CPUs with %s (its baseline), but this CPU lacks %s. "
               "Run it on a CPU that has them, or use %s. %s=1 skips this check, at the risk of an "
               "illegal-instruction crash.",
               subject, CPUD_ARCH, b, m, advice, k_env_skip);
    }
  }
  return count;
}

int cpud_check_baseline(char *msg, size_t cap) { return cpud__check_baseline_of(0, msg, cap); }

#if CPUD_STARTUP_CHECK
__attribute__((constructor(101))) static void cpud_startup_check(void) {
  /* Detection and the environment masks run here, so a bad environment
   * variable is reported at start-up too (exit status CPUD_EXIT_ENV, where
   * this copy is in the program itself: startup.c). */
  (void)cpud_usable_mask();
  const char *skip = getenv(k_env_skip);
  if (skip && skip[0] && strcmp(skip, "0") != 0) return;
  char msg[1536];
  if (cpud_check_baseline(msg, sizeof msg)) {
    fprintf(stderr, "cpudispatch: %s\n", msg);
    fflush(stderr);
    /* _exit: no atexit handlers or static destructors, which are code of
     * the program compiled with the baseline flags. */
    _exit(CPUD_EXIT_BASELINE);
  }
}
#elif CPUD_MODE_LIBRARY
/* Library mode without an init function: never exits. A bad variable is
 * printed (once per process) where detection reads it; a CPU below the
 * baseline, where the loader let the library in (a glibc before 2.33,
 * musl, a baseline at the arch's minimum cannot get here), is said at load
 * time, once per process, before anything calls the library. */
__attribute__((constructor(101))) static void cpud_startup_warn(void) {
  (void)cpud_usable_mask();
  const char *skip = getenv(k_env_skip);
  if (skip && skip[0] && strcmp(skip, "0") != 0) return;
  char msg[1536], line[1600];
  if (cpud__check_baseline_of(1, msg, sizeof msg)) {
    snprintf(line, sizeof line, "cpudispatch: %s\n", msg);
    cpud__print_once(line);
  }
}
#endif
