/* SPDX-License-Identifier: MIT */
/* Detection through the kernel's hwcap words (aarch64, 32-bit arm, ppc64le,
 * s390x, riscv64 on Linux): the kernel only reports what it also saves state
 * for. A 32-bit arm program gets the 32-bit kernel's words from an aarch64
 * kernel too (its compat hwcaps: the same bits).
 * getauxval() first; if it gives nothing (a C library without it, or a
 * loader that did not pass the vector on), the same words from
 * /proc/self/auxv.
 *
 * riscv64 asks riscv_hwprobe first (Linux >= 6.4): it names Zba/Zbb/Zbs,
 * which have no hwcap bit, and its V bit means the ratified vector
 * extension, while some kernels set hwcap's V for pre-standard vector units
 * too. hwcap is the fallback where the call does not exist.
 *
 * One function reads this CPU's words and a described CPU's
 * (cpud_detect_cpu) alike. */
/* dl_iterate_phdr, syscall: declared by glibc under C11 only with this. */
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "detect.h"
#include "no_cpuid.h"

#ifndef AT_HWCAP2
#define AT_HWCAP2 26
#endif

static void read_proc_auxv(unsigned long hw[2]) {
  int fd = open("/proc/self/auxv", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  unsigned long pair[2];
  while (read(fd, pair, sizeof pair) == (ssize_t)sizeof pair && pair[0] != AT_NULL) {
    if (pair[0] == AT_HWCAP) hw[0] = pair[1];
    if (pair[0] == AT_HWCAP2) hw[1] = pair[1];
  }
  close(fd);
}

#if defined(__riscv)
/* <asm/hwprobe.h> is newer than some sysroots: the ABI, from the kernel's
 * uapi header. */
struct riscv_hwprobe_pair {
  long long key;
  unsigned long long value;
};
#define NR_RISCV_HWPROBE 258
#define KEY_IMA_EXT_0 4

static int hwprobe_ima_ext_0(uint64_t *value) {
  struct riscv_hwprobe_pair p = {KEY_IMA_EXT_0, 0};
  if (syscall(NR_RISCV_HWPROBE, &p, 1, 0, NULL, 0) != 0 || p.key != KEY_IMA_EXT_0) return 0;
  *value = p.value;
  return 1;
}
#endif

static cpud_mask detect_words(const cpud_cpu_report *r) {
  const unsigned long hw[2] = {r->hwcap, r->hwcap2};
  cpud_mask raw = cpud_mask_none();
#define CPUD__ROW(NAME, INTEREST, KIND, LEAF, SUB, REG, BIT, XCR0, ARG)                                   \
  if (KIND == CPUD_DETECT_GROUP ||                                                                      \
      ((KIND == CPUD_DETECT_HWCAP || KIND == CPUD_DETECT_HWCAP2) &&                                     \
       ((hw[KIND == CPUD_DETECT_HWCAP2] >> (BIT)) & 1ul)) ||                                            \
      (KIND == CPUD_DETECT_HWPROBE && r->has_hwprobe && (LEAF) == 4 &&                                  \
       ((r->hwprobe_ima_ext_0 >> (BIT)) & 1u)) ||                                                       \
      (KIND == CPUD_DETECT_HWPROBE && !r->has_hwprobe && (ARG) >= 0 && ((hw[0] >> ((ARG) & 63)) & 1ul)) || \
      (KIND == CPUD_DETECT_VECTOR_BYTES && r->vector_bytes == (BIT)))                                    \
    raw = cpud_mask_with(raw, CPUD_FEATURE_##NAME);
  CPUD_FEATURES(CPUD__ROW)
#undef CPUD__ROW
  return raw;
}

/* The rows that ask for a vector length. */
static cpud_mask length_mask(void) {
  cpud_mask m = cpud_mask_none();
#define CPUD__ROW(NAME, INTEREST, KIND, LEAF, SUB, REG, BIT, XCR0, ARG) \
  if (KIND == CPUD_DETECT_VECTOR_BYTES) m = cpud_mask_with(m, CPUD_FEATURE_##NAME);
  CPUD_FEATURES(CPUD__ROW)
#undef CPUD__ROW
  return m;
}

cpud_mask cpud__detect_raw(cpud_mask want) {
  unsigned long hw[2] = {getauxval(AT_HWCAP), getauxval(AT_HWCAP2)};
  if (hw[0] == 0 && hw[1] == 0) read_proc_auxv(hw);
  cpud_cpu_report r;
  memset(&r, 0, sizeof r);
  r.hwcap = hw[0];
  r.hwcap2 = hw[1];
#if defined(__riscv)
  r.has_hwprobe = hwprobe_ima_ext_0(&r.hwprobe_ima_ext_0);
#endif
  cpud_mask raw = cpud_mask_and(detect_words(&r), want);
  /* The length is asked only where a wanted row needs it and the vectors
   * exist (one prctl): this thread's length, which threads it creates
   * inherit; a later PR_SVE_SET_VL is the caller's to avoid. */
  if (cpud__vector_feature() && cpud_mask_has(raw, cpud__vector_feature()) &&
      !cpud__mask_empty(cpud_mask_and(want, length_mask()))) {
    r.vector_bytes = cpud__live_vector_bytes();
    raw = cpud_mask_and(detect_words(&r), want);
  }
  return raw;
}

cpud_mask cpud__detect_raw_from(const cpud_cpu_report *cpu, cpud_mask want, int libc_copy,
                                cpud__reading_cost *cost) {
  (void)libc_copy, (void)cost;
  return cpud_mask_and(detect_words(cpu), want);
}

cpud_mask cpud__detect_raw_with(int use_libc_cache, cpud_mask want) {
  (void)use_libc_cache;
  return cpud__detect_raw(want);
}

int cpud__vector_feature(void) {
#if defined(__aarch64__)
  return CPUD_FEATURE_SVE;
#elif defined(__riscv)
  return CPUD_FEATURE_RVV;
#else
  return 0;
#endif
}

int cpud__live_vector_bytes(void) {
#if defined(__aarch64__)
  /* PR_SVE_GET_VL: the length in the low 16 bits (PR_SVE_VL_LEN_MASK), or
   * -1 (EINVAL) without SVE. */
  const int get_vl = 51;
  int vl = prctl(get_vl, 0, 0, 0, 0);
  return vl < 0 ? 0 : (vl & 0xffff);
#elif defined(__riscv)
  /* CSR vlenb (0xc22) by number: the runtime is built without V, and the
   * assembler only knows the name with it. Read only when V is usable
   * (cpud_vector_bytes asks first). */
  unsigned long vlenb;
  __asm__ volatile("csrr %0, 0xc22" : "=r"(vlenb));
  return (int)vlenb;
#else
  return 0;
#endif
}
