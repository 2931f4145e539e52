/* The start-up check: before any other constructor of the program or
 * library it is linked into (priority 101, the first one open to programs),
 * refuse to run on a CPU that lacks a baseline feature, with one clear
 * message, instead of dying of SIGILL in the first baseline instruction.
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

#include "cpudispatch/cpudispatch.h"
#include "detect.h"

static const char k_env_skip[] = CPUD_ENV_PREFIX "_SKIP_CPU_BASELINE_CHECK";

/* What every file that includes a cpudispatch header points at
 * (include/cpudispatch/startup_ref.h): linking such a file brings this
 * object, and so the constructor below, into the program, whatever the
 * link shape. */
CPUD_HIDDEN const char cpud__startup_check_anchor = 0;

/* The check's message says what was built: "this program" (the start-up
 * check, cpud_host_init) or "this library" (cpud_library_init). */
int cpud__check_baseline_of(const char *what, char *msg, size_t cap) {
  const cpud_mask base = cpud_baseline_mask();
  /* What start-up detected, which covers the baseline: asking
   * cpud_detected_mask() here would read every other row too. */
  const cpud_mask missing = cpud_mask_andnot(base, cpud__startup_detected());
  const int count = cpud__mask_count(missing);
  if (msg && cap) {
    msg[0] = 0;
    if (count) {
      char b[512], m[512];
      cpud__mask_names(base, b, sizeof b);
      cpud__mask_names(missing, m, sizeof m);
      snprintf(msg, cap,
               "%s was built for %s CPUs with %s (its baseline), but this CPU lacks %s. "
               "Run it on a CPU that has them, or rebuild it with a lower cpu-baseline "
               "(e.g. -Dcpudispatch:cpu-baseline=min). %s=1 skips this check, at the risk of an "
               "illegal-instruction crash.",
               what, CPUD_ARCH, b, m, k_env_skip);
    }
  }
  return count;
}

int cpud_check_baseline(char *msg, size_t cap) { return cpud__check_baseline_of("this program", msg, cap); }

#if CPUD_STARTUP_CHECK
__attribute__((constructor(101))) static void cpud_startup_check(void) {
  /* Detection and the environment masks run here, so a bad environment
   * variable is reported at start-up too (exit status CPUD_EXIT_ENV). */
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
#endif
