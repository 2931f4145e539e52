// C++ twin of the seed example, with the same targets.
#include "hello_cxx.dispatch.h"

#include <numeric>
#include <string>

namespace CPUD_TARGET_NS {
// Defined per target: an inline helper in a per-target namespace can never
// be merged with another target's copy by the linker.
inline int sum16(const int *v) {
#if defined(CPUD_HAVE_AVX512F)
  return _mm512_reduce_add_epi32(_mm512_loadu_si512(v));
#else
  return std::accumulate(v, v + 16, 0);
#endif
}
}  // namespace CPUD_TARGET_NS

int CPUD_FN(hello_cxx)(std::string &log, const int *v16) {
  log += CPUD_TARGET_NAME;
  log += ' ';
  return CPUD_TARGET_NS::sum16(v16);
}
