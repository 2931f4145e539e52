/* Calls the seed example's targets through the C macros and prints:
 *   all: <every target the CPU can run, highest first, then baseline>
 *   highest: <the target CPUD_DISPATCH_CALL picked>
 * check_hello.py compares both lines with what /proc/cpuinfo says. */
#include <stdio.h>
#include <string.h>

#include "hello.dispatch.h"

CPUD_DISPATCH_DECLARE(int hello, (char *log, const int *v16))

static int g_sum_ok = 1;

static void check_sum(int got) {
  if (got != 136) { /* 1 + 2 + ... + 16 */
    printf("wrong sum %d\n", got);
    g_sum_ok = 0;
  }
}

#define RUN_ONE(CHECK, T, LOG, V) if (CHECK) check_sum(hello_##T(LOG, V));
#define RUN_BASE(LOG, V) check_sum(hello_baseline(LOG, V));

int main(void) {
  int v[16];
  for (int i = 0; i < 16; ++i) v[i] = i + 1;
  char all[256] = "", all_cb[256] = "", best[64] = "";

  CPUD_DISPATCH_CALL_ALL(hello, (all, v));
  /* The same through the low-level CHK/CB form. */
  CPUD__DISPATCH_CALL(CPUD_HAVE, RUN_ONE, all_cb, v)
  CPUD__DISPATCH_BASELINE_CALL(RUN_BASE, all_cb, v)
  check_sum(CPUD_DISPATCH_CALL(hello, (best, v)));
  int (*sel)(char *, const int *) = CPUD_DISPATCH_SELECT(hello);
  char via_select[64] = "";
  check_sum(sel(via_select, v));

  printf("compiled: %s\n", CPUD__TARGET_NAMES);
  printf("all: %s\n", all);
  printf("highest: %s\n", best);
  if (strcmp(all, all_cb) != 0 || strcmp(best, via_select) != 0) {
    printf("macro forms disagree: '%s' vs '%s', '%s' vs '%s'\n", all, all_cb, best, via_select);
    return 1;
  }
  return g_sum_ok ? 0 : 1;
}
