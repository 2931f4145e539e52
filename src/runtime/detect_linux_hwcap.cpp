// Detection through the kernel's hwcap words (aarch64, ppc64le, s390x,
// riscv64 on Linux): the kernel only reports what it also saves state for.
// getauxval() first; if it gives nothing (a C library without it, or a
// loader that did not pass the vector on), the same words from
// /proc/self/auxv.
//
// riscv64 asks riscv_hwprobe first (Linux >= 6.4): it names Zba/Zbb/Zbs,
// which have no hwcap bit, and its V bit means the ratified vector
// extension, while some kernels set hwcap's V for pre-standard vector units
// too. hwcap is the fallback where the call does not exist.
//
// One function reads this CPU's words and a described CPU's
// (cpud_detect_cpu) alike.
#include <fcntl.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
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

#if defined(__riscv)
// <asm/hwprobe.h> is newer than some sysroots: the ABI, from the kernel's
// uapi header.
struct riscv_hwprobe_pair {
  long long key;
  unsigned long long value;
};
constexpr long k_nr_riscv_hwprobe = 258;
constexpr long long k_key_ima_ext_0 = 4;

bool hwprobe_ima_ext_0(std::uint64_t &value) {
  riscv_hwprobe_pair p{k_key_ima_ext_0, 0};
  if (syscall(k_nr_riscv_hwprobe, &p, 1, 0, nullptr, 0) != 0 || p.key != k_key_ima_ext_0) return false;
  value = p.value;
  return true;
}
#endif

feature_set detect_words(const cpud_cpu_report &r) {
  const unsigned long hw[2] = {r.hwcap, r.hwcap2};
  feature_set raw;
#define CPUD__ROW(NAME, INTEREST, KIND, LEAF, SUB, REG, BIT, XCR0, ARG)                                  \
  if (KIND == CPUD_DETECT_GROUP ||                                                                     \
      ((KIND == CPUD_DETECT_HWCAP || KIND == CPUD_DETECT_HWCAP2) &&                                    \
       ((hw[KIND == CPUD_DETECT_HWCAP2] >> (BIT)) & 1ul)) ||                                           \
      (KIND == CPUD_DETECT_HWPROBE && r.has_hwprobe && (LEAF) == 4 &&                                  \
       ((r.hwprobe_ima_ext_0 >> (BIT)) & 1u)) ||                                                       \
      (KIND == CPUD_DETECT_HWPROBE && !r.has_hwprobe && (ARG) >= 0 && ((hw[0] >> ((ARG) & 63)) & 1ul)) || \
      (KIND == CPUD_DETECT_VECTOR_BYTES && r.vector_bytes == (BIT)))                                    \
    raw |= CPUD_BIT(NAME);
  CPUD_FEATURES(CPUD__ROW)
#undef CPUD__ROW
  return raw;
}

// The rows that ask for a vector length.
constexpr feature_set make_length_mask() {
  feature_set m;
#define CPUD__ROW(NAME, INTEREST, KIND, LEAF, SUB, REG, BIT, XCR0, ARG) \
  if (KIND == CPUD_DETECT_VECTOR_BYTES) m |= CPUD_BIT(NAME);
  CPUD_FEATURES(CPUD__ROW)
#undef CPUD__ROW
  return m;
}
constexpr feature_set k_length_mask = make_length_mask();

}  // namespace

cpud_mask detect_raw(const cpud_mask &want) {
  unsigned long hw[2] = {getauxval(AT_HWCAP), getauxval(AT_HWCAP2)};
  if (hw[0] == 0 && hw[1] == 0) read_proc_auxv(hw);
  cpud_cpu_report r{};
  r.hwcap = hw[0];
  r.hwcap2 = hw[1];
#if defined(__riscv)
  r.has_hwprobe = hwprobe_ima_ext_0(r.hwprobe_ima_ext_0);
#endif
  feature_set raw = detect_words(r) & feature_set(want);
  // The length is asked only where a wanted row needs it and the vectors
  // exist (one prctl): this thread's length, which threads it creates
  // inherit; a later PR_SVE_SET_VL is the caller's to avoid.
  if (vector_feature() && raw.has(vector_feature()) && !(feature_set(want) & k_length_mask).empty()) {
    r.vector_bytes = live_vector_bytes();
    raw = detect_words(r) & feature_set(want);
  }
  return raw;
}

cpud_mask detect_raw_from(const cpud_cpu_report &cpu, const cpud_mask &want, bool, reading_cost *) {
  return detect_words(cpu) & feature_set(want);
}

int vector_feature() {
#if defined(__aarch64__)
  return CPUD_FEATURE_SVE;
#elif defined(__riscv)
  return CPUD_FEATURE_RVV;
#else
  return 0;
#endif
}

int live_vector_bytes() {
#if defined(__aarch64__)
  // PR_SVE_GET_VL: the length in the low 16 bits (PR_SVE_VL_LEN_MASK), or
  // -1 (EINVAL) without SVE.
  const int get_vl = 51;
  int vl = prctl(get_vl, 0, 0, 0, 0);
  return vl < 0 ? 0 : (vl & 0xffff);
#elif defined(__riscv)
  // CSR vlenb (0xc22) by number: the runtime is built without V, and the
  // assembler only knows the name with it. Read only when V is usable
  // (cpud_vector_bytes asks first).
  unsigned long vlenb;
  __asm__ volatile("csrr %0, 0xc22" : "=r"(vlenb));
  return static_cast<int>(vlenb);
#else
  return 0;
#endif
}

unsigned cpuid_count() { return 0; }
bool libc_cpuid_copy() { return false; }
unsigned leaves_read() { return 0; }
const char *leaf_name(int) { return nullptr; }

}  // namespace cpud::internal
