// Test oracle: what the CPU has, from sources independent of cpudispatch:
// the flags the kernel lists in /proc/cpuinfo ("flags" on x86, "Features" on
// aarch64 and arm), or $CPUD_TEST_CPU_FLAGS when set (emulated CPUs under qemu-user,
// whose /proc/cpuinfo is the host's), and on x86 also the test's own CPUID
// reader (../cpuid_flags.h, written from the SDM): a kernel lists only the
// flags it knows, so a flag it does not list is no proof the CPU lacks it.
// The names of each feature in that vocabulary are spelled here, by hand,
// on purpose: not derived from the feature tables under test.
#ifndef CPUD_TEST_CPU_ORACLE_H_
#define CPUD_TEST_CPU_ORACLE_H_

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../cpuid_flags.h"

namespace oracle {

// What the kernel (or CPUD_TEST_CPU_FLAGS) lists, and nothing else.
inline std::set<std::string> kernel_flags(bool *found = nullptr) {
  std::set<std::string> out;
  std::string line;
  if (const char *env = std::getenv("CPUD_TEST_CPU_FLAGS")) {
    std::istringstream in(env);
    for (std::string w; in >> w;) out.insert(w);
    if (found) *found = true;
    return out;
  }
  std::ifstream f("/proc/cpuinfo");
  while (std::getline(f, line)) {
    if (line.rfind("flags", 0) == 0 || line.rfind("Features", 0) == 0) {
      std::istringstream in(line.substr(line.find(':') + 1));
      for (std::string w; in >> w;) out.insert(w);
      if (found) *found = true;
      break;
    }
  }
#if defined(__aarch64__)
  // The SVE vector length has no /proc/cpuinfo flag: the models' lines say
  // "sve_vl=BYTES"; on a real CPU the kernel's default length for new
  // processes stands in (what this process got, unless a parent changed it).
  if (out.count("sve")) {
    std::ifstream vl("/proc/sys/abi/sve_default_vector_length");
    int bytes = 0;
    if (vl >> bytes) out.insert("sve_vl=" + std::to_string(bytes));
  }
#endif
  return out;
}

// The flags the test's own CPUID reader finds (x86; empty elsewhere).
// Under qemu-user it reads the emulated model's CPUID.
inline std::set<std::string> cpuid_flags() {
  std::set<std::string> out;
#if defined(__x86_64__) || defined(__i386__)
  char buf[4096];
  oracle_live_flags(buf, sizeof buf);
  std::istringstream in(buf);
  for (std::string w; in >> w;) out.insert(w);
#endif
  return out;
}

inline std::set<std::string> flags_of(const char *text) {
  std::set<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.insert(w);
  return out;
}

// The oracle: a flag is there when the kernel lists it or CPUID shows it.
// (Some guests' kernels list no "abm" though the CPU runs LZCNT; Linux 6.18
// prints no AVX10 flag.) *found: whether the kernel's list was read.
inline std::set<std::string> cpu_flags(bool *found = nullptr) {
  std::set<std::string> out = kernel_flags(found);
  for (const std::string &f : cpuid_flags()) out.insert(f);
  return out;
}

// Whether the kernel's list describes another CPU than the one this program
// runs on: a 32-bit x86 program under qemu-user without CPUD_TEST_CPU_FLAGS,
// where /proc/cpuinfo is the host's and CPUID the emulated model's. A CPU
// whose kernel lists "lm" reports long mode in CPUID in every mode;
// qemu-i386's models never do.
inline bool kernel_describes_another_cpu() {
#if defined(__i386__)
  if (std::getenv("CPUD_TEST_CPU_FLAGS")) return false;
  return kernel_flags().count("lm") && !cpuid_flags().count("lm");
#else
  return false;
#endif
}

struct row {
  const char *feature;  // cpudispatch name
  const char *flags;    // every /proc/cpuinfo flag it needs
};

// x86_64, including the groups (spelled out as their members' flags).
#define ORACLE_V2 "cx16 lahf_lm popcnt pni ssse3 sse4_1 sse4_2 sse sse2"
#define ORACLE_V3 ORACLE_V2 " avx avx2 bmi1 bmi2 f16c fma abm movbe"
#define ORACLE_SKX "avx512f avx512cd avx512bw avx512dq avx512vl avx2 fma f16c avx sse4_2 popcnt"
#define ORACLE_CLX ORACLE_SKX " avx512_vnni"
#define ORACLE_CNL ORACLE_SKX " avx512ifma avx512vbmi"
#define ORACLE_ICL ORACLE_CLX " avx512ifma avx512vbmi avx512_vbmi2 avx512_bitalg avx512_vpopcntdq vaes gfni vpclmulqdq aes pclmulqdq"
inline const std::vector<row> &x86_rows() {
  static const std::vector<row> r = {
      {"SSE", "sse"}, {"SSE2", "sse2"}, {"SSE3", "pni"}, {"SSSE3", "ssse3"}, {"SSE41", "sse4_1"},
      {"POPCNT", "popcnt sse4_1"}, {"SSE42", "sse4_2 popcnt"}, {"CX16", "cx16"}, {"LAHF", "lahf_lm"},
      {"X86_V2", ORACLE_V2}, {"AES", "aes"}, {"PCLMULQDQ", "pclmulqdq"}, {"AVX", "avx sse4_2"},
      {"XOP", "xop avx"}, {"FMA4", "fma4 avx"}, {"F16C", "f16c avx"}, {"FMA3", "fma f16c avx"},
      {"AVX2", "avx2 f16c avx"}, {"BMI", "bmi1"}, {"BMI2", "bmi2 bmi1"}, {"LZCNT", "abm"}, {"MOVBE", "movbe"},
      {"X86_V3", ORACLE_V3}, {"GFNI", "gfni sse4_1"}, {"VAES", "vaes aes avx2"},
      {"VPCLMULQDQ", "vpclmulqdq pclmulqdq avx2"}, {"AVX512F", "avx512f avx2 fma"},
      {"AVX512CD", "avx512cd avx512f"}, {"AVX512BW", "avx512bw avx512f"}, {"AVX512DQ", "avx512dq avx512f"},
      {"AVX512VL", "avx512vl avx512f"}, {"AVX512_SKX", ORACLE_SKX}, {"X86_V4", ORACLE_V3 " " ORACLE_SKX},
      {"AVX512VNNI", "avx512_vnni avx512f"}, {"AVX512_CLX", ORACLE_CLX}, {"AVX512IFMA", "avx512ifma avx512f"},
      {"AVX512VBMI", "avx512vbmi avx512bw"}, {"AVX512_CNL", ORACLE_CNL},
      {"AVX512VBMI2", "avx512_vbmi2 avx512bw"}, {"AVX512BITALG", "avx512_bitalg avx512bw"},
      {"AVX512VPOPCNTDQ", "avx512_vpopcntdq avx512f"}, {"AVX512_ICL", ORACLE_ICL},
      {"AVX512BF16", "avx512_bf16 avx512bw"}, {"AVX512FP16", "avx512_fp16 avx512bw avx512dq avx512vl"},
      {"AVX512_SPR", ORACLE_ICL " avx512_bf16 avx512_fp16"},
      {"SHA", "sha_ni sse2"}, {"ADX", "adx"}, {"RDRND", "rdrand"}, {"RDSEED", "rdseed"},
      {"CMPCCXADD", "cmpccxadd"}, {"AVX_VNNI", "avx_vnni avx2 f16c avx"}, {"AVX_IFMA", "avx_ifma avx2 f16c avx"},
      {"AVX_VNNI_INT8", "avx_vnni_int8 avx2 f16c avx"}, {"AVX_VNNI_INT16", "avx_vnni_int16 avx2 f16c avx"},
      {"AVX_NE_CONVERT", "avx_ne_convert avx2 f16c avx"}, {"SHA512", "sha512 avx2 f16c avx"},
      {"SM3", "sm3 avx"}, {"SM4", "sm4 avx2 f16c avx"},
      {"AVX512_VP2INTERSECT", "avx512_vp2intersect avx512f avx2 fma"},
      // Linux (6.18) prints no AVX10 flag: "avx10_1" and "avx10_2" are
      // the CPUID reader's names (../cpuid_flags.h).
      {"AVX10_1", ORACLE_ICL " avx512_bf16 avx512_fp16 avx10_1"},
      {"AVX10_2", ORACLE_ICL " avx512_bf16 avx512_fp16 avx10_1 avx10_2"},
      {"AMX_TILE", "amx_tile"}, {"AMX_INT8", "amx_int8 amx_tile"}, {"AMX_BF16", "amx_bf16 amx_tile"},
      {"AMX_FP16", "amx_fp16 amx_tile"}, {"AMX_COMPLEX", "amx_complex amx_tile"}, {"APX_F", "apx"},
  };
  return r;
}

// 32-bit x86 (i686): the same CPUs, the same CPUID and kernel flags, less
// what exists in 64-bit mode only: CMPXCHG16B; LAHF/SAHF's bit, which
// reports them in 64-bit mode (32-bit mode always has them); the x86-64
// psABI levels, built on those two; CMPccXADD, AMX and APX (Intel SDM: #UD
// outside 64-bit mode). Plus MMX, which x86-64 has by definition.
inline const std::vector<row> &x86_32_rows() {
  static const std::vector<row> r = [] {
    const std::set<std::string> only_64bit = {"CX16",     "LAHF",     "X86_V2",   "X86_V3",      "X86_V4",
                                              "CMPCCXADD", "AMX_TILE", "AMX_INT8", "AMX_BF16",    "AMX_FP16",
                                              "AMX_COMPLEX", "APX_F"};
    std::vector<row> out = {{"MMX", "mmx"}};
    for (const row &x : x86_rows())
      if (!only_64bit.count(x.feature)) out.push_back(x);
    return out;
  }();
  return r;
}

// aarch64 (Linux "Features" names).
inline const std::vector<row> &aarch64_rows() {
  static const std::vector<row> r = {
      {"NEON", "asimd"}, {"NEON_FP16", "asimd"}, {"NEON_VFPV4", "asimd"}, {"ASIMD", "asimd"},
      {"ASIMDHP", "asimdhp asimd"}, {"ASIMDDP", "asimddp asimd"}, {"ASIMDFHM", "asimdfhm asimdhp"},
      {"SVE", "sve asimdhp"}, {"SVE2", "sve2 sve asimdhp"}, {"I8MM", "i8mm asimd"}, {"BF16", "bf16 asimd"},
      {"SVE_I8MM", "svei8mm i8mm sve asimdhp"}, {"SVE_BF16", "svebf16 bf16 sve asimdhp"},
      {"SVE2_AES", "sveaes sve2 sve asimdhp"}, {"SVE2_BITPERM", "svebitperm sve2 sve asimdhp"},
      {"SVE2_SHA3", "svesha3 sve2 sve asimdhp"}, {"SVE_256", "sve asimdhp sve_vl=32"},
      {"SME", "sme bf16 asimdhp"},
  };
  return r;
}

// 32-bit arm (Linux "Features" names of a 32-bit kernel, or of an aarch64
// kernel showing a 32-bit program's: the same words). The kernel lists no
// flag for NEON's half-precision conversion, which VFPv4 includes; Armv8
// shows itself in AArch32 only through AT_HWCAP2 (aes pmull sha1 sha2 crc32,
// Armv8 instructions all), and of those crc32 is in every Armv8-A core.
inline const std::vector<row> &arm_rows() {
  static const std::vector<row> r = {
      {"NEON", "neon"}, {"NEON_FP16", "neon vfpv4"}, {"NEON_VFPV4", "neon vfpv4"},
      {"ASIMD", "crc32 neon vfpv4"}, {"ASIMDHP", "asimdhp crc32 neon vfpv4"},
      {"ASIMDDP", "asimddp crc32 neon vfpv4"}, {"ASIMDFHM", "asimdfhm asimdhp crc32 neon vfpv4"},
  };
  return r;
}

// ppc64le, s390x, riscv64: the kernel's names for the hwcap bits (as
// LD_SHOW_AUXV and /proc/cpuinfo print them).
inline const std::vector<row> &ppc64le_rows() {
  static const std::vector<row> r = {
      {"VSX", "vsx"}, {"VSX2", "vsx arch_2_07"}, {"VSX3", "vsx arch_2_07 arch_3_00"},
      {"VSX4", "vsx arch_2_07 arch_3_00 arch_3_1"},
  };
  return r;
}
inline const std::vector<row> &s390x_rows() {
  static const std::vector<row> r = {{"VX", "vx"}, {"VXE", "vx vxe"}, {"VXE2", "vx vxe vxe2"}};
  return r;
}
inline const std::vector<row> &riscv64_rows() {
  // zba/zbb/zbs: reported by riscv_hwprobe only (src/run/qemu-models.txt).
  static const std::vector<row> r = {{"ZBA", "zba"}, {"ZBB", "zbb"}, {"ZBS", "zbs"}, {"RVV", "v"}};
  return r;
}

inline bool has_all(const std::set<std::string> &have, const char *flags) {
  std::istringstream in(flags);
  for (std::string w; in >> w;)
    if (!have.count(w)) return false;
  return true;
}

}  // namespace oracle

#endif
