// Prints which target of each dispatched function runs on this machine and
// checks the results against a plain loop. Exit status 0 when all agree.
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <vector>

#include "cpudispatch/dispatch.hpp"

// sum.dispatch.c is C: its targets have C linkage; select through the C macros.
extern "C" {
#include "sum.dispatch.h"
CPUD_DISPATCH_DECLARE(float sum, (const float *, size_t))
CPUD_DISPATCH_DECLARE(const char *sum_target, (void))
}
static float (*sum_best())(const float *, size_t) { return CPUD_DISPATCH_SELECT(sum); }
static const char *(*sum_target_best())(void) { return CPUD_DISPATCH_SELECT(sum_target); }

// scale.dispatch.cpp is C++: typed dispatchers with a cached pointer.
#include "scale.dispatch.h"
CPUD_DISPATCH(void, axpy, (float, const float *, float *, std::size_t));
CPUD_DISPATCH(const char *, axpy_target, ());

int main() {
  const std::size_t n = 1003;
  std::vector<float> x(n), y(n), want(n);
  float want_sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 7);
    y[i] = static_cast<float>(i % 3);
    want[i] = 2.0f * x[i] + y[i];
    want_sum += x[i];
  }
  float (*sum_fn)(const float *, size_t) = sum_best();
  const char *(*sum_name)(void) = sum_target_best();
  float got_sum = sum_fn ? sum_fn(x.data(), n) : NAN;
  axpy(2.0f, x.data(), y.data(), n);
  bool ok = got_sum == want_sum && y == want;
  std::printf("sum  (C):   %s\n", sum_name ? sum_name() : "none");
  std::printf("axpy (C++): %s\n", axpy_target());
  std::printf("results %s\n", ok ? "match the plain loops" : "DIFFER from the plain loops");
  return ok ? 0 : 1;
}
