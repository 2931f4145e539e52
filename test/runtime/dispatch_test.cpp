// Selection: the dispatcher picks the highest-interest usable target, caches
// it, registers itself, and re-selects under a scoped feature override.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cpu_oracle.h"
#include "detect.h"
#include "kernels.h"

namespace {

template <class D>
bool compiled(const D &d, const char *target) {
  for (auto *e = d.targets(); e->fn; ++e)
    if (!std::strcmp(e->name, target)) return true;
  return false;
}

template <class D>
std::string expected_by_walk(const D &d) {
  for (auto *e = d.targets(); e->fn; ++e)
    if (D::usable(*e)) return e->name;
  return "none";
}

TEST(Dispatch, SelectsTheHighestUsableTarget) {
  EXPECT_EQ(cpud_demo_sum_f32.selected_name(), expected_by_walk(cpud_demo_sum_f32));
  EXPECT_EQ(cpud_demo_sum_f32.get(), cpud_demo_sum_f32.get());
}

#if defined(CPUD_ARCH_X86_64)
TEST(Dispatch, X86SelectionMatchesTheCpuinfoOracle) {
  bool found = false;
  auto have = oracle::cpu_flags(&found);
  if (!found) GTEST_SKIP() << "no /proc/cpuinfo";
  // The demo kernels ask for baseline SSE42 X86_V3 AVX512_SKX; a build whose
  // baseline covers some of them compiles only the rest.
  const auto &d = cpud_demo_dot_f32;
  std::string want = "baseline";
  if (compiled(d, "SSE42") && oracle::has_all(have, "sse4_2 popcnt sse4_1 ssse3 pni")) want = "SSE42";
  if (compiled(d, "X86_V3") && oracle::has_all(have, ORACLE_V3)) want = "X86_V3";
  if (compiled(d, "AVX512_SKX") && oracle::has_all(have, ORACLE_SKX)) want = "AVX512_SKX";
  // Environment masks may legitimately lower it (the isa suite sets them).
  if (std::getenv("CPUDISPATCH_DISABLE_CPU_FEATURES") || std::getenv("CPUDISPATCH_ENABLE_CPU_FEATURES"))
    GTEST_SKIP() << "masked by the environment";
  EXPECT_EQ(std::string(cpud_demo_dot_f32.selected_name()), want);
}

TEST(Dispatch, ScopedFeaturesReselectsAndRestores) {
  const std::string before = cpud_demo_count_u8.selected_name();
  (void)cpud_demo_count_u8.get();  // registered
  {
    cpud::scoped_features only_v3(CPUD_BIT(X86_V3) | (CPUD_BIT(X86_V3) - 1));
    std::string inside = cpud_demo_count_u8.selected_name();
    EXPECT_NE(inside, "AVX512_SKX");
    EXPECT_FALSE(cpud_have(CPUD_FEATURE_AVX512F));
    if ((cpud_detected_mask() & CPUD_BIT(X86_V3)) && compiled(cpud_demo_count_u8, "X86_V3")) {
      EXPECT_EQ(inside, "X86_V3");
    }
    // The cached pointer was dropped: the next call selects under the mask.
    std::uint8_t buf[100] = {};
    EXPECT_EQ(cpud_demo_count_u8(buf, 100, 0), 100u);
    const cpud_function *f = cpud_functions();
    for (; f && std::strcmp(f->name, "cpud_demo_count_u8"); f = f->next) {
    }
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(std::string(f->target_name(f->selected())), inside);
    {
      cpud::scoped_features baseline_only(0);
      EXPECT_EQ(std::string(cpud_demo_count_u8.selected_name()), "baseline");
      EXPECT_EQ(cpud_demo_count_u8(buf, 100, 0), 100u);
      EXPECT_EQ(std::string(f->target_name(f->selected())), "baseline");
    }
  }
  EXPECT_EQ(std::string(cpud_demo_count_u8.selected_name()), before);
}
#endif

// One rule for C and C++: a target is usable when every feature it needs is.
// The C macros test each feature the target needs; the C++ dispatcher tests
// the target's own bit; they agree because every usable mask is closed over
// implied features. Masks here are every "all but one feature", every
// "one feature without one of its implied features" (unclosed on purpose),
// and pseudo-random ones.
template <class D, class C>
void expect_same_pick(const D &d, C c_pick, std::uint64_t mask) {
  cpud::scoped_features only(mask);
  const std::uint64_t m = cpud_usable_mask();
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) {
    std::uint64_t need = cpud::internal::implied_mask(id);
    if ((m >> id) & 1u) {
      EXPECT_EQ(m & need, need) << cpud_feature_name(id) << " usable without all it implies";
    }
  }
  void *cxx = reinterpret_cast<void *>(d.get());
  void *c = reinterpret_cast<void *>(c_pick());
  EXPECT_EQ(c, cxx) << d.name() << " under mask 0x" << std::hex << mask << ": C++ picked " << d.selected_name();
}

TEST(Dispatch, CAndCxxPickTheSameTargetUnderEveryMask) {
  const std::uint64_t all = cpud_detected_mask();
  std::vector<std::uint64_t> masks = {0, all, ~UINT64_C(0)};
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) {
    masks.push_back(all & ~(UINT64_C(1) << id));
    std::uint64_t need = cpud::internal::implied_mask(id);
    for (int j = 1; j <= CPUD_FEATURE_COUNT; ++j)
      if ((need >> j) & 1u) masks.push_back((all | (UINT64_C(1) << id)) & ~(UINT64_C(1) << j));
  }
  std::uint64_t x = 0x9e3779b97f4a7c15u;
  for (int i = 0; i < 300; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    masks.push_back(x & all);
  }
  for (std::uint64_t mask : masks) {
    expect_same_pick(cpud_demo_sum_f32, [] { return CPUD_DISPATCH_SELECT(cpud_demo_sum_f32); }, mask);
    expect_same_pick(cpud_demo_dot_f32, [] { return CPUD_DISPATCH_SELECT(cpud_demo_dot_f32); }, mask);
    expect_same_pick(cpud_demo_count_u8, [] { return CPUD_DISPATCH_SELECT(cpud_demo_count_u8); }, mask);
    if (HasFailure()) break;
  }
}

#if defined(CPUD_ARCH_X86_64)
// The case that once split them: X86_V3's own bit on, one of its members off.
TEST(Dispatch, ALevelWithoutOneMemberIsNotUsable) {
  if (!(cpud_detected_mask() & CPUD_BIT(X86_V3))) GTEST_SKIP() << "this CPU lacks X86_V3";
  if (cpud_baseline_mask() & CPUD_BIT(BMI)) GTEST_SKIP() << "BMI is in the baseline: it cannot be masked";
  cpud::scoped_features no_bmi(cpud_detected_mask() & ~CPUD_BIT(BMI) & ~CPUD_BIT(AVX512F));
  EXPECT_FALSE(CPUD_HAVE(X86_V3));
  EXPECT_STRNE(cpud_demo_sum_f32.selected_name(), "X86_V3");
  EXPECT_EQ(reinterpret_cast<void *>(CPUD_DISPATCH_SELECT(cpud_demo_sum_f32)),
            reinterpret_cast<void *>(cpud_demo_sum_f32.get()));
}
#endif

TEST(Dispatch, OverrideNeverEnablesWhatTheCpuLacks) {
  cpud::scoped_features all(~UINT64_C(0));
  EXPECT_EQ(cpud_usable_mask() & ~UINT64_C(1) & ~cpud_detected_mask(), 0u);
}

TEST(Dispatch, RegistryListsCompiledTargetsHighestFirst) {
  (void)cpud_demo_sum_f32.get();
  const cpud_function *f = cpud_functions();
  for (; f && std::strcmp(f->name, "cpud_demo_sum_f32"); f = f->next) {
  }
  ASSERT_NE(f, nullptr);
  ASSERT_GE(f->target_count(), 1);
  EXPECT_STREQ(f->target_name(f->target_count() - 1), "baseline");
  for (int i = 1; i < f->target_count() - 1; ++i)
    EXPECT_GT(f->target_feature(i - 1), f->target_feature(i)) << "ids ascend with interest";
}

}  // namespace
