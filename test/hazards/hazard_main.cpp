// Baseline code that uses the same inline/template functions as the target
// builds, then calls the dispatched function. On a CPU without the targets'
// features it must run to the end: any target copy reaching baseline code
// dies of SIGILL here.
#include <cstdio>
#include <cstring>

#include "hazard.dispatch.h"
#include "hazard_shared.h"
#include "cpudispatch/dispatch.hpp"

CPUD_DISPATCH(std::string, hz_work, (std::vector<double>, const float *, std::size_t));

int main() {
  std::vector<float> f(1000, 0.5f);
  std::vector<double> d = {3.0, -1.0, 2.5, 7.0};
#if HZ_MAIN_USES_SHARED
  // This TU's own copies come first in any link.
  float base = hz_scaled_sum(f.data(), f.size(), 2.0f);
  std::string desc = hz_describe(d);
  double t = hz_table()[3];
  const int sets = hz_set_ops(static_cast<int>(f.size() % 7));  // 1000 % 7 = 6 features
#else
  // Only the dispatch source's builds hold copies: link order decides.
  float base = 1000.0f;
  std::string desc = "min=-1.000000 max=7.000000";
  double t = 0.25;
  const int sets = 606;
#endif
  std::string via = hz_work(d, f.data(), f.size());
  std::printf("baseline: %g %s %g %d\ndispatched: %s\n", base, desc.c_str(), t, sets, via.c_str());
  // 6 features (fewer if the table has fewer): count n, highest n, t lacks
  // id 1; with one or none, t is empty (and equals s when s is).
  const int n = CPUD_FEATURE_COUNT >= 6 ? 6 : CPUD_FEATURE_COUNT;
  const int want = n * 100 + (n >= 2 ? n : 0) + (n == 0 ? 1000 : 0) + (n <= 1 ? 10000 : 0);
  bool ok = base == 1000.0f && desc == "min=-1.000000 max=7.000000" && t == 0.25 &&
            via.find(" min=-1.000000 max=1000.000000") != std::string::npos &&
            (sets == want || !HZ_MAIN_USES_SHARED) && via.find(" sets=" + std::to_string(want)) != std::string::npos;
  return ok ? 0 : 1;
}
