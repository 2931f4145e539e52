// Every compiled target of the demo kernels that this CPU can run gives the
// baseline's result (exactly for integer-valued data, within float
// reassociation error for random data).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels.h"

namespace {

const std::size_t k_sizes[] = {0, 1, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 1000, 4099};

template <class D>
typename D::fn_type baseline_of(const D &d) {
  for (auto *e = d.targets(); e->fn; ++e)
    if (e->feature == 0) return e->fn;
  return nullptr;
}

template <class D, class F>
int for_each_usable_target(const D &d, F &&f) {
  int n = 0;
  for (auto *e = d.targets(); e->fn; ++e)
    if (D::usable(*e)) {
      f(*e);
      ++n;
    }
  return n;
}

TEST(Kernels, SumF32MatchesBaselineOnEveryTarget) {
  auto base = baseline_of(cpud_demo_sum_f32);
  ASSERT_NE(base, nullptr);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> real(-1.0f, 1.0f);
  std::uniform_int_distribution<int> small(-100, 100);
  for (std::size_t n : k_sizes) {
    std::vector<float> ints(n), reals(n);
    float abs_sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      ints[i] = static_cast<float>(small(rng));
      reals[i] = real(rng);
      abs_sum += std::fabs(reals[i]);
    }
    int ran = for_each_usable_target(cpud_demo_sum_f32, [&](const auto &e) {
      EXPECT_EQ(e.fn(ints.data(), n), base(ints.data(), n)) << e.name << " n=" << n;
      EXPECT_NEAR(e.fn(reals.data(), n), base(reals.data(), n), 1e-5f * (abs_sum + 1)) << e.name << " n=" << n;
    });
    EXPECT_GE(ran, 1);
  }
  std::vector<float> ones(1000, 1.0f);
  EXPECT_EQ(cpud_demo_sum_f32(ones.data(), ones.size()), 1000.0f);
}

TEST(Kernels, DotF32MatchesBaselineOnEveryTarget) {
  auto base = baseline_of(cpud_demo_dot_f32);
  ASSERT_NE(base, nullptr);
  std::mt19937 rng(2);
  std::uniform_int_distribution<int> small(-30, 30);
  for (std::size_t n : k_sizes) {
    std::vector<float> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = static_cast<float>(small(rng));
      y[i] = static_cast<float>(small(rng));
    }
    double exact = 0;
    for (std::size_t i = 0; i < n; ++i) exact += static_cast<double>(x[i]) * y[i];
    for_each_usable_target(cpud_demo_dot_f32, [&](const auto &e) {
      EXPECT_EQ(e.fn(x.data(), y.data(), n), base(x.data(), y.data(), n)) << e.name << " n=" << n;
      EXPECT_EQ(static_cast<double>(e.fn(x.data(), y.data(), n)), exact) << e.name << " n=" << n;
    });
  }
}

TEST(Kernels, CountU8MatchesBaselineOnEveryTarget) {
  auto base = baseline_of(cpud_demo_count_u8);
  ASSERT_NE(base, nullptr);
  std::mt19937 rng(3);
  for (std::size_t n : k_sizes) {
    std::vector<std::uint8_t> p(n);
    std::size_t expect = 0;
    for (auto &b : p) {
      b = static_cast<std::uint8_t>(rng() % 4);
      expect += b == 2;
    }
    for_each_usable_target(cpud_demo_count_u8, [&](const auto &e) {
      EXPECT_EQ(e.fn(p.data(), n, 2), expect) << e.name << " n=" << n;
      EXPECT_EQ(e.fn(p.data(), n, 2), base(p.data(), n, 2)) << e.name << " n=" << n;
    });
  }
}

}  // namespace
