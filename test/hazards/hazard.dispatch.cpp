// The hazard fixture's dispatch source: uses everything of hazard_shared.h in
// every target build (AVX2 / AVX-512 copies of the same inline and template
// functions the baseline code uses).
#include "hazard.dispatch.h"
#include "hazard_shared.h"

std::string CPUD_FN(hz_work)(std::vector<double> v, const float *p, std::size_t n) {
  v.push_back(static_cast<double>(hz_scaled_sum(p, n, 2.0f)));
  v.insert(v.end(), hz_table().begin(), hz_table().begin() + 4);
  return std::string(CPUD_TARGET_NAME) + " " + hz_describe(v) + " sets=" + std::to_string(hz_set_ops(static_cast<int>(n % 7)));
}
