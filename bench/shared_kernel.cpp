// The trivial kernel behind a shared-library boundary: an exported direct
// function, an exported function that makes cpudispatch's dispatched call
// inside the library, and an exported getter of the selected pointer.
#include "trivial.dispatch.h"
#include "cpudispatch/dispatch.hpp"

CPUD_DISPATCH(int, cpud_bench_add, (int, int));

#define EXPORT extern "C" __attribute__((visibility("default")))
EXPORT int shared_add_direct(int a, int b) { return cpud_bench_add_baseline(a, b); }
EXPORT int shared_add_dispatched(int a, int b) { return cpud_bench_add(a, b); }
EXPORT int (*shared_add_pointer())(int, int) { return cpud_bench_add.get(); }
