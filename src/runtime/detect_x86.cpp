// x86 detection: CPUID bits plus XGETBV for the register state the OS saves.
// Each (leaf, subleaf) the table uses is queried once; nothing else runs
// CPUID, since every execution is a VM exit on virtual machines.
#include <cpuid.h>

#include "detect.h"

namespace cpud::internal {
namespace {

unsigned g_cpuid_count = 0;

struct regs {
  unsigned r[4];
};

regs cpuid(unsigned leaf, unsigned subleaf) {
  regs x{};
  __cpuid_count(leaf, subleaf, x.r[0], x.r[1], x.r[2], x.r[3]);
  ++g_cpuid_count;
  return x;
}

// XCR0 when the OS has enabled XSAVE (OSXSAVE), else 0: no AVX state at all.
std::uint64_t read_xcr0(const regs &leaf1) {
  if (!(leaf1.r[CPUD_REG_ECX] & (1u << 27))) return 0;
  unsigned lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<std::uint64_t>(hi) << 32) | lo;
}

// Leaves the table uses, deduplicated at compile time by construction of
// the cache below: a small list is enough (the table has a handful).
struct leaf_cache {
  unsigned max_basic = 0, max_ext = 0;
  unsigned n = 0;
  unsigned leaf[8], sub[8];
  regs val[8];

  regs get(unsigned l, unsigned s) {
    for (unsigned i = 0; i < n; ++i)
      if (leaf[i] == l && sub[i] == s) return val[i];
    regs x{};
    bool ext = l >= 0x80000000u;
    if ((ext ? l <= max_ext : l <= max_basic) && n < 8) {
      x = cpuid(l, s);
      leaf[n] = l;
      sub[n] = s;
      val[n++] = x;
    }
    return x;
  }
};

}  // namespace

std::uint64_t detect_raw() {
  leaf_cache c;
  c.max_basic = cpuid(0, 0).r[0];
  c.max_ext = cpuid(0x80000000u, 0).r[0];
  std::uint64_t xcr0 = c.max_basic >= 1 ? read_xcr0(c.get(1, 0)) : 0;
  std::uint64_t raw = 0;
#define CPUD__ROW(NAME, INTEREST, KIND, LEAF, SUB, REG, BIT, XCR0)                      \
  if (KIND == CPUD_DETECT_GROUP) {                                                    \
    raw |= CPUD_BIT(NAME);                                                            \
  } else if (KIND == CPUD_DETECT_CPUID && ((c.get(LEAF, SUB).r[REG] >> (BIT)) & 1u) && \
             (xcr0 & (XCR0)) == static_cast<std::uint64_t>(XCR0)) {                   \
    raw |= CPUD_BIT(NAME);                                                            \
  }
  CPUD_FEATURES(CPUD__ROW)
#undef CPUD__ROW
  return raw;
}

unsigned cpuid_count() { return g_cpuid_count; }

}  // namespace cpud::internal
