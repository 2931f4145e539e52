/* A C dispatch source without a baseline build (docs/api.md, "When no target
 * can run"): the same as sum.dispatch.c. */
#include <string.h>

#include "fast.dispatch.h"

int CPUD_FN(fast)(const int *v, int n, char *log) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += v[i];
  strcat(log, CPUD_TARGET_NAME " ");
  return s;
}
