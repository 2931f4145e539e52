/* SPDX-License-Identifier: MIT */
/* Start-up (startup.h): the first query detects what the build can use,
 * reads the environment variables and publishes the process's sets. Layer
 * 5: calls detection, the variables' reader and the process state below.
 *
 * Host and library mode (mode init or library: a Python extension, a
 * plugin, a shared library), and a shared library built in program mode:
 * a bad variable never ends the process. Its message is kept for
 * cpud_host_init(), which a host calls first to raise its own error;
 * otherwise (cpud_library_init(), or something initialised the runtime
 * first) it is printed, once per process however many copies of the
 * runtime read the same variable. Either way only the baseline builds run
 * (docs/runtime.md). */
#include "startup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiled_targets.h"
#include "detect.h"
#include "loaded_objects.h"
#include "print_once.h"
#include "process_state.h"

static char g_env_error[sizeof(((cpud__env_outcome *)0)->error)];
static int g_env_failed = 0;   /* 1 while its message is written, 2 once it is */
static int g_host_claimed = 0; /* cpud_host_init() reports the errors itself */

void cpud__apply_env(cpud_mask detected, cpud__env_outcome *o) {
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
  if (CPUD_STARTUP_CHECK && cpud__in_main_program()) {
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

void cpud__claim_env_errors(void) { __atomic_store_n(&g_host_claimed, 1, __ATOMIC_RELEASE); }

int cpud__env_failure(char *msg, size_t cap) {
  int failed;
  while ((failed = __atomic_load_n(&g_env_failed, __ATOMIC_ACQUIRE)) == 1) {
  }
  if (failed && msg && cap) snprintf(msg, cap, "cpudispatch: %s", g_env_error);
  return failed != 0;
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

void cpud__print_warnings(const char *w) {
  while (*w) {
    const char *nl = strchr(w, '\n');
    int n = nl ? (int)(nl - w) : (int)strlen(w);
    fprintf(stderr, "cpudispatch: warning: %.*s\n", n, w);
    w += n + (nl ? 1 : 0);
  }
}

static void initialise(void) {
  /* Only what this build can use: its baseline and dispatch targets. An
   * ENABLE variable may name any feature the CPU has, so with one set every
   * row is read, and "cannot enable X" is never said of a CPU that has X. */
  const int every = cpud__names_something(getenv(CPUD_ENV_PREFIX "_ENABLE_CPU_FEATURES")) != NULL;
  const cpud_mask detected =
      cpud__close_over_implied(cpud__detect_raw(every ? cpud__every_feature() : cpud__startup_wanted()));
  cpud__env_outcome o;
  cpud__apply_env(detected, &o);
  /* Racing initialisers compute the same value; the first to publish it
   * prints the warnings. */
  if (cpud__publish_initial(detected, o.usable, every)) {
    if (o.warning[0] && cpud__first_to_print(o.warning)) cpud__print_warnings(o.warning);
    warn_old_variables();
  }
}

/* The inline fast path's other branch: one call down once initialised. */
cpud_mask cpud__usable_slow(void) {
  cpud_mask m;
  if (!cpud__state_usable_for_thread(&m)) {
    initialise();
    (void)cpud__state_usable_for_thread(&m);
  }
  return m;
}

cpud_mask cpud__init(void) { return cpud__usable_slow(); }

int cpud__have_slow(int feature) { return cpud_mask_has(cpud__usable_slow(), feature); }

cpud_mask cpud__startup_detected(void) {
  (void)cpud__init();
  return cpud__state_detected(NULL);
}
