// A trivial kernel in its own translation unit, so neither the direct nor the
// dispatched call can be inlined: the benchmark then measures call cost only.
#include "trivial.dispatch.h"

int CPUD_FN(cpud_bench_add)(int a, int b) { return a + b; }
