// x86 detection: CPUID bits plus XGETBV for the register state the OS saves.
//
// CPUID is slow where it matters most: on a virtual machine every execution
// is a VM exit (about 6 us each on a KVM guest measured for issue 25). glibc
// >= 2.33 has already run CPUID for leaves 1, 7.0, 7.1 and 0x80000001 while
// loading the program and exports the raw registers (sys/platform/x86.h).
// Start-up reads only the rows of the features this program can use (its
// baseline and dispatch targets, with what they imply): every such row's
// leaf is in glibc's copy, so on glibc start-up executes no CPUID. Other
// leaves (0x24, AVX10's version: only AVX10_2 needs it), or other C
// libraries, run CPUID once per (leaf, subleaf) a wanted row uses, plus the
// maximum leaf of its range. The kernel's AMX permission is asked only when
// an AMX row is wanted. Introspection (cpud_detected_mask) reads the rest.
//
// One reader serves this CPU and a described one (cpud_detect_cpu): it is a
// template over where registers come from, so the rules below (maximum
// leaves, OSXSAVE before XCR0, AVX10's leaf, AMX permission) are the same
// code whichever it reads.
#include <cpuid.h>
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "detect.h"

// glibc's <sys/platform/x86.h> is C-only (_Bool; clang++ rejects it), so the
// ABI it documents is declared here: the function, its leaf indices, and the
// struct of the leaf's raw registers (eax ebx ecx edx) and "active" bits.
#if defined(__linux__)
#include <features.h>  // __GLIBC__, __GLIBC_MINOR__
#endif
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#define CPUD_LIBC_CPUID_CACHE 1
extern "C" {
struct cpud_glibc_cpuid_leaf {
  unsigned int cpuid_array[4];
  unsigned int active_array[4];
};
const cpud_glibc_cpuid_leaf *__x86_get_cpuid_feature_leaf(unsigned int index);
}
#endif

namespace cpud::internal {
namespace {

unsigned g_cpuid_count = 0;
unsigned g_leaves_read = 0;  // bit i: k_leaves[i] was read (this CPU only)

// The leaves the table's rows name, for leaves_read(); others share the last bit.
struct leaf_id {
  unsigned leaf, sub;
  const char *name;
};
constexpr leaf_id k_leaves[] = {{1, 0, "1"},     {7, 0, "7.0"},          {7, 1, "7.1"},
                                {0x24, 0, "0x24"}, {0x80000001u, 0, "0x80000001"}, {0, 0, "other"}};
constexpr int k_leaf_count = sizeof k_leaves / sizeof k_leaves[0];
unsigned leaf_bit(unsigned l, unsigned s) {
  int i = 0;
  while (i < k_leaf_count - 1 && !(k_leaves[i].leaf == l && k_leaves[i].sub == s)) ++i;
  return 1u << i;
}

struct regs {
  unsigned r[4];
};

// XCR0 state components.
constexpr std::uint64_t k_xtile = (1u << 17) | (1u << 18);  // XTILECFG, XTILEDATA

// The leaves glibc >= 2.33 keeps a copy of, of those the table uses (its
// index in __x86_get_cpuid_feature_leaf), or -1. Described CPUs model the
// same copy (detect_raw_from's libc_copy).
int glibc_copy_index(unsigned l, unsigned s) {
  if (l == 1 && s == 0) return 0;            // CPUID_INDEX_1
  if (l == 7 && s == 0) return 1;            // CPUID_INDEX_7
  if (l == 0x80000001u && s == 0) return 2;  // CPUID_INDEX_80000001
  if (l == 0xdu && s == 1) return 3;         // CPUID_INDEX_D_ECX_1
  if (l == 7 && s == 1) return 6;            // CPUID_INDEX_7_ECX_1
  return -1;
}

// This CPU: the C library's copy of a leaf when it has one, else CPUID.
struct live_cpu {
#ifdef CPUD_LIBC_CPUID_CACHE
  bool use_libc;
#endif

  bool cached(unsigned l, unsigned s, regs &out) const {
    __atomic_or_fetch(&g_leaves_read, leaf_bit(l, s), __ATOMIC_RELAXED);  // every leaf get() reads passes here
#ifdef CPUD_LIBC_CPUID_CACHE
    const int index = glibc_copy_index(l, s);
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
  regs cpuid(unsigned leaf, unsigned subleaf) const {
    regs x{};
    __cpuid_count(leaf, subleaf, x.r[0], x.r[1], x.r[2], x.r[3]);
    __atomic_add_fetch(&g_cpuid_count, 1u, __ATOMIC_RELAXED);  // racing initialisers
    return x;
  }
  // Only called with OSXSAVE set, so XGETBV exists.
  std::uint64_t xcr0() const {
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (static_cast<std::uint64_t>(hi) << 32) | lo;
  }
  // Linux hands out AMX tile data state only to a process that asks
  // (Documentation/arch/x86/xstate.rst); until then the first tile
  // instruction faults although CPUID and XCR0 say AMX. Other systems:
  // XCR0 is their word.
  bool amx_permitted() const {
#if defined(__linux__)
    const long arch_req_xcomp_perm = 0x1023, xfeature_xtiledata = 18;
    return syscall(SYS_arch_prctl, arch_req_xcomp_perm, xfeature_xtiledata) == 0;
#else
    return true;
#endif
  }
};

// A described CPU: its leaves, zero where the description has none. With
// libc_copy it models glibc's copy of its leaves (read without CPUID), and
// `cost` adds up the CPUID instructions and kernel questions the same
// reading of this CPU would cost: the replay seam for start-up's cost on
// recorded CPUs.
struct described_cpu {
  const cpud_cpu_report &rep;
  bool libc_copy;
  reading_cost *cost;

  bool cached(unsigned l, unsigned s, regs &out) const {
    if (!libc_copy || glibc_copy_index(l, s) < 0) return false;
    // glibc copies a leaf only when its range's maximum reaches it.
    const unsigned max = find(l & 0x80000000u, 0).r[0];
    out = l <= max ? find(l, s) : regs{};
    return true;
  }
  regs cpuid(unsigned leaf, unsigned subleaf) const {
    if (cost) ++cost->cpuids;
    return find(leaf, subleaf);
  }
  regs find(unsigned leaf, unsigned subleaf) const {
    regs x{};
    for (std::size_t i = 0; i < rep.leaf_count; ++i) {
      const cpud_cpuid_leaf &l = rep.leaves[i];
      if (l.leaf == leaf && l.subleaf == subleaf) {
        x.r[0] = l.eax, x.r[1] = l.ebx, x.r[2] = l.ecx, x.r[3] = l.edx;
        break;
      }
    }
    return x;
  }
  // Without an XCR0 value the OS enabled everything CPUID.(0Dh,0) says the
  // CPU can save (EDX:EAX). It stands for XGETBV: no CPUID is counted.
  std::uint64_t xcr0() const {
    if (rep.has_xcr0) return rep.xcr0;
    if (find(0, 0).r[0] < 0xd) return 0;  // no leaf 0xD: nothing saved
    const regs d = find(0xd, 0);
    return (static_cast<std::uint64_t>(d.r[CPUD_REG_EDX]) << 32) | d.r[CPUD_REG_EAX];
  }
  bool amx_permitted() const {
    if (cost) ++cost->kernel_asks;
    return !rep.amx_denied;
  }
};

// Leaves the table uses, each read once, with the rules CPUID's users must
// follow: a leaf above the maximum basic/extended leaf reads as zero (real
// CPUs return another leaf's data there); leaf 0x24 only exists when
// CPUID.(7,1):EDX[19] (AVX10) says so.
template <class Cpu>
struct leaf_reader {
  const Cpu &cpu;
  bool have_basic = false, have_ext = false;
  unsigned max_basic = 0, max_ext = 0;
  unsigned n = 0;
  unsigned leaf[8], sub[8];
  regs val[8];

  explicit leaf_reader(const Cpu &c) : cpu(c) {}

  // The maximum of the leaf's own range only, read once.
  bool exists(unsigned l) {
    if (l >= 0x80000000u) {
      if (!have_ext) max_ext = cpu.cpuid(0x80000000u, 0).r[0], have_ext = true;
      return l <= max_ext;
    }
    if (!have_basic) max_basic = cpu.cpuid(0, 0).r[0], have_basic = true;
    return l <= max_basic;
  }

  regs get(unsigned l, unsigned s) {
    for (unsigned i = 0; i < n; ++i)
      if (leaf[i] == l && sub[i] == s) return val[i];
    regs x{};
    if (!cpu.cached(l, s, x)) {
      // (AVX10's bit first: on glibc it costs no CPUID, the maximum does.)
      bool ok = l != 0x24u || ((get(7, 1).r[CPUD_REG_EDX] >> 19) & 1u);
      if (ok && exists(l)) x = cpu.cpuid(l, s);
    }
    if (n < 8) {
      leaf[n] = l;
      sub[n] = s;
      val[n++] = x;
    }
    return x;
  }
};

// The rows of `want` only: a row outside it reads no leaf and stays clear.
template <class Cpu>
feature_set detect(const Cpu &cpu, const feature_set &want) {
  leaf_reader<Cpu> c(cpu);
  bool need_xcr0 = false;
#define CPUD__ROW(NAME, INTEREST, KIND, LEAF, SUB, REG, BIT, XCR0, ARG) \
  if ((XCR0) && want.has(CPUD_FEATURE_##NAME)) need_xcr0 = true;
  CPUD_FEATURES(CPUD__ROW)
#undef CPUD__ROW
  // XCR0 only when the OS has enabled XSAVE (OSXSAVE): else no AVX state
  // at all, and XGETBV itself would fault.
  std::uint64_t xcr0 = 0;
  if (need_xcr0 && ((c.get(1, 0).r[CPUD_REG_ECX] >> 27) & 1u)) xcr0 = cpu.xcr0();
  int amx = -1;  // asked once, and only when a row needs tile state
  feature_set raw;
#define CPUD__ROW(NAME, INTEREST, KIND, LEAF, SUB, REG, BIT, XCR0, ARG)                               \
  if (!want.has(CPUD_FEATURE_##NAME)) {                                                             \
  } else if (KIND == CPUD_DETECT_GROUP) {                                                           \
    raw |= CPUD_BIT(NAME);                                                                          \
  } else if ((KIND == CPUD_DETECT_CPUID || KIND == CPUD_DETECT_CPUID_GE) &&                         \
             (KIND == CPUD_DETECT_CPUID ? ((c.get(LEAF, SUB).r[REG] >> (BIT)) & 1u)                 \
                                        : ((c.get(LEAF, SUB).r[REG] >> (BIT)) & 0xffu) >= (ARG)) && \
             (xcr0 & (XCR0)) == static_cast<std::uint64_t>(XCR0)) {                                 \
    if (((XCR0) & k_xtile) && amx < 0) amx = cpu.amx_permitted() ? 1 : 0;                           \
    if (!((XCR0) & k_xtile) || amx == 1) raw |= CPUD_BIT(NAME);                                     \
  }
  CPUD_FEATURES(CPUD__ROW)
#undef CPUD__ROW
  return raw;
}

}  // namespace

cpud_mask detect_raw_with(bool use_libc_cache, const cpud_mask &want) {
#ifdef CPUD_LIBC_CPUID_CACHE
  return detect(live_cpu{use_libc_cache}, want);
#else
  // No C library copy: nothing reads the flag (and GCC 12 warns of an
  // uninitialised object when a member nothing reads is passed along).
  (void)use_libc_cache;
  return detect(live_cpu{}, want);
#endif
}

cpud_mask detect_raw(const cpud_mask &want) { return detect_raw_with(true, want); }

cpud_mask detect_raw_from(const cpud_cpu_report &cpu, const cpud_mask &want, bool libc_copy, reading_cost *cost) {
  return detect(described_cpu{cpu, libc_copy, cost}, want);
}

int vector_feature() { return 0; }
int live_vector_bytes() { return 0; }

unsigned cpuid_count() { return __atomic_load_n(&g_cpuid_count, __ATOMIC_RELAXED); }

unsigned leaves_read() { return __atomic_load_n(&g_leaves_read, __ATOMIC_RELAXED); }
const char *leaf_name(int bit) { return bit >= 0 && bit < k_leaf_count ? k_leaves[bit].name : nullptr; }

bool libc_cpuid_copy() {
#ifdef CPUD_LIBC_CPUID_CACHE
  return true;
#else
  return false;
#endif
}

}  // namespace cpud::internal
