// A C++ dispatch source compiled for targets only (no baseline build).
#include "nobase_cxx.dispatch.h"

int CPUD_FN(nobase_cxx_sum)(const int *p, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += p[i];
  return s;
}
