// The environment-mask rules, on the pure function (the CLI test runs the
// same rules through real environment variables and exit statuses).
#include <gtest/gtest.h>

#include <string>

#include "env_masks.h"

#if defined(CPUD_ARCH_X86_64)
namespace {
using cpud::internal::apply_env_masks;
using cpud::internal::env_inputs;

std::uint64_t below_and(std::uint64_t bit) { return bit | (bit - 1); }

env_inputs inputs(const char *dis, const char *en) {
  env_inputs in{};
  in.disable = dis;
  in.enable = en;
  in.usable = below_and(CPUD_BIT(X86_V3));  // a Haswell-class CPU
  in.baseline = CPUD_BIT(SSE) | CPUD_BIT(SSE2);
  in.dispatched = below_and(CPUD_BIT(AVX512_SPR)) & ~in.baseline;
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
  for (std::uint64_t gone : {CPUD_BIT(AVX), CPUD_BIT(AVX2), CPUD_BIT(FMA3), CPUD_BIT(F16C), CPUD_BIT(X86_V3)})
    EXPECT_EQ(o.usable & gone, 0u);
  EXPECT_NE(o.usable & CPUD_BIT(SSE42), 0u);
  EXPECT_NE(o.usable & CPUD_BIT(X86_V2), 0u);
}

TEST(EnvMasks, NamesAreCaseInsensitiveWithAnySeparator) {
  auto a = apply_env_masks(inputs("AVX2,\tfma3  sse4.2", nullptr));
  auto b = apply_env_masks(inputs("avx2 FMA3,SSE42", nullptr));
  ASSERT_TRUE(a.ok) << a.error;
  EXPECT_EQ(a.usable, b.usable);
  EXPECT_EQ(a.usable & CPUD_BIT(SSE42), 0u);
}

TEST(EnvMasks, EnablingAGroupKeepsItsImpliedFeatures) {
  auto o = apply_env_masks(inputs(nullptr, "x86_v2"));
  ASSERT_TRUE(o.ok) << o.error;
  EXPECT_NE(o.usable & CPUD_BIT(X86_V2), 0u);
  EXPECT_NE(o.usable & CPUD_BIT(SSE42), 0u);
  EXPECT_NE(o.usable & CPUD_BIT(CX16), 0u);
  EXPECT_EQ(o.usable & CPUD_BIT(AVX), 0u);
  EXPECT_NE(o.usable & CPUD_BIT(SSE2), 0u) << "the baseline stays";
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
  EXPECT_NE(std::string(o.error).find("1025 characters long; at most 1024"), std::string::npos) << o.error;
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
  EXPECT_EQ(o.usable & CPUD_BIT(AVX2), 0u);
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

}  // namespace
#endif
