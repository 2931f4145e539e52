/* The C dispatch source of docs/api.md's cached dispatcher and pick-by-name
 * examples (api_c_cached.c): the same as sum.dispatch.c, with a group
 * target (AVX2+FMA3) and a target most CPUs lack (AVX512_SKX). */
#include <string.h>

#include "total.dispatch.h"

int CPUD_FN(total)(const int *v, int n, char *log) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += v[i];
  strcat(log, CPUD_TARGET_NAME " ");
  return s;
}
