// Selection: the dispatcher picks the highest-interest usable target, caches
// it, registers itself, and re-selects under a scoped feature override.
#include "cpudispatch/functions.h"
#include "cpudispatch/testing.h"
#include <gtest/gtest.h>

#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "cpu_oracle.h"
#include "detect.h"
#include "kernels.h"

// Failure messages name the features of a set (gtest finds PrintTo by
// argument-dependent lookup through feature_set's base, cpud_mask). The same
// inline definition in each file of runtime_test.
inline void PrintTo(const cpud::feature_set &s, std::ostream *os) {
  *os << '{';
  for (int id = 1, n = 0; id <= CPUD_FEATURE_COUNT; ++id)
    if (s.has(id)) *os << (n++ ? " " : "") << cpud_feature_name(id);
  *os << '}';
}

using cpud::feature_set;

namespace {

// A set's feature names, for messages.
std::string names(const feature_set &s) {
  std::string out = "{";
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id)
    if (s.has(id)) out += std::string(out.size() > 1 ? " " : "") + cpud_feature_name(id);
  return out + "}";
}

// Feature ids 1..id (what `bit | (bit - 1)` gave, less bit 0); used by the
// x86-only test below.
[[maybe_unused]] feature_set up_to(int id) {
  feature_set s;
  for (int i = 1; i <= id; ++i) s |= feature_set(i);
  return s;
}

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
    cpud::scoped_features only_v3(up_to(CPUD_FEATURE_X86_V3));
    std::string inside = cpud_demo_count_u8.selected_name();
    EXPECT_NE(inside, "AVX512_SKX");
    EXPECT_FALSE(cpud_have(CPUD_FEATURE_AVX512F));
    if (feature_set(cpud_detected_mask()).has(CPUD_FEATURE_X86_V3) && compiled(cpud_demo_count_u8, "X86_V3")) {
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
      cpud::scoped_features baseline_only(feature_set{});
      EXPECT_EQ(std::string(cpud_demo_count_u8.selected_name()), "baseline");
      EXPECT_EQ(cpud_demo_count_u8(buf, 100, 0), 100u);
      EXPECT_EQ(std::string(f->target_name(f->selected())), "baseline");
    }
  }
  EXPECT_EQ(std::string(cpud_demo_count_u8.selected_name()), before);
}
#endif

#if defined(CPUD_ARCH_X86)
// 32-bit x86: the demo kernels' targets there are SSE2 (a dispatch target
// on i686, whose baseline has no SSE), SSE42 and AVX512_SKX (X86_V3 is
// x86-64's: ignored). Each needs what the CPU generations that have it have.
TEST(Dispatch, X86_32SelectionMatchesTheCpuinfoOracle) {
  bool found = false;
  auto have = oracle::cpu_flags(&found);
  if (!found || oracle::kernel_describes_another_cpu())
    GTEST_SKIP() << "no oracle for this CPU here (under qemu-user: set CPUD_TEST_CPU_FLAGS)";
  if (std::getenv("CPUDISPATCH_DISABLE_CPU_FEATURES") || std::getenv("CPUDISPATCH_ENABLE_CPU_FEATURES"))
    GTEST_SKIP() << "masked by the environment";
  const auto &d = cpud_demo_dot_f32;
  std::string want = "baseline";
  if (compiled(d, "SSE2") && oracle::has_all(have, "sse2 sse mmx")) want = "SSE2";
  if (compiled(d, "SSE42") && oracle::has_all(have, "sse4_2 popcnt sse4_1 ssse3 pni sse2 sse mmx")) want = "SSE42";
  if (compiled(d, "AVX512_SKX") && oracle::has_all(have, ORACLE_SKX)) want = "AVX512_SKX";
  EXPECT_EQ(std::string(cpud_demo_dot_f32.selected_name()), want);
}
#endif

// One rule for C and C++: a target is usable when every feature it needs is.
// The C macros test each feature the target needs; the C++ dispatcher tests
// the target's own bit; they agree because every usable mask is closed over
// implied features. Masks here are every "all but one feature", every
// "one feature without one of its implied features" (unclosed on purpose),
// and pseudo-random ones.
template <class D, class C>
void expect_same_pick(const D &d, C c_pick, const feature_set &mask) {
  cpud::scoped_features only(mask);
  const feature_set m = cpud_usable_mask();
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) {
    const feature_set need = cpud::internal::implied_mask(id);
    if (m.has(id)) {
      EXPECT_EQ(m & need, need) << cpud_feature_name(id) << " usable without all it implies";
    }
  }
  void *cxx = reinterpret_cast<void *>(d.get());
  void *c = reinterpret_cast<void *>(c_pick());
  EXPECT_EQ(c, cxx) << d.name() << " under mask " << names(mask) << ": C++ picked " << d.selected_name();
}

TEST(Dispatch, CAndCxxPickTheSameTargetUnderEveryMask) {
  const feature_set all = cpud_detected_mask();
  std::vector<feature_set> masks = {feature_set{}, all, feature_set::all()};
  for (int id = 1; id <= CPUD_FEATURE_COUNT; ++id) {
    masks.push_back(all & ~feature_set(id));
    const feature_set need = cpud::internal::implied_mask(id);
    for (int j = 1; j <= CPUD_FEATURE_COUNT; ++j)
      if (need.has(j)) masks.push_back((all | feature_set(id)) & ~feature_set(j));
  }
  // Pseudo-random subsets of the detected features: a random bit per
  // feature id, every word of the set drawn.
  std::uint64_t x = 0x9e3779b97f4a7c15u;
  for (int i = 0; i < 300; ++i) {
    feature_set r;
    for (std::uint64_t &w : r.w) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      w = x;
    }
    masks.push_back(r & all);
  }
  for (const feature_set &mask : masks) {
    expect_same_pick(cpud_demo_sum_f32, [] { return CPUD_DISPATCH_SELECT(cpud_demo_sum_f32); }, mask);
    expect_same_pick(cpud_demo_dot_f32, [] { return CPUD_DISPATCH_SELECT(cpud_demo_dot_f32); }, mask);
    expect_same_pick(cpud_demo_count_u8, [] { return CPUD_DISPATCH_SELECT(cpud_demo_count_u8); }, mask);
    if (HasFailure()) break;
  }
}

#if defined(CPUD_ARCH_X86_64)
// The case that once split them: X86_V3's own bit on, one of its members off.
TEST(Dispatch, ALevelWithoutOneMemberIsNotUsable) {
  if (!feature_set(cpud_detected_mask()).has(CPUD_FEATURE_X86_V3)) GTEST_SKIP() << "this CPU lacks X86_V3";
  if (feature_set(cpud_baseline_mask()).has(CPUD_FEATURE_BMI))
    GTEST_SKIP() << "BMI is in the baseline: it cannot be masked";
  cpud::scoped_features no_bmi(cpud_detected_mask() & ~CPUD_BIT(BMI) & ~CPUD_BIT(AVX512F));
  EXPECT_FALSE(CPUD_HAVE(X86_V3));
  EXPECT_STRNE(cpud_demo_sum_f32.selected_name(), "X86_V3");
  EXPECT_EQ(reinterpret_cast<void *>(CPUD_DISPATCH_SELECT(cpud_demo_sum_f32)),
            reinterpret_cast<void *>(cpud_demo_sum_f32.get()));
}
#endif

TEST(Dispatch, OverrideNeverEnablesWhatTheCpuLacks) {
  cpud::scoped_features all(feature_set::all());
  // Word by word, every bit: the usable set no longer carries bit 0 either.
  const cpud_mask usable = cpud_usable_mask(), detected = cpud_detected_mask();
  for (int i = 0; i < CPUD_MASK_WORDS; ++i)
    EXPECT_EQ(usable.w[i] & ~detected.w[i], 0u) << "word " << i;
  EXPECT_EQ(cpud_have(0), 0);
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
