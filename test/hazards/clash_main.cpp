// Which copy of clash_built_for() serves each target build: with the
// archive's per-target renaming, each its own. Exit 0 when so, 1 when a
// target ran another target's copy, 77 when this CPU can run neither.
// `clash --control` (the libraries linked directly, X86_V3's first): the
// copy kept is X86_V3's, which only AVX512_SKX code can be seen to run, so
// on a CPU without AVX512_SKX the control can show nothing: 77.
#include <cstdio>
#include <cstring>

#include "cpudispatch/dispatch.hpp"
// Each CPUD_DISPATCH right after its own header: the unprefixed macros
// follow the most recently included dispatch header.
#include "clash_a.dispatch.h"
CPUD_DISPATCH(const char *, clash_a, ());
#include "clash_b.dispatch.h"
CPUD_DISPATCH(const char *, clash_b, ());

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "--control") == 0 && !CPUD_HAVE(AVX512_SKX)) {
    std::printf("SKIP: the control needs a CPU with AVX512_SKX (this one lacks it)\n");
    return 77;
  }
  int ran = 0, bad = 0;
  const char *a = CPUD_HAVE(X86_V3) ? clash_a() : nullptr;
  const char *b = CPUD_HAVE(AVX512_SKX) ? clash_b() : nullptr;
  if (a) {
    ++ran;
    bad += std::strcmp(a, "X86_V3") != 0;
    std::printf("X86_V3 code ran the copy built for %s\n", a);
  }
  if (b) {
    ++ran;
    bad += std::strcmp(b, "AVX512_SKX") != 0;
    std::printf("AVX512_SKX code ran the copy built for %s\n", b);
  }
  return ran == 0 ? 77 : bad ? 1 : 0;
}
