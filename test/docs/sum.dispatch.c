/* The C dispatch source docs/api.md's C examples call: sum adds n ints and
 * appends the name of the build that ran to log. */
#include <string.h>

#include "sum.dispatch.h"

int CPUD_FN(sum)(const int *v, int n, char *log) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += v[i];
  strcat(log, CPUD_TARGET_NAME " ");
  return s;
}
