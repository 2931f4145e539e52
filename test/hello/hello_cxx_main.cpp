// C++ twin: the typed dispatcher picks the highest target once; the test
// hooks walk every compiled target. Prints the same lines as hello_main.c.
#include <cstdio>
#include <string>

#include "hello_cxx.dispatch.h"
#include "cpudispatch/dispatch.hpp"

CPUD_DISPATCH(int, hello_cxx, (std::string &, const int *));

int main() {
  int v[16];
  for (int i = 0; i < 16; ++i) v[i] = i + 1;
  std::string all, best;
  bool ok = true;
  for (auto *e = hello_cxx.targets(); e->fn; ++e)
    if (e->feature == 0 || cpud_have(e->feature)) ok &= e->fn(all, v) == 136;
  ok &= hello_cxx(best, v) == 136;
  std::string again;
  ok &= hello_cxx.get()(again, v) == 136;  // cached pointer, same target
  ok &= again == best && best == std::string(hello_cxx.selected_name()) + " ";
  std::printf("compiled: %s\nall: %s\nhighest: %s\n", CPUD__TARGET_NAMES, all.c_str(), best.c_str());
  return ok ? 0 : 1;
}
