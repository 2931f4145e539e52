// Code both the baseline and the target builds of hazard.dispatch.cpp use,
// plus main.cpp (baseline): each TU that uses these emits its own copy, and
// the linker keeps one. Float and double work makes every copy built for an
// AVX target VEX-encoded, so a wrong pick dies on a CPU without AVX.
#ifndef CPUD_TEST_HAZARD_SHARED_H_
#define CPUD_TEST_HAZARD_SHARED_H_

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

// An inline function from a shared header.
inline float hz_scaled_sum(const float *p, std::size_t n, float k) {
  float s = 0;
  for (std::size_t i = 0; i < n; ++i) s += p[i] * k;
  return s;
}

// A function-local static in an inline function: one object for the whole
// program, whichever build's copy initialises it.
inline std::vector<double> &hz_table() {
  static std::vector<double> t = [] {
    std::vector<double> v;
    for (int i = 0; i < 64; ++i) v.push_back(1.0 / (i + 1));
    return v;
  }();
  return t;
}

// std::vector / std::sort / std::string instantiations.
inline std::string hz_describe(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  std::string s = "min=" + std::to_string(v.front()) + " max=" + std::to_string(v.back());
  return s;
}

// cpudispatch.h's own inline C++ (cpud::feature_set): every build uses it,
// so each must keep its own copy (cpudispatch-check, like the rest here).
#include "cpudispatch/cpudispatch.h"
inline int hz_set_ops(int n) {
  cpud::feature_set s;
  for (int id = 1; id <= n && id <= CPUD_FEATURE_COUNT; ++id) s |= cpud::feature_set(id);
  const cpud::feature_set t = s & ~cpud::feature_set(1);
  return s.count() * 100 + t.highest() + (s == t ? 1000 : 0) + (t.empty() ? 10000 : 0);
}

#endif
