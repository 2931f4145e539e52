/* Test oracle, x86: which CPU flags the CPU and its OS offer, in the Linux
 * kernel's /proc/cpuinfo spelling, read with the test's own CPUID reader.
 *
 * Written from Intel's SDM (vol. 2A, CPUID; vol. 1, ch. 13 for XCR0) and
 * AMD's APM, never from cpudispatch's tables: the tests compare cpudispatch's
 * detection with it. The kernel's list alone is no oracle: a kernel prints
 * only the flags it knows (Linux 6.18 prints no AVX10 flag, and some guests
 * list no "abm"), so "not listed" does not mean "not there". The tests take
 * a flag as present when the kernel lists it or this reader finds it.
 *
 * A flag of a feature whose instructions use AVX or AVX-512 registers also
 * needs the OS to save them (XCR0 bits 1-2, and 5-7 for AVX-512: the kernel
 * hides such flags too when it does not); AMX needs XCR0 bits 17-18 and the
 * kernel's permission; APX XCR0 bit 19.
 *
 * C, so that the C++ tests include it and test/cpuid_flags.c prints the
 * flags for the Python drivers (test/cpu_facts.py). */
#ifndef CPUD_TEST_CPUID_FLAGS_H_
#define CPUD_TEST_CPUID_FLAGS_H_

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Registers of CPUID(leaf, subleaf): r[0..3] = EAX EBX ECX EDX. */
typedef void (*oracle_cpuid_fn)(void *ctx, unsigned leaf, unsigned subleaf, unsigned r[4]);

struct oracle_bit {
  const char *flag; /* the kernel's name */
  unsigned leaf, subleaf, reg, bit;
  unsigned long long xcr0; /* OS state the instructions need */
};

enum { ORACLE_EAX, ORACLE_EBX, ORACLE_ECX, ORACLE_EDX };
#define ORACLE_YMM 0x6ull       /* SSE + AVX state */
#define ORACLE_ZMM 0xe6ull      /* + opmask, ZMM_Hi256, Hi16_ZMM */
#define ORACLE_TILE 0x60000ull  /* XTILECFG, XTILEDATA */
#define ORACLE_APX 0x80000ull   /* extended GPRs */

static const struct oracle_bit oracle_bits[] = {
    /* CPUID.1 */
    {"mmx", 1, 0, ORACLE_EDX, 23, 0},
    {"sse", 1, 0, ORACLE_EDX, 25, 0},
    {"sse2", 1, 0, ORACLE_EDX, 26, 0},
    {"pni", 1, 0, ORACLE_ECX, 0, 0},
    {"pclmulqdq", 1, 0, ORACLE_ECX, 1, 0},
    {"ssse3", 1, 0, ORACLE_ECX, 9, 0},
    {"fma", 1, 0, ORACLE_ECX, 12, ORACLE_YMM},
    {"cx16", 1, 0, ORACLE_ECX, 13, 0},
    {"sse4_1", 1, 0, ORACLE_ECX, 19, 0},
    {"sse4_2", 1, 0, ORACLE_ECX, 20, 0},
    {"movbe", 1, 0, ORACLE_ECX, 22, 0},
    {"popcnt", 1, 0, ORACLE_ECX, 23, 0},
    {"aes", 1, 0, ORACLE_ECX, 25, 0},
    {"avx", 1, 0, ORACLE_ECX, 28, ORACLE_YMM},
    {"f16c", 1, 0, ORACLE_ECX, 29, ORACLE_YMM},
    {"rdrand", 1, 0, ORACLE_ECX, 30, 0},
    /* CPUID.(7,0) */
    {"bmi1", 7, 0, ORACLE_EBX, 3, 0},
    {"avx2", 7, 0, ORACLE_EBX, 5, ORACLE_YMM},
    {"bmi2", 7, 0, ORACLE_EBX, 8, 0},
    {"avx512f", 7, 0, ORACLE_EBX, 16, ORACLE_ZMM},
    {"avx512dq", 7, 0, ORACLE_EBX, 17, ORACLE_ZMM},
    {"rdseed", 7, 0, ORACLE_EBX, 18, 0},
    {"adx", 7, 0, ORACLE_EBX, 19, 0},
    {"avx512ifma", 7, 0, ORACLE_EBX, 21, ORACLE_ZMM},
    {"avx512cd", 7, 0, ORACLE_EBX, 28, ORACLE_ZMM},
    {"sha_ni", 7, 0, ORACLE_EBX, 29, 0},
    {"avx512bw", 7, 0, ORACLE_EBX, 30, ORACLE_ZMM},
    {"avx512vl", 7, 0, ORACLE_EBX, 31, ORACLE_ZMM},
    {"avx512vbmi", 7, 0, ORACLE_ECX, 1, ORACLE_ZMM},
    {"avx512_vbmi2", 7, 0, ORACLE_ECX, 6, ORACLE_ZMM},
    {"gfni", 7, 0, ORACLE_ECX, 8, 0},
    {"vaes", 7, 0, ORACLE_ECX, 9, ORACLE_YMM},
    {"vpclmulqdq", 7, 0, ORACLE_ECX, 10, ORACLE_YMM},
    {"avx512_vnni", 7, 0, ORACLE_ECX, 11, ORACLE_ZMM},
    {"avx512_bitalg", 7, 0, ORACLE_ECX, 12, ORACLE_ZMM},
    {"avx512_vpopcntdq", 7, 0, ORACLE_ECX, 14, ORACLE_ZMM},
    {"avx512_vp2intersect", 7, 0, ORACLE_EDX, 8, ORACLE_ZMM},
    {"amx_bf16", 7, 0, ORACLE_EDX, 22, ORACLE_TILE},
    {"avx512_fp16", 7, 0, ORACLE_EDX, 23, ORACLE_ZMM},
    {"amx_tile", 7, 0, ORACLE_EDX, 24, ORACLE_TILE},
    {"amx_int8", 7, 0, ORACLE_EDX, 25, ORACLE_TILE},
    /* CPUID.(7,1) */
    {"sha512", 7, 1, ORACLE_EAX, 0, ORACLE_YMM},
    {"sm3", 7, 1, ORACLE_EAX, 1, ORACLE_YMM},
    {"sm4", 7, 1, ORACLE_EAX, 2, ORACLE_YMM},
    {"avx_vnni", 7, 1, ORACLE_EAX, 4, ORACLE_YMM},
    {"avx512_bf16", 7, 1, ORACLE_EAX, 5, ORACLE_ZMM},
    {"cmpccxadd", 7, 1, ORACLE_EAX, 7, 0},
    {"amx_fp16", 7, 1, ORACLE_EAX, 21, ORACLE_TILE},
    {"avx_ifma", 7, 1, ORACLE_EAX, 23, ORACLE_YMM},
    {"avx_vnni_int8", 7, 1, ORACLE_EDX, 4, ORACLE_YMM},
    {"avx_ne_convert", 7, 1, ORACLE_EDX, 5, ORACLE_YMM},
    {"amx_complex", 7, 1, ORACLE_EDX, 8, ORACLE_TILE},
    {"avx_vnni_int16", 7, 1, ORACLE_EDX, 10, ORACLE_YMM},
    /* AVX10: the bit means version 1 or later (SDM: "AVX10 Converged
     * Vector ISA"); "avx10_1" is this oracle's name, no kernel prints it. */
    {"avx10_1", 7, 1, ORACLE_EDX, 19, ORACLE_ZMM},
    {"apx", 7, 1, ORACLE_EDX, 21, ORACLE_APX},
    /* CPUID.80000001h (AMD's APM; Intel has LAHF and LZCNT too). "lm":
     * long mode, which CPUID reports in every mode (a 32-bit program on a
     * 64-bit CPU sees it; qemu-i386's models clear it). */
    {"lm", 0x80000001u, 0, ORACLE_EDX, 29, 0},
    {"lahf_lm", 0x80000001u, 0, ORACLE_ECX, 0, 0},
    {"abm", 0x80000001u, 0, ORACLE_ECX, 5, 0},
    {"xop", 0x80000001u, 0, ORACLE_ECX, 11, ORACLE_YMM},
    {"fma4", 0x80000001u, 0, ORACLE_ECX, 16, ORACLE_YMM},
};

/* Writes the flags, space-separated, into buf. xcr0: the OS-enabled state
 * (used only when CPUID.1:ECX.OSXSAVE[27] is set); amx_permitted: whether
 * the OS lets this process use tile data. Leaves above the maximum of their
 * range read as zero (CPUID returns another leaf's data there). Returns the
 * number of flags. */
static inline int oracle_cpuid_flags(oracle_cpuid_fn cpuid, void *ctx, unsigned long long xcr0, int amx_permitted,
                                     char *buf, size_t cap) {
  unsigned max_basic[4], max_ext[4], r[4], l1[4];
  size_t used = 0, i;
  int n = 0;
  buf[0] = 0;
  cpuid(ctx, 0, 0, max_basic);
  cpuid(ctx, 0x80000000u, 0, max_ext);
  cpuid(ctx, 1, 0, l1);
  if (!((l1[ORACLE_ECX] >> 27) & 1u)) xcr0 = 0; /* no OSXSAVE: no extended state */
  for (i = 0; i < sizeof oracle_bits / sizeof oracle_bits[0]; ++i) {
    const struct oracle_bit *b = &oracle_bits[i];
    unsigned max = b->leaf >= 0x80000000u ? max_ext[0] : max_basic[0];
    int w;
    if (b->leaf > max) continue;
    cpuid(ctx, b->leaf, b->subleaf, r);
    if (!((r[b->reg] >> b->bit) & 1u) || (xcr0 & b->xcr0) != b->xcr0) continue;
    if (b->xcr0 == ORACLE_TILE && !amx_permitted) continue;
    w = snprintf(buf + used, cap - used, "%s%s", used ? " " : "", b->flag);
    if (w < 0 || (size_t)w >= cap - used) break;
    used += (size_t)w;
    ++n;
  }
  /* AVX10.2 and later: CPUID.(24h,0):EBX[7:0] is the version; the leaf is
   * valid when the AVX10 bit is set. */
  cpuid(ctx, 7, 0, r);
  if (max_basic[0] >= 0x24 && r[0] >= 1) {
    unsigned v[4];
    cpuid(ctx, 7, 1, r);
    cpuid(ctx, 0x24, 0, v);
    if (((r[ORACLE_EDX] >> 19) & 1u) && (v[ORACLE_EBX] & 0xffu) >= 2 && (xcr0 & ORACLE_ZMM) == ORACLE_ZMM &&
        used + 9 < cap) {
      snprintf(buf + used, cap - used, "%savx10_2", used ? " " : "");
      ++n;
    }
  }
  return n;
}

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

static inline void oracle_live_cpuid(void *ctx, unsigned leaf, unsigned subleaf, unsigned r[4]) {
  (void)ctx;
  __cpuid_count(leaf, subleaf, r[0], r[1], r[2], r[3]);
}

/* This CPU and OS. */
static inline int oracle_live_flags(char *buf, size_t cap) {
  unsigned r[4];
  unsigned long long xcr0 = 0;
  int amx = 1;
  oracle_live_cpuid(NULL, 1, 0, r);
  if ((r[ORACLE_ECX] >> 27) & 1u) {
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    xcr0 = ((unsigned long long)hi << 32) | lo;
  }
#if defined(__linux__) && defined(SYS_arch_prctl)
  /* Linux gives tile data only to a process that asks
   * (ARCH_REQ_XCOMP_PERM 0x1023, XFEATURE_XTILEDATA 18). */
  amx = syscall(SYS_arch_prctl, 0x1023, 18) == 0;
#endif
  return oracle_cpuid_flags(oracle_live_cpuid, NULL, xcr0, amx, buf, cap);
}
#endif

#endif
