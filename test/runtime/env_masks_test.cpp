// The environment-mask rules, on the pure function (the CLI test runs the
// same rules through real environment variables and exit statuses).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <ostream>
#include <string>

#include "env_masks.h"

#if defined(CPUD_ARCH_X86_64)
using cpud::feature_set;

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
using cpud::internal::apply_env_masks;
using cpud::internal::env_inputs;

// The set's feature and every feature of a lower id (what `bit | (bit - 1)`
// gave, less bit 0, which is no feature).
feature_set below_and(const feature_set &bit) {
  feature_set s;
  for (int id = 1; id <= bit.highest(); ++id) s |= feature_set(id);
  return s;
}

env_inputs inputs(const char *dis, const char *en) {
  env_inputs in{};
  in.disable = dis;
  in.enable = en;
  in.usable = below_and(CPUD_BIT(X86_V3));  // a Haswell-class CPU
  in.baseline = CPUD_BIT(SSE) | CPUD_BIT(SSE2);
  in.dispatched = below_and(CPUD_BIT(AVX512_SPR)) & ~in.baseline;
  in.targets = CPUD_BIT(SSE42) | CPUD_BIT(X86_V3) | CPUD_BIT(AVX512_SKX) | CPUD_BIT(AVX512_SPR);
  return in;
}

TEST(EnvMasks, UnsetOrEmptyChangesNothing) {
  auto o = apply_env_masks(inputs(nullptr, ""));
  EXPECT_TRUE(o.ok);
  EXPECT_EQ(o.usable, inputs(nullptr, nullptr).usable);
  EXPECT_STREQ(o.warning, "");
}

TEST(EnvMasks, DisableRemovesTheFeatureAndEverythingImplyingIt) {
  auto o = apply_env_masks(inputs("avx", nullptr));
  ASSERT_TRUE(o.ok) << o.error;
  for (const feature_set &gone : {CPUD_BIT(AVX), CPUD_BIT(AVX2), CPUD_BIT(FMA3), CPUD_BIT(F16C), CPUD_BIT(X86_V3)})
    EXPECT_TRUE((o.usable & gone).empty());
  EXPECT_TRUE(cpud::feature_set(o.usable).has(CPUD_FEATURE_SSE42));
  EXPECT_TRUE(cpud::feature_set(o.usable).has(CPUD_FEATURE_X86_V2));
}

// Issue 15, finding 6: a group or level also turns off what it adds to its
// base (the table's adds_to), and what implies that. AVX512_SKX does not
// imply X86_V3, so "everything implying X86_V3" left it on.
TEST(EnvMasks, DisablingALevelTurnsOffWhatItAdds) {
  auto in = inputs("x86_v3", nullptr);
  in.usable = below_and(CPUD_BIT(AVX512_SPR));  // a Sapphire Rapids-class CPU
  auto o = apply_env_masks(in);
  ASSERT_TRUE(o.ok) << o.error;
  for (const feature_set &gone : {CPUD_BIT(X86_V3), CPUD_BIT(AVX), CPUD_BIT(F16C), CPUD_BIT(FMA3), CPUD_BIT(AVX2),
                                  CPUD_BIT(BMI), CPUD_BIT(BMI2), CPUD_BIT(LZCNT), CPUD_BIT(MOVBE), CPUD_BIT(AVX512F),
                                  CPUD_BIT(AVX512_SKX), CPUD_BIT(X86_V4), CPUD_BIT(AVX512_SPR), CPUD_BIT(VAES)})
    EXPECT_EQ(o.usable & gone, feature_set()) << "x86_v3 leaves on what an x86-64-v2 CPU lacks";
  for (const feature_set &kept : {CPUD_BIT(X86_V2), CPUD_BIT(SSE42), CPUD_BIT(AES), CPUD_BIT(PCLMULQDQ),
                                  CPUD_BIT(GFNI), CPUD_BIT(SHA)})
    EXPECT_EQ(o.usable & kept, kept) << "x86_v3 turns off what x86-64-v2 has";
  EXPECT_STREQ(o.warning, "") << "AVX512_SKX and AVX512_SPR are targets: x86_v3 changes something";

  in.disable = "x86_v4";
  o = apply_env_masks(in);
  ASSERT_TRUE(o.ok) << o.error;
  EXPECT_EQ(o.usable & (CPUD_BIT(AVX512F) | CPUD_BIT(AVX512_SKX) | CPUD_BIT(AVX512VNNI) | CPUD_BIT(AVX512_SPR)),
            feature_set());
  EXPECT_EQ(o.usable & CPUD_BIT(X86_V3), CPUD_BIT(X86_V3));
  in.disable = "avx512_skx";
  EXPECT_EQ(apply_env_masks(in).usable, o.usable) << "x86_v4 and avx512_skx both leave x86-64-v3";
  in.disable = "avx512_icl";
  o = apply_env_masks(in);
  EXPECT_EQ(o.usable & (CPUD_BIT(GFNI) | CPUD_BIT(AVX512VBMI2) | CPUD_BIT(AVX512_SPR)), feature_set());
  EXPECT_EQ(o.usable & (CPUD_BIT(AVX512_CLX) | CPUD_BIT(AVX512_CNL) | CPUD_BIT(AES)),
            CPUD_BIT(AVX512_CLX) | CPUD_BIT(AVX512_CNL) | CPUD_BIT(AES));
}

TEST(EnvMasks, DisablingAGroupWhoseAdditionIsBaselineIsAnError) {
  auto in = inputs("x86_v2", nullptr);
  in.baseline = CPUD_BIT(SSE) | CPUD_BIT(SSE2) | CPUD_BIT(SSE3);
  auto o = apply_env_masks(in);
  EXPECT_FALSE(o.ok);
  EXPECT_NE(std::string(o.error).find("cannot disable X86_V2: what it adds (SSE3) is part of this build's baseline "
                                      "(SSE SSE2 SSE3)"),
            std::string::npos)
      << o.error;
}

TEST(EnvMasks, NamesAreCaseInsensitiveWithAnySeparator) {
  auto a = apply_env_masks(inputs("AVX2,\tfma3  sse4.2", nullptr));
  auto b = apply_env_masks(inputs("avx2 FMA3,SSE42", nullptr));
  ASSERT_TRUE(a.ok) << a.error;
  EXPECT_EQ(a.usable, b.usable);
  EXPECT_FALSE(cpud::feature_set(a.usable).has(CPUD_FEATURE_SSE42));
}

TEST(EnvMasks, EnablingAGroupKeepsItsImpliedFeatures) {
  auto o = apply_env_masks(inputs(nullptr, "x86_v2"));
  ASSERT_TRUE(o.ok) << o.error;
  EXPECT_TRUE(cpud::feature_set(o.usable).has(CPUD_FEATURE_X86_V2));
  EXPECT_TRUE(cpud::feature_set(o.usable).has(CPUD_FEATURE_SSE42));
  EXPECT_TRUE(cpud::feature_set(o.usable).has(CPUD_FEATURE_CX16));
  EXPECT_FALSE(cpud::feature_set(o.usable).has(CPUD_FEATURE_AVX));
  EXPECT_TRUE(cpud::feature_set(o.usable).has(CPUD_FEATURE_SSE2)) << "the baseline stays";
}

TEST(EnvMasks, BothSetIsAnError) {
  auto o = apply_env_masks(inputs("avx2", "sse42"));
  EXPECT_FALSE(o.ok);
  EXPECT_NE(std::string(o.error).find("are both set"), std::string::npos) << o.error;
}

TEST(EnvMasks, OverlongValueIsAnError) {
  std::string v(1025, ' ');
  v.replace(0, 4, "avx2");
  auto o = apply_env_masks(inputs(v.c_str(), nullptr));
  EXPECT_FALSE(o.ok);
  EXPECT_NE(std::string(o.error).find("1025 bytes long; at most 1024"), std::string::npos) << o.error;
  std::string ok(1024, ',');
  EXPECT_TRUE(apply_env_masks(inputs(ok.c_str(), nullptr)).ok);
}

TEST(EnvMasks, UnknownNameIsAnErrorListingValidNames) {
  auto o = apply_env_masks(inputs("avx2 avx9000", nullptr));
  EXPECT_FALSE(o.ok);
  std::string e = o.error;
  EXPECT_NE(e.find("unknown CPU feature \"avx9000\""), std::string::npos) << e;
  EXPECT_NE(e.find("valid names on x86_64: SSE SSE2 SSE3"), std::string::npos) << e;
  std::string huge(200, 'x');
  EXPECT_FALSE(apply_env_masks(inputs(huge.c_str(), nullptr)).ok);
}

TEST(EnvMasks, OtherArchNamesAreIgnoredWithAWarning) {
  auto o = apply_env_masks(inputs("asimddp vsx3 avx2", nullptr));
  ASSERT_TRUE(o.ok) << o.error;
  EXPECT_NE(std::string(o.warning).find("\"asimddp\" is not a feature of x86_64; ignored"), std::string::npos);
  EXPECT_FALSE(cpud::feature_set(o.usable).has(CPUD_FEATURE_AVX2));
}

TEST(EnvMasks, DisablingABaselineFeatureIsAnError) {
  auto o = apply_env_masks(inputs("sse2", nullptr));
  EXPECT_FALSE(o.ok);
  EXPECT_NE(std::string(o.error).find("cannot disable SSE2: it is part of this build's baseline (SSE SSE2)"),
            std::string::npos)
      << o.error;
}

TEST(EnvMasks, EnablingWhatTheCpuLacksIsAnError) {
  auto o = apply_env_masks(inputs(nullptr, "avx512f"));
  EXPECT_FALSE(o.ok);
  EXPECT_NE(std::string(o.error).find("cannot enable AVX512F: this CPU (or its operating system) does not support it"),
            std::string::npos)
      << o.error;
}

TEST(EnvMasks, NameNotDispatchedIsAWarning) {
  auto in = inputs("avx2", nullptr);
  in.dispatched = CPUD_BIT(SSE42) | below_and(CPUD_BIT(POPCNT));
  auto o = apply_env_masks(in);
  ASSERT_TRUE(o.ok) << o.error;
  EXPECT_NE(std::string(o.warning).find("AVX2 is not a dispatch target of this build"), std::string::npos)
      << o.warning;
}

// With the program's records (in.compiled), the same comparison is with
// what its sources were compiled for, and the message says so.
TEST(EnvMasks, NameNotCompiledIsAWarningThatSaysWhatWasCompared) {
  auto in = inputs("avx2", nullptr);
  in.dispatched = CPUD_BIT(SSE42) | below_and(CPUD_BIT(POPCNT));
  in.compiled = 1;
  auto o = apply_env_masks(in);
  ASSERT_TRUE(o.ok) << o.error;
  EXPECT_NE(std::string(o.warning).find("AVX2 is not a target any dispatch source of this program was compiled "
                                        "for; it changes nothing"),
            std::string::npos)
      << o.warning;
  in.disable = "sse42";
  o = apply_env_masks(in);
  EXPECT_EQ(std::string(o.warning), "") << "SSE42 was compiled: DISABLE changes something";
}

TEST(EnvMasks, OnlySeparatorsIsUnset) {
  for (const char *v : {",", " ", "\t\n", " , \r\n"}) {
    auto o = apply_env_masks(inputs(v, nullptr));
    ASSERT_TRUE(o.ok) << o.error;
    EXPECT_EQ(o.usable, inputs(nullptr, nullptr).usable) << "DISABLE=\"" << v << "\"";
    EXPECT_STREQ(o.warning, "");
    auto e = apply_env_masks(inputs(nullptr, v));
    ASSERT_TRUE(e.ok) << e.error;
    EXPECT_EQ(e.usable, inputs(nullptr, nullptr).usable) << "ENABLE=\"" << v << "\" must not drop every target";
  }
  // Not "both set": a blank DISABLE beside a real ENABLE.
  auto both = apply_env_masks(inputs(" ", "sse42"));
  ASSERT_TRUE(both.ok) << both.error;
  EXPECT_FALSE(cpud::feature_set(both.usable).has(CPUD_FEATURE_AVX));
  EXPECT_TRUE(cpud::feature_set(both.usable).has(CPUD_FEATURE_SSE42));
}

TEST(EnvMasks, AValueOfIgnoredNamesOnlyChangesNothing) {
  // ENABLE=asimddp on x86: one setting for an arm64 fleet must not switch
  // every x86 target off.
  auto o = apply_env_masks(inputs(nullptr, "asimddp,avx512_knl"));
  ASSERT_TRUE(o.ok) << o.error;
  EXPECT_EQ(o.usable, inputs(nullptr, nullptr).usable);
  EXPECT_NE(std::string(o.warning).find("\"asimddp\" is not a feature of x86_64; ignored"), std::string::npos)
      << o.warning;
}

TEST(EnvMasks, RetiredNamesAreIgnoredWithAWarning) {
  auto o = apply_env_masks(inputs("avx512_knl AVX512_KNM avx2", nullptr));
  ASSERT_TRUE(o.ok) << o.error;
  EXPECT_NE(std::string(o.warning).find("\"avx512_knl\" is retired on x86_64"), std::string::npos) << o.warning;
  EXPECT_NE(std::string(o.warning).find("\"AVX512_KNM\" is retired on x86_64"), std::string::npos) << o.warning;
  EXPECT_FALSE(cpud::feature_set(o.usable).has(CPUD_FEATURE_AVX2)) << "the other names still apply";
  EXPECT_TRUE(cpud::feature_set(o.usable).has(CPUD_FEATURE_SSE42));
}

TEST(EnvMasks, EnablingANonTargetSaysWhichTargetsStay) {
  // A build whose only target is SSE42, on a CPU with everything: AVX2 is
  // no target, and ENABLE=avx2 keeps AVX2 and what it implies, so SSE42
  // stays. The warning says so, not "changes nothing".
  auto in = inputs(nullptr, "avx2");
  in.usable = below_and(CPUD_BIT(AVX512_SPR));
  in.targets = CPUD_BIT(SSE42);
  in.dispatched = below_and(CPUD_BIT(SSE42)) & ~in.baseline;
  auto o = apply_env_masks(in);
  ASSERT_TRUE(o.ok) << o.error;
  EXPECT_TRUE(cpud::feature_set(o.usable).has(CPUD_FEATURE_SSE42));
  EXPECT_FALSE(cpud::feature_set(o.usable).has(CPUD_FEATURE_AVX512F));
  EXPECT_NE(std::string(o.warning).find("AVX2 is not a dispatch target of this build; only the targets the names "
                                        "imply stay usable: SSE42"),
            std::string::npos)
      << o.warning;
  EXPECT_EQ(std::string(o.warning).find("changes nothing"), std::string::npos) << o.warning;
  // Only X86_V3 compiled; AVX512F does not imply BMI, so no target is left.
  in.enable = "avx512f";
  in.targets = CPUD_BIT(X86_V3);
  in.dispatched = below_and(CPUD_BIT(X86_V3)) & ~in.baseline & ~CPUD_BIT(AVX512F);
  auto n = apply_env_masks(in);
  ASSERT_TRUE(n.ok) << n.error;
  EXPECT_FALSE(cpud::feature_set(n.usable).has(CPUD_FEATURE_X86_V3));
  EXPECT_NE(std::string(n.warning).find("AVX512F is not a dispatch target of this build; only the targets the names "
                                        "imply stay usable: none (the baseline builds run)"),
            std::string::npos)
      << n.warning;
}

// Issue 15, finding 1: eleven warnings used to overflow the buffer, the
// last one cut mid-line and the rest dropped without a word. A name given
// again is warned about once; what does not fit is counted, in one line.
TEST(EnvMasks, RepeatedNamesWarnOnceAndNothingIsCutOff) {
  auto o = apply_env_masks(inputs("rvv rvv rvv rvv rvv rvv rvv rvv rvv rvv rvv", nullptr));
  ASSERT_TRUE(o.ok) << o.error;
  EXPECT_EQ(std::string(o.warning),
            std::string(CPUD_ENV_PREFIX "_DISABLE_CPU_FEATURES: \"rvv\" is not a feature of x86_64; ignored\n"));
  // Distinct ignored names than fit: every line whole, then the count.
  std::string many;
  for (const char *n : {"neon", "neon_fp16", "neon_vfpv4", "asimd", "asimdhp", "asimddp", "asimdfhm", "i8mm", "bf16",
                        "sve", "sve_i8mm", "sve_bf16", "sve2", "sve2_aes", "sve2_bitperm", "sve2_sha3", "sme", "vsx",
                        "vsx2", "vsx3", "vsx4", "vx", "vxe", "vxe2", "zba", "zbb", "zbs", "rvv"})
    many += std::string(n) + " ";
  auto m = apply_env_masks(inputs(many.c_str(), nullptr));
  ASSERT_TRUE(m.ok) << m.error;
  std::string w = m.warning;
  ASSERT_FALSE(w.empty());
  EXPECT_EQ(w.back(), '\n') << w;
  std::size_t lines = 0, pos = 0;
  for (std::size_t nl; (nl = w.find('\n', pos)) != std::string::npos; pos = nl + 1, ++lines)
    EXPECT_TRUE(w.compare(pos, std::strlen(CPUD_ENV_PREFIX), CPUD_ENV_PREFIX) == 0) << "a line cut: " << w.substr(pos);
  const std::size_t last = w.rfind('\n', w.size() - 2) + 1;
  const std::string tail = w.substr(last);
  unsigned more = 0;
  ASSERT_EQ(std::sscanf(tail.c_str(), CPUD_ENV_PREFIX "_DISABLE_CPU_FEATURES: %u more warnings not shown", &more), 1)
      << tail;
  EXPECT_EQ(lines - 1 + more, 28u) << w;
}

// Issue 15, finding 4: the unknown name is shown escaped (control bytes and
// non-ASCII as \xHH), cut only between whole bytes with its length given,
// and the length limit names its unit.
TEST(EnvMasks, UnknownNamesAreShownEscaped) {
  auto o = apply_env_masks(inputs("avx\x1b[31m", nullptr));
  ASSERT_FALSE(o.ok);
  EXPECT_NE(std::string(o.error).find("unknown CPU feature \"avx\\x1b[31m\""), std::string::npos) << o.error;
  EXPECT_EQ(std::string(o.error).find('\x1b'), std::string::npos) << o.error;
  std::string utf8 = "avx2\xc3\xa9";  // "avx2é"
  auto u = apply_env_masks(inputs(utf8.c_str(), nullptr));
  EXPECT_NE(std::string(u.error).find("\"avx2\\xc3\\xa9\""), std::string::npos) << u.error;
  std::string longname(100, 'x');
  auto l = apply_env_masks(inputs(longname.c_str(), nullptr));
  EXPECT_NE(std::string(l.error).find("\"" + std::string(48, 'x') + "...\" (100 bytes)"), std::string::npos)
      << l.error;
}

}  // namespace
#endif
