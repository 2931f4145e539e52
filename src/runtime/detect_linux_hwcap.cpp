// Detection through the kernel's hwcap words (aarch64, ppc64le, s390x,
// riscv64 on Linux): the kernel only reports what it also saves state for.
#include <sys/auxv.h>

#include "detect.h"

#ifndef AT_HWCAP2
#define AT_HWCAP2 26
#endif

namespace cpud::internal {

std::uint64_t detect_raw() {
  const unsigned long hw[2] = {getauxval(AT_HWCAP), getauxval(AT_HWCAP2)};
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
