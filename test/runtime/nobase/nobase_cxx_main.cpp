// Calls a target-only C++ dispatch source through CPUD_DISPATCH.
#include <cstdio>

#include "nobase_cxx.dispatch.h"
#include "cpudispatch/dispatch.hpp"

CPUD_DISPATCH(int, nobase_cxx_sum, (const int *, int));

int main() {
  const int v[4] = {1, 2, 3, 4};
  int s = nobase_cxx_sum(v, 4);
  std::printf("sum %d\n", s);
  return s == 10 ? 0 : 1;
}
