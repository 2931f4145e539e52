// The C++ dispatcher with group targets, on a table written by hand the way
// CPUD_DISPATCH writes one (dispatch.hpp): two groups, each followed by its
// highest member alone (the same key), and a target between them. The fake
// targets return their names, so any selection may be called on any CPU.
#include "cpudispatch/functions.h"
#include "cpudispatch/testing.h"
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "cpudispatch/dispatch.hpp"

// Per arch: HI and LO groups (KEY the highest member), MID a single target
// between them. ppc64le and s390x have no two features neither implies.
#if defined(CPUD_ARCH_X86_64)
#define HI_KEY AVX512_SKX
#define HI_OTHER VPCLMULQDQ
#define MID X86_V3
#define LO_KEY AVX2
#define LO_OTHER FMA3
#elif defined(CPUD_ARCH_AARCH64)
#define HI_KEY SVE
#define HI_OTHER I8MM
#define MID ASIMDFHM
#define LO_KEY ASIMDDP
#define LO_OTHER ASIMDHP
#elif defined(CPUD_ARCH_RISCV64)
#define HI_KEY RVV
#define HI_OTHER ZBS
#define MID ZBS
#define LO_KEY ZBB
#define LO_OTHER ZBA
#endif

#if defined(HI_KEY)
namespace {

// CPUD_BIT pastes its argument unexpanded; these expand it first.
#define ID(F) CPUD_CAT(CPUD_FEATURE_, F)
#define BIT(F) (cpud::feature_set(ID(F)))
#define HI_GROUP CPUD_STR(HI_KEY) "__" CPUD_STR(HI_OTHER)
#define LO_GROUP CPUD_STR(LO_KEY) "__" CPUD_STR(LO_OTHER)

const char *hi_group() { return HI_GROUP; }
const char *hi_single() { return CPUD_STR(HI_KEY); }
const char *mid_single() { return CPUD_STR(MID); }
const char *lo_group() { return LO_GROUP; }
const char *lo_single() { return CPUD_STR(LO_KEY); }
const char *base() { return "baseline"; }

using fn = const char *(*)();
struct grouped_tag {
  static constexpr const char *name = "groups_fake";
  static constexpr cpud::target_entry<fn> entries[] = {
      {ID(HI_KEY), &hi_group, HI_GROUP, BIT(HI_KEY) | BIT(HI_OTHER)},
      {ID(HI_KEY), &hi_single, CPUD_STR(HI_KEY), BIT(HI_KEY)},
      {ID(MID), &mid_single, CPUD_STR(MID), BIT(MID)},
      {ID(LO_KEY), &lo_group, LO_GROUP, BIT(LO_KEY) | BIT(LO_OTHER)},
      {ID(LO_KEY), &lo_single, CPUD_STR(LO_KEY), BIT(LO_KEY)},
      {0, &base, "baseline", cpud::feature_set()},
      {0, nullptr, "none", cpud::feature_set()}};
};
constexpr cpud::dispatcher<grouped_tag, const char *()> grouped{};

// Group names are highest member first, and the table descends by key.
static_assert(ID(HI_KEY) > ID(HI_OTHER) && ID(LO_KEY) > ID(LO_OTHER), "group names: highest member first");
static_assert(ID(HI_KEY) > ID(MID) && ID(MID) > ID(LO_KEY), "the table descends by key");
// Equal keys (a group, then its key alone) pass the ordering check; a table
// that climbs does not.
static_assert(cpud::detail::keys_descending(grouped_tag::entries), "equal keys are accepted");
constexpr cpud::target_entry<fn> climbing[] = {{ID(LO_KEY), &lo_single, "lo", BIT(LO_KEY)},
                                               {ID(HI_KEY), &hi_single, "hi", BIT(HI_KEY)},
                                               {0, nullptr, "none", cpud::feature_set()}};
static_assert(!cpud::detail::keys_descending(climbing), "a climbing table is refused");

// The documented rule, without key sets: the first entry (highest interest
// first) whose members are all usable and none of which is, or implies, a
// disabled feature.
std::string by_rule(const cpud::feature_set &disabled) {
  const cpud::feature_set usable = cpud_usable_mask();
  for (const auto *e = grouped.targets(); e->fn; ++e)
    if ((e->need & ~usable).empty() && (cpud::feature_set(cpud_with_implied(e->need)) & disabled).empty())
      return e->name;
  return "none";
}

std::string selected() {
  const std::string name = grouped.selected_name();
  // The call, the cached pointer and the name agree.
  EXPECT_EQ(name, grouped());
  EXPECT_EQ(name, grouped.get()());
  return name;
}

// Restores set_disabled's empty set whatever a test does.
struct enable_all_after {
  ~enable_all_after() { grouped.set_disabled(cpud::feature_set()); }
};

// A case runs where the CPU has its features and the build's baseline has
// none of them (exclude_features cannot take a baseline feature).
#define REQUIRE(MASK)                                                                              \
  if (!((MASK) & ~cpud::feature_set(cpud_detected_mask())).empty())                               \
    GTEST_SKIP() << "this CPU lacks a feature the case needs";                                     \
  if (!((MASK) & cpud_baseline_mask()).empty()) GTEST_SKIP() << "a feature of the case is in the baseline"

const cpud::feature_set all_five = BIT(HI_KEY) | BIT(HI_OTHER) | BIT(MID) | BIT(LO_KEY) | BIT(LO_OTHER);

TEST(GroupDispatch, GroupWhenEveryMemberIsUsable) {
  REQUIRE(BIT(HI_KEY) | BIT(HI_OTHER));
  cpud::scoped_features every(cpud::feature_set::all());
  EXPECT_EQ(selected(), HI_GROUP);
}

TEST(GroupDispatch, HighestMemberAloneWhenAnotherIsMasked) {
  REQUIRE(BIT(HI_KEY) | BIT(HI_OTHER));
  {
    cpud::scoped_features without(~BIT(HI_OTHER));
    EXPECT_EQ(selected(), CPUD_STR(HI_KEY));
  }
  cpud::scoped_features every(cpud::feature_set::all());
  {
    cpud::exclude_features without(BIT(HI_OTHER));
    ASSERT_TRUE(without.ok());
    EXPECT_EQ(selected(), CPUD_STR(HI_KEY));
  }
  {
    cpud::only_features key_only(BIT(HI_KEY));
    EXPECT_EQ(selected(), CPUD_STR(HI_KEY));
  }
  EXPECT_EQ(selected(), HI_GROUP);  // the guards are gone
}

TEST(GroupDispatch, LowerKeyWhenTheKeysGroupAndSingleAreUnusable) {
  REQUIRE(all_five);
  cpud::scoped_features every(cpud::feature_set::all());
  {
    cpud::exclude_features no_hi(BIT(HI_KEY));
    EXPECT_EQ(selected(), CPUD_STR(MID));
  }
  {
    cpud::exclude_features no_hi_mid(BIT(HI_KEY) | BIT(MID));
    EXPECT_EQ(selected(), LO_GROUP);
    cpud::exclude_features no_lo_other(BIT(LO_OTHER));
    EXPECT_EQ(selected(), CPUD_STR(LO_KEY));
    cpud::exclude_features no_lo(BIT(LO_KEY));
    EXPECT_EQ(selected(), "baseline");
  }
  {
    cpud::only_features both(BIT(LO_KEY) | BIT(LO_OTHER));
    EXPECT_EQ(selected(), LO_GROUP);
  }
  {
    // A group's lower member alone selects nothing at the group's key.
    cpud::only_features lower(BIT(LO_OTHER));
    EXPECT_EQ(selected(), "baseline");
  }
}

TEST(GroupDispatch, SetDisabledSkipsTheGroupOfAMemberNotItsKey) {
  REQUIRE(BIT(HI_KEY) | BIT(HI_OTHER));
  cpud::scoped_features every(cpud::feature_set::all());
  enable_all_after restore;
  EXPECT_TRUE(grouped.set_disabled(BIT(HI_OTHER)).empty());
  EXPECT_EQ(grouped.disabled(), BIT(HI_OTHER));
  EXPECT_EQ(selected(), CPUD_STR(HI_KEY));  // the group is skipped, its key alone is not
  grouped.set_disabled(BIT(HI_KEY));
  EXPECT_EQ(selected(), by_rule(BIT(HI_KEY)));
  EXPECT_NE(selected(), CPUD_STR(HI_KEY));
  EXPECT_NE(selected(), HI_GROUP);
  EXPECT_EQ(grouped.set_disabled(cpud::feature_set()), BIT(HI_KEY));
  EXPECT_EQ(selected(), HI_GROUP);
}

// Every way of masking the five features, each with every one of them
// disabled in turn (or none): the key-set walk picks what the rule says.
TEST(GroupDispatch, EveryMaskAgreesWithTheRule) {
  REQUIRE(all_five);
  cpud::scoped_features every(cpud::feature_set::all());
  enable_all_after restore;
  const int ids[] = {ID(HI_KEY), ID(HI_OTHER), ID(MID), ID(LO_KEY), ID(LO_OTHER)};
  int checked = 0;
  for (int off = 0; off < 32; ++off) {
    cpud::feature_set masked;
    for (int i = 0; i < 5; ++i)
      if (off >> i & 1) masked |= cpud::feature_set(ids[i]);
    cpud::exclude_features guard(masked);
    for (int d = -1; d < 5; ++d) {
      const cpud::feature_set dis = d < 0 ? cpud::feature_set() : cpud::feature_set(ids[d]);
      grouped.set_disabled(dis);
      EXPECT_EQ(selected(), by_rule(dis)) << "excluded mask word " << masked.w[0] << ", disabled " << d;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 32 * 6);
}

TEST(GroupDispatch, ExcludeIsPerThread) {
  REQUIRE(BIT(HI_KEY) | BIT(HI_OTHER));
  cpud::scoped_features every(cpud::feature_set::all());
  std::string there;
  std::thread t([&there] {
    cpud::exclude_features without(BIT(HI_OTHER));
    there = grouped();
  });
  t.join();
  EXPECT_EQ(there, CPUD_STR(HI_KEY));
  EXPECT_EQ(selected(), HI_GROUP);
}

TEST(GroupDispatch, KeysTargetsAndRecord) {
  // Five targets, three keys: a group shares its highest member's key.
  EXPECT_EQ(grouped.keys(), BIT(HI_KEY) | BIT(MID) | BIT(LO_KEY));
  EXPECT_EQ(grouped.keys().count(), 3);
  const char *names[] = {HI_GROUP, CPUD_STR(HI_KEY), CPUD_STR(MID), LO_GROUP, CPUD_STR(LO_KEY), "baseline"};
  int n = 0;
  for (const auto *e = grouped.targets(); e->fn; ++e, ++n) {
    ASSERT_LT(n, 6);
    EXPECT_STREQ(e->name, names[n]);
    EXPECT_EQ(std::string(e->fn()), names[n]);
  }
  EXPECT_EQ(n, 6);
  EXPECT_EQ(grouped.targets()[0].need, BIT(HI_KEY) | BIT(HI_OTHER));
  EXPECT_EQ(grouped.targets()[0].feature, grouped.targets()[1].feature);
  // The runtime's record (introspection) once the function has selected.
  selected();
  const cpud_function *f = cpud_functions();
  while (f && std::string(f->name) != "groups_fake") f = f->next;
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->target_count(), 6);
  EXPECT_STREQ(f->target_name(3), LO_GROUP);
  EXPECT_EQ(f->target_feature(3), ID(LO_KEY));
  EXPECT_EQ(f->target_feature(5), 0);
}

}  // namespace
#else
TEST(GroupDispatch, NoGroupOnThisArch) { GTEST_SKIP() << "every feature of " CPUD_ARCH " implies the one below"; }
#endif
