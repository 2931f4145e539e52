// x86 detection: CPUID bits plus XGETBV for the register state the OS saves.
//
// CPUID is slow where it matters most: on a virtual machine every execution
// is a VM exit (about 6 us each on the machine this was written on). glibc
// >= 2.33 has already run CPUID for the leaves we need while loading the
// program and exports the raw registers (sys/platform/x86.h), so on glibc the
// common case executes no CPUID at all. Other leaves, or other C libraries,
// run CPUID once per (leaf, subleaf) the table uses.
#include <cpuid.h>

#include "detect.h"

// glibc's <sys/platform/x86.h> is C-only (_Bool; clang++ rejects it), so the
// ABI it documents is declared here: the function, its leaf indices, and the
// struct of the leaf's raw registers (eax ebx ecx edx) and "active" bits.
#include <features.h>
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#define CPUD_LIBC_CPUID_CACHE 1
extern "C" {
struct cpud_glibc_cpuid_leaf {
  unsigned int cpuid_array[4];
  unsigned int active_array[4];
};
const cpud_glibc_cpuid_leaf *__x86_get_cpuid_feature_leaf(unsigned int index);
}
enum : int {
  CPUID_INDEX_1 = 0,
  CPUID_INDEX_7 = 1,
  CPUID_INDEX_80000001 = 2,
  CPUID_INDEX_D_ECX_1 = 3,
  CPUID_INDEX_7_ECX_1 = 6,
};
#endif

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

// Leaves the table uses, each read once: from the C library's copy when it
// has one, else with CPUID (after checking the leaf exists).
struct leaf_cache {
  bool use_libc;
  bool have_max = false;
  unsigned max_basic = 0, max_ext = 0;
  unsigned n = 0;
  unsigned leaf[8], sub[8];
  regs val[8];

  explicit leaf_cache(bool libc) : use_libc(libc) {}

  bool from_libc(unsigned l, unsigned s, regs &out) const {
#ifdef CPUD_LIBC_CPUID_CACHE
    int index = -1;
    if (l == 1 && s == 0) index = CPUID_INDEX_1;
    if (l == 7 && s == 0) index = CPUID_INDEX_7;
    if (l == 7 && s == 1) index = CPUID_INDEX_7_ECX_1;
    if (l == 0x80000001u && s == 0) index = CPUID_INDEX_80000001;
    if (l == 0xdu && s == 1) index = CPUID_INDEX_D_ECX_1;
    if (!use_libc || index < 0) return false;
    const cpud_glibc_cpuid_leaf *f = __x86_get_cpuid_feature_leaf(static_cast<unsigned>(index));
    if (!f) return false;
    for (int r = 0; r < 4; ++r) out.r[r] = f->cpuid_array[r];
    return true;
#else
    (void)l, (void)s, (void)out;
    return false;
#endif
  }

  regs get(unsigned l, unsigned s) {
    for (unsigned i = 0; i < n; ++i)
      if (leaf[i] == l && sub[i] == s) return val[i];
    regs x{};
    if (!from_libc(l, s, x)) {
      if (!have_max) {
        max_basic = cpuid(0, 0).r[0];
        max_ext = cpuid(0x80000000u, 0).r[0];
        have_max = true;
      }
      bool ext = l >= 0x80000000u;
      if (ext ? l <= max_ext : l <= max_basic) x = cpuid(l, s);
    }
    if (n < 8) {
      leaf[n] = l;
      sub[n] = s;
      val[n++] = x;
    }
    return x;
  }
};

}  // namespace

std::uint64_t detect_raw_with(bool use_libc_cache) {
  leaf_cache c(use_libc_cache);
  std::uint64_t xcr0 = read_xcr0(c.get(1, 0));
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

std::uint64_t detect_raw() { return detect_raw_with(true); }

unsigned cpuid_count() { return g_cpuid_count; }

}  // namespace cpud::internal
