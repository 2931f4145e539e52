// The start-up check runs before the program's own static initialisers
// (ELF: .init_array by priority; MinGW: .ctors by priority). This
// program's initialiser asks whether the CPU has the build's baseline: if
// it ever runs on a CPU that lacks it, the check came too late, and it
// exits 1. tools/qemu-matrix.py runs it under models below the baseline,
// where it must exit 69 with the check's message instead (and with
// CPUDISPATCH_SKIP_CPU_BASELINE_CHECK=1, the negative control, it exits 1).
#include <cstdio>
#include <cstdlib>

#include "cpudispatch/cpudispatch.h"

namespace {
struct program_initialiser {
  program_initialiser() {
    if (cpud_check_baseline(nullptr, 0) != 0) {
      std::printf("FAIL: a static initialiser of the program ran on a CPU below its baseline\n");
      std::fflush(stdout);
      std::_Exit(1);
    }
  }
} g_initialiser;
}  // namespace

int main() {
  std::printf("the program's initialiser ran after the start-up check\n");
  return 0;
}
