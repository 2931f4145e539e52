// A trivial kernel in its own translation unit, so neither the direct nor the
// dispatched call can be inlined: the benchmark then measures call cost only.
#include "trivial.dispatch.h"

int CPUD_FN(cpud_bench_add)(int a, int b) { return a + b; }

// Redispatch: a build that hands its call on to the build below it (b
// hops), and the baseline build, which has nothing below, ends it.
#include "cpudispatch/dispatch.hpp"
CPUD_DISPATCH(int, cpud_bench_hop, (int, int));
int CPUD_FN(cpud_bench_hop)(int a, int b) {
  if (b > 0)
    if (auto below = CPUD_BELOW(cpud_bench_hop)) return below(a + 1, b - 1);
  return a + 1;
}
