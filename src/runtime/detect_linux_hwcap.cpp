// Detection through the kernel's hwcap words (aarch64, ppc64le, s390x,
// riscv64 on Linux): the kernel only reports what it also saves state for.
// getauxval() first; if it gives nothing (a C library without it, or a
// loader that did not pass the vector on), the same words from
// /proc/self/auxv.
#include <fcntl.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "detect.h"

#ifndef AT_HWCAP2
#define AT_HWCAP2 26
#endif

namespace cpud::internal {
namespace {

void read_proc_auxv(unsigned long hw[2]) {
  int fd = open("/proc/self/auxv", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  unsigned long pair[2];
  while (read(fd, pair, sizeof pair) == static_cast<ssize_t>(sizeof pair) && pair[0] != AT_NULL) {
    if (pair[0] == AT_HWCAP) hw[0] = pair[1];
    if (pair[0] == AT_HWCAP2) hw[1] = pair[1];
  }
  close(fd);
}

}  // namespace

std::uint64_t detect_raw() {
  unsigned long hw[2] = {getauxval(AT_HWCAP), getauxval(AT_HWCAP2)};
  if (hw[0] == 0 && hw[1] == 0) read_proc_auxv(hw);
  std::uint64_t raw = 0;
#define CPUD__ROW(NAME, INTEREST, KIND, LEAF, SUB, REG, BIT, XCR0)                          \
  if (KIND == CPUD_DETECT_GROUP ||                                                        \
      ((KIND == CPUD_DETECT_HWCAP || KIND == CPUD_DETECT_HWCAP2) &&                       \
       ((hw[KIND == CPUD_DETECT_HWCAP2] >> (BIT)) & 1ul)))                                \
    raw |= CPUD_BIT(NAME);
  CPUD_FEATURES(CPUD__ROW)
#undef CPUD__ROW
  return raw;
}

unsigned cpuid_count() { return 0; }

}  // namespace cpud::internal
