// A dispatch source with SVE code built for any vector length (SVE) and for
// exactly 32-byte vectors (SVE_256, SVE2+SVE_256). The loop steps by the
// lane count, which the SVE_256 builds take as the constant 8: on a CPU
// whose vectors are longer they load more lanes than they step over and
// count elements twice (lanes_main.cpp's negative control shows it).
#include "lanes.dispatch.h"

#include <cstddef>
#include <cstdint>

#if defined(CPUD_HAVE_SVE_256) && !(defined(__ARM_FEATURE_SVE_BITS) && __ARM_FEATURE_SVE_BITS == 256)
#error "an SVE_256 build without -msve-vector-bits=256"
#endif
#if defined(CPUD_HAVE_SVE2) && !defined(__ARM_FEATURE_SVE2)
#error "an SVE2 build without its flags"
#endif

std::int64_t CPUD_FN(lanes_sum)(const std::int32_t *v, std::size_t n, const char **target) {
  *target = CPUD_TARGET_NAME;
  std::int64_t s = 0;
#if defined(CPUD_HAVE_SVE)
  for (std::size_t i = 0; i < n; i += svcntw()) {
    const svbool_t pg = svwhilelt_b32_u64(i, n);
    s += svaddv_s32(pg, svld1_s32(pg, v + i));
  }
#else
  for (std::size_t i = 0; i < n; ++i) s += v[i];
#endif
  return s;
}

// The 32-bit lanes this build believes a vector has (0 without SVE).
int CPUD_FN(lanes_count)() {
#if defined(CPUD_HAVE_SVE)
  return static_cast<int>(svcntw());
#else
  return 0;
#endif
}
