// Detection against oracles that do not use cpudispatch: /proc/cpuinfo (or
// $CPUD_TEST_CPU_FLAGS) and, on x86, the compiler's __builtin_cpu_supports.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <ostream>
#include <string>

#include "cpu_oracle.h"
#include "detect.h"
#include "cpudispatch/cpudispatch.h"

// Failure messages name the features of a set (gtest finds PrintTo by
// argument-dependent lookup through feature_set's base, cpud_mask). The same
// inline definition in each file of runtime_test.
inline void PrintTo(const cpud::feature_set &s, std::ostream *os) {
  *os << '{';
  for (int id = 1, n = 0; id <= CPUD_FEATURE_COUNT; ++id)
    if (s.has(id)) *os << (n++ ? " " : "") << cpud_feature_name(id);
  *os << '}';
}

namespace {

const std::vector<oracle::row> *rows_for_arch() {
  if (!std::strcmp(CPUD_ARCH, "x86_64")) return &oracle::x86_rows();
  if (!std::strcmp(CPUD_ARCH, "aarch64")) return &oracle::aarch64_rows();
  if (!std::strcmp(CPUD_ARCH, "ppc64le")) return &oracle::ppc64le_rows();
  if (!std::strcmp(CPUD_ARCH, "s390x")) return &oracle::s390x_rows();
  if (!std::strcmp(CPUD_ARCH, "riscv64")) return &oracle::riscv64_rows();
  return nullptr;
}

TEST(Detection, EveryFeatureMatchesProcCpuinfo) {
  const auto *rows = rows_for_arch();
  bool found = false;
  auto have = oracle::cpu_flags(&found);
  // Off x86 the oracle is CPUD_TEST_CPU_FLAGS (tools/qemu-matrix.py sets it
  // per emulated model); a native aarch64 /proc/cpuinfo works too.
  bool usable_oracle = std::getenv("CPUD_TEST_CPU_FLAGS") || !std::strcmp(CPUD_ARCH, "x86_64") ||
                       (!std::strcmp(CPUD_ARCH, "aarch64") && have.count("asimd"));
  if (!rows || !found || !usable_oracle)
    GTEST_SKIP() << "no CPU-feature oracle for " << CPUD_ARCH
                 << " here (set CPUD_TEST_CPU_FLAGS under emulation)";
  ASSERT_EQ(rows->size(), static_cast<size_t>(CPUD_FEATURE_COUNT)) << "oracle and feature table disagree in size";
  const cpud::feature_set det = cpud_detected_mask();
  for (const auto &r : *rows) {
    int id = cpud_feature_by_name(r.feature);
    ASSERT_NE(id, 0) << r.feature;
    EXPECT_EQ(det.has(id), oracle::has_all(have, r.flags))
        << r.feature << " (cpuinfo flags: " << r.flags << ")";
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
TEST(Detection, AgreesWithBuiltinCpuSupports) {
  struct {
    const char *feature;
    bool supported;
  } rows[] = {
      {"SSE", __builtin_cpu_supports("sse") != 0},         {"SSE2", __builtin_cpu_supports("sse2") != 0},
      {"SSE3", __builtin_cpu_supports("sse3") != 0},       {"SSSE3", __builtin_cpu_supports("ssse3") != 0},
      {"SSE41", __builtin_cpu_supports("sse4.1") != 0},    {"SSE42", __builtin_cpu_supports("sse4.2") != 0},
      {"AVX", __builtin_cpu_supports("avx") != 0},         {"AVX2", __builtin_cpu_supports("avx2") != 0},
      {"FMA3", __builtin_cpu_supports("fma") != 0},        {"BMI", __builtin_cpu_supports("bmi") != 0},
      {"BMI2", __builtin_cpu_supports("bmi2") != 0},       {"AVX512F", __builtin_cpu_supports("avx512f") != 0},
      {"AVX512CD", __builtin_cpu_supports("avx512cd") != 0}, {"AVX512BW", __builtin_cpu_supports("avx512bw") != 0},
      {"AVX512DQ", __builtin_cpu_supports("avx512dq") != 0}, {"AVX512VL", __builtin_cpu_supports("avx512vl") != 0},
      {"AVX512VNNI", __builtin_cpu_supports("avx512vnni") != 0},
      {"AVX512IFMA", __builtin_cpu_supports("avx512ifma") != 0},
      {"AVX512VBMI", __builtin_cpu_supports("avx512vbmi") != 0},
      {"AVX512VBMI2", __builtin_cpu_supports("avx512vbmi2") != 0},
      {"AVX512BITALG", __builtin_cpu_supports("avx512bitalg") != 0},
      {"AVX512VPOPCNTDQ", __builtin_cpu_supports("avx512vpopcntdq") != 0},
      {"POPCNT", __builtin_cpu_supports("popcnt") != 0},
  };
  const cpud::feature_set det = cpud_detected_mask();
  for (const auto &r : rows) {
    int id = cpud_feature_by_name(r.feature);
    ASSERT_NE(id, 0) << r.feature;
    // cpudispatch also requires what a feature implies (AVX512F needs AVX2
    // and FMA3), which real CPUs always pair; the builtin looks at one bit.
    EXPECT_EQ(det.has(id), r.supported) << r.feature;
  }
}
#endif

#if defined(__x86_64__)
TEST(Detection, LibcCpuidCopyAndCpuidInstructionAgree) {
  unsigned before = cpud::internal::cpuid_count();
  const cpud::feature_set via_libc = cpud::internal::detect_raw_with(true);
  unsigned libc_cpuids = cpud::internal::cpuid_count() - before;
  const cpud::feature_set via_cpuid = cpud::internal::detect_raw_with(false);
  unsigned direct_cpuids = cpud::internal::cpuid_count() - before - libc_cpuids;
  EXPECT_EQ(via_libc, via_cpuid);
  // Leaves 0, 1, 7.0, 7.1, 0x80000000, 0x80000001 at most.
  EXPECT_LE(direct_cpuids, 6u);
  EXPECT_GE(direct_cpuids, 4u);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  EXPECT_EQ(libc_cpuids, 0u) << "glibc already holds every leaf the x86 table uses";
#endif
}
#endif

TEST(Detection, GroupsAreTheConjunctionOfTheirMembers) {
  // Independently of the oracle: a feature is usable only with all it implies.
  const cpud::feature_set det = cpud_detected_mask();
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) {
    cpud::feature_set need;
#define ROW(NAME, F) \
  if (id == CPUD_FEATURE_##NAME) need |= CPUD_BIT(F);
    CPUD_FEATURE_IMPLIES(ROW)
#undef ROW
    if (det.has(id)) {
      EXPECT_EQ(det & need, need) << cpud_feature_name(id);
    }
  }
}

TEST(Detection, BaselineIsDetectedOnTheTestMachine) {
  const cpud::feature_set b = cpud_baseline_mask();
  EXPECT_EQ(cpud_detected_mask() & b, b);
  char msg[256] = "untouched";
  EXPECT_EQ(cpud_check_baseline(msg, sizeof msg), 0);
  EXPECT_STREQ(msg, "");
}

TEST(Names, LookupIsCaseInsensitiveAndKnowsAliases) {
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) {
    std::string n = cpud_feature_name(id), lower;
    for (char c : n) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    EXPECT_EQ(cpud_feature_by_name(n.c_str()), id);
    EXPECT_EQ(cpud_feature_by_name(lower.c_str()), id);
  }
  EXPECT_EQ(cpud_feature_by_name("no-such-feature"), 0);
  EXPECT_EQ(cpud_feature_by_name(""), 0);
  EXPECT_EQ(cpud_feature_name(0), nullptr);
  EXPECT_EQ(cpud_feature_name(CPUD_FEATURE_COUNT + 1), nullptr);
#if defined(CPUD_ARCH_X86_64)
  EXPECT_EQ(cpud_feature_by_name("sse4.1"), CPUD_FEATURE_SSE41);
  EXPECT_EQ(cpud_feature_by_name("Fma"), CPUD_FEATURE_FMA3);
  EXPECT_EQ(cpud_feature_by_name("x86-64-v3"), CPUD_FEATURE_X86_V3);
#endif
}

}  // namespace

#if defined(CPUD_ARCH_X86_64)
// AMX (docs/runtime.md): the CPUID bits, the tile state in XCR0 (bits 17
// TILECFG and 18 TILEDATA) and the kernel's permission, all three. Bits from
// Intel's SDM: CPUID.(7,0):EDX 22 AMX-BF16, 24 AMX-TILE, 25 AMX-INT8;
// CPUID.1:ECX 27 OSXSAVE. A described CPU, so this one's AMX does not matter.
TEST(Detection, AmxNeedsCpuidXcr0AndTheKernelsPermission) {
  const std::uint32_t amx_edx = (1u << 22) | (1u << 24) | (1u << 25);
  const cpud_cpuid_leaf with_amx[] = {
      {0, 0, 0xd, 0, 0, 0}, {1, 0, 0, 0, 1u << 27, 0}, {7, 0, 0, 0, 0, amx_edx}};
  const cpud_cpuid_leaf without_amx[] = {{0, 0, 0xd, 0, 0, 0}, {1, 0, 0, 0, 1u << 27, 0}, {7, 0, 0, 0, 0, 0}};
  const cpud::feature_set amx = CPUD_BIT(AMX_TILE) | CPUD_BIT(AMX_INT8) | CPUD_BIT(AMX_BF16);
  auto detect = [&](const cpud_cpuid_leaf *leaves, std::uint64_t xcr0, int denied) {
    cpud_cpu_report r{};
    r.leaves = leaves;
    r.leaf_count = 3;
    r.has_xcr0 = 1;
    r.xcr0 = xcr0;
    r.amx_denied = denied;
    return cpud::feature_set(cpud_detect_cpu(&r)) & amx;
  };
  EXPECT_EQ(detect(with_amx, 0x600e7, 0), amx) << "all three: AMX";
  EXPECT_EQ(detect(with_amx, 0x600e7, 1), cpud::feature_set()) << "the kernel refuses the tile state";
  EXPECT_EQ(detect(with_amx, 0xe7, 0), cpud::feature_set()) << "XCR0 without TILECFG/TILEDATA";
  EXPECT_EQ(detect(with_amx, 0x200e7, 0), cpud::feature_set()) << "XCR0 with TILEDATA only";
  EXPECT_EQ(detect(without_amx, 0x600e7, 0), cpud::feature_set()) << "no CPUID bits";
}
#endif
