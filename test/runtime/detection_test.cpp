// Detection against oracles that do not use cpudispatch: /proc/cpuinfo (or
// $CPUD_TEST_CPU_FLAGS) together with, on x86, the test's own CPUID reader
// (cpu_oracle.h), and the compiler's __builtin_cpu_supports.
#include "cpudispatch/testing.h"
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
  if (!std::strcmp(CPUD_ARCH, "x86")) return &oracle::x86_32_rows();
  if (!std::strcmp(CPUD_ARCH, "aarch64")) return &oracle::aarch64_rows();
  if (!std::strcmp(CPUD_ARCH, "arm")) return &oracle::arm_rows();
  if (!std::strcmp(CPUD_ARCH, "ppc64le")) return &oracle::ppc64le_rows();
  if (!std::strcmp(CPUD_ARCH, "s390x")) return &oracle::s390x_rows();
  if (!std::strcmp(CPUD_ARCH, "riscv64")) return &oracle::riscv64_rows();
  return nullptr;
}

TEST(Detection, EveryFeatureMatchesTheOracle) {
  const auto *rows = rows_for_arch();
  bool found = false;
  const auto kernel = oracle::kernel_flags(&found);
  const auto have = oracle::cpu_flags();
  // Off x86 the oracle is CPUD_TEST_CPU_FLAGS (tools/qemu-matrix.py sets it
  // per emulated model); a native aarch64 /proc/cpuinfo works too, and a
  // 32-bit arm one that lists the 32-bit names (every armhf CPU has "vfp";
  // an aarch64 kernel shows them only to a PER_LINUX32 process).
  // 32-bit x86 under qemu-user: /proc/cpuinfo is the host's (cpu_oracle.h).
  bool usable_oracle = std::getenv("CPUD_TEST_CPU_FLAGS") || !std::strcmp(CPUD_ARCH, "x86_64") ||
                       (!std::strcmp(CPUD_ARCH, "x86") && !oracle::kernel_describes_another_cpu()) ||
                       (!std::strcmp(CPUD_ARCH, "aarch64") && have.count("asimd")) ||
                       (!std::strcmp(CPUD_ARCH, "arm") && have.count("vfp"));
  if (!rows || !found || !usable_oracle)
    GTEST_SKIP() << "no CPU-feature oracle for " << CPUD_ARCH
                 << " here (set CPUD_TEST_CPU_FLAGS under emulation)";
  ASSERT_EQ(rows->size(), static_cast<size_t>(CPUD_FEATURE_COUNT)) << "oracle and feature table disagree in size";
  const cpud::feature_set det = cpud_detected_mask();
  for (const auto &r : *rows) {
    int id = cpud_feature_by_name(r.feature);
    ASSERT_NE(id, 0) << r.feature;
    const bool expect = oracle::has_all(have, r.flags);
    EXPECT_EQ(det.has(id), expect) << r.feature << " (flags: " << r.flags << ")";
    // The rows the kernel's list alone would have got wrong, and why.
    if (expect && !oracle::has_all(kernel, r.flags)) {
      std::string unlisted;
      for (const auto &f : oracle::flags_of(r.flags))
        if (!kernel.count(f)) unlisted += (unlisted.empty() ? "" : " ") + f;
      std::printf("%s: the kernel lists no %s; the test's CPUID reader finds it\n", r.feature, unlisted.c_str());
    }
  }
}

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
TEST(Detection, AgreesWithBuiltinCpuSupports) {
  struct {
    const char *feature;
    bool supported;
  } rows[] = {
#if defined(__i386__)
      {"MMX", __builtin_cpu_supports("mmx") != 0},
#endif
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

#if defined(__x86_64__) || defined(__i386__)
// The distinct (leaf, subleaf) pairs the rows of `want` read.
unsigned table_leaves(const cpud::feature_set &want, bool outside_glibc_copy) {
  unsigned seen[64][2], n = 0;
  auto add = [&](unsigned l, unsigned s) {
    if (outside_glibc_copy && ((l == 1 && s == 0) || (l == 7 && s <= 1) || (l == 0x80000001u && s == 0))) return;
    for (unsigned i = 0; i < n; ++i)
      if (seen[i][0] == l && seen[i][1] == s) return;
    seen[n][0] = l, seen[n][1] = s, ++n;
  };
#define ROW(NAME, INTEREST, KIND, LEAF, SUB, REG, BIT, XCR0, ARG)                                        \
  if (want.has(CPUD_FEATURE_##NAME) && (KIND == CPUD_DETECT_CPUID || KIND == CPUD_DETECT_CPUID_GE)) { \
    add(1, 0); /* OSXSAVE, before XCR0 */                                                           \
    add(LEAF, SUB);                                                                                 \
    if ((LEAF) == 0x24) add(7, 1); /* the AVX10 bit says whether leaf 0x24 exists */                \
  }
  CPUD_FEATURES(ROW)
#undef ROW
  return n;
}

// The C library's copy of the leaves and the instruction agree, and each
// reading executes at most one CPUID per leaf the wanted rows name plus the
// maximum of each range. How many run on a given CPU and C library is a
// benchmark figure (bench/cpuid_count.cpp, docs/performance.md), not asserted.
TEST(Detection, LibcCpuidCopyAndCpuidInstructionAgree) {
  using namespace cpud::internal;
  for (const cpud::feature_set want : {cpud::feature_set(every_feature()), cpud::feature_set(startup_wanted())}) {
    unsigned before = cpuid_count();
    const cpud::feature_set via_libc = detect_raw_with(true, want);
    unsigned libc_cpuids = cpuid_count() - before;
    const cpud::feature_set via_cpuid = detect_raw_with(false, want);
    unsigned direct_cpuids = cpuid_count() - before - libc_cpuids;
    EXPECT_EQ(via_libc, via_cpuid);
    EXPECT_EQ(via_cpuid & ~want, cpud::feature_set()) << "a row outside the wanted set was set";
    EXPECT_LE(direct_cpuids, table_leaves(want, false) + 2);
    EXPECT_GE(direct_cpuids, 2u) << "leaf 1 and its range's maximum at least";
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
    EXPECT_LE(libc_cpuids, table_leaves(want, true) + 2) << "glibc's copy holds leaves 1, 7.0, 7.1, 0x80000001";
#endif
  }
}

// Start-up reads only the rows of the build's features; the first question
// about the others reads them all. A described CPU with the AVX10 bit and
// leaf 0x24 (version 2), counted the way this CPU's reading would execute
// CPUID, with and without a modelled glibc copy of leaves 1, 7.0, 7.1 and
// 0x80000001. Bits: SDM CPUID.(7,1):EDX[19] AVX10; CPUID.(24h,0):EBX[7:0]
// the version; CPUID.1:ECX[27] OSXSAVE, [28] AVX; 7.0:EBX[16] AVX512F.
TEST(Detection, OnlyTheWantedRowsAreRead) {
  using namespace cpud::internal;
  const cpud_cpuid_leaf leaves[] = {{0, 0, 0x24, 0, 0, 0},
                                    {1, 0, 0, 0, (1u << 27) | (1u << 28), 0},
                                    {7, 0, 1, 1u << 16, 0, 0},
                                    {7, 1, 0, 0, 0, 1u << 19},
                                    {0x24, 0, 0, 0x00070002, 0, 0},
                                    {0x80000000u, 0, 0x80000001u, 0, 0, 0},
                                    {0x80000001u, 0, 0, 0, 0, 0}};
  cpud_cpu_report r{};
  r.leaves = leaves;
  r.leaf_count = sizeof leaves / sizeof leaves[0];
  r.has_xcr0 = 1;
  r.xcr0 = 0xe7;
  auto count = [&](const cpud::feature_set &want, bool copy, cpud::feature_set *got = nullptr) {
    reading_cost c{};
    const cpud::feature_set raw = detect_raw_from(r, want, copy, &c);
    if (got) *got = raw;
    return c.cpuids;
  };
  const cpud::feature_set avx = CPUD_BIT(SSE) | CPUD_BIT(AVX), avx10_2 = CPUD_BIT(AVX10_2);
  cpud::feature_set got;
  EXPECT_EQ(count(avx, true, &got), 0u) << "leaf 1 is in glibc's copy";
  EXPECT_EQ(got, CPUD_BIT(AVX)) << "SSE: no bit in this description; nothing outside the wanted rows";
  EXPECT_EQ(count(avx, false), 2u) << "leaf 0 (the maximum), leaf 1";
  EXPECT_EQ(count(CPUD_BIT(AVX10_1), true, &got), 0u) << "AVX10_1 is the bit in leaf 7.1";
  EXPECT_EQ(got, CPUD_BIT(AVX10_1));
  EXPECT_EQ(count(avx10_2, true, &got), 2u) << "leaf 0x24 and leaf 0 for its maximum";
  EXPECT_EQ(got, avx10_2);
  EXPECT_EQ(count(every_feature(), false), 7u) << "leaves 0, 1, 7.0, 7.1, 0x24, 0x80000000, 0x80000001";
}
#endif

// AMX exists in 64-bit mode only (32-bit x86 has no AMX rows).
#if defined(__x86_64__)

// The kernel is asked for AMX's permission only when an AMX row is wanted,
// and once for all of them. SDM: CPUID.(7,0):EDX 22 AMX-BF16, 24 AMX-TILE,
// 25 AMX-INT8; XCR0 bits 17-18 the tile state.
TEST(Detection, AmxPermissionIsAskedOnlyForAWantedAmxRow) {
  using namespace cpud::internal;
  const cpud_cpuid_leaf leaves[] = {{0, 0, 0xd, 0, 0, 0},
                                    {1, 0, 0, 0, (1u << 27) | (1u << 28), 0},
                                    {7, 0, 0, 1u << 16, 0, (1u << 22) | (1u << 24) | (1u << 25)}};
  cpud_cpu_report r{};
  r.leaves = leaves;
  r.leaf_count = 3;
  r.has_xcr0 = 1;
  r.xcr0 = 0x600e7;
  auto asks = [&](const cpud::feature_set &want) {
    reading_cost c{};
    (void)detect_raw_from(r, want, true, &c);
    return c.kernel_asks;
  };
  EXPECT_EQ(asks(CPUD_BIT(AVX) | CPUD_BIT(AVX512F)), 0u);
  EXPECT_EQ(asks(CPUD_BIT(AMX_TILE)), 1u);
  EXPECT_EQ(asks(every_feature()), 1u);
  // Start-up's own set: asked exactly when the build has an AMX feature.
  const bool build_has_amx = feature_set(startup_wanted()).has(CPUD_FEATURE_AMX_TILE);
  EXPECT_EQ(asks(startup_wanted()), build_has_amx ? 1u : 0u);
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
