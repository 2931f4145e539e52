// The dot product written once with Google Highway's ops, in *static
// dispatch*: cpudispatch compiles this file once per target of its list
// (meson.build) with that target's flags, and Highway's HWY_STATIC_TARGET,
// the one target its ops compile for, follows those flags. No
// HWY_DYNAMIC_DISPATCH, no foreach_target.h, no libhwy to link: choosing
// among the builds at run time is cpudispatch's job.
#include "dot_hwy.dispatch.h"

// Highway's SSE4 and AVX2 targets also ask for AES and CLMUL (for its AES
// and carry-less multiply ops, which this kernel does not use). cpudispatch's
// SSE42 and X86_V3 builds have neither flag, so without this line both would
// get HWY_SSSE3. The static_assert below catches any such fall-back.
#define HWY_DISABLE_PCLMUL_AES 1
#include <hwy/highway.h>

#include <cstddef>

// The Highway target each build of the list must get (README.md, "Targets").
#if defined(CPUD_HAVE_X86_V4)
#define DOT_HWY_EXPECT HWY_AVX3
#elif defined(CPUD_HAVE_X86_V3)
#define DOT_HWY_EXPECT HWY_AVX2
#elif defined(CPUD_HAVE_SSE42)
#define DOT_HWY_EXPECT HWY_SSE4
#elif defined(CPUD_HAVE_SVE_256)
#define DOT_HWY_EXPECT HWY_SVE_256
#elif defined(CPUD_HAVE_SVE)
#define DOT_HWY_EXPECT HWY_SVE
#elif defined(CPUD_HAVE_ASIMD) && defined(HWY_NEON_WITHOUT_AES)  // later Highway releases
#define DOT_HWY_EXPECT HWY_NEON_WITHOUT_AES
#elif defined(CPUD_HAVE_ASIMD)
#define DOT_HWY_EXPECT HWY_NEON
#else
#define DOT_HWY_EXPECT HWY_STATIC_TARGET  // x86-64 baseline: HWY_SCALAR (GCC < 12.3) or HWY_EMU128
#endif
static_assert(HWY_STATIC_TARGET == DOT_HWY_EXPECT, "Highway compiles this build for a lower target than expected");

// Highway's own brackets for code that calls its ops (target pragmas that
// match the build's flags; on aarch64, NEON's "+crypto": see README.md).
HWY_BEFORE_NAMESPACE();
namespace hn = hwy::HWY_NAMESPACE;  // N_AVX2, N_SSE4, N_SVE, ...: one per Highway target

float CPUD_FN(dot_hwy)(const float *a, const float *b, std::size_t n) {
  const hn::ScalableTag<float> d;      // the widest vector of the target
  const std::size_t N = hn::Lanes(d);  // a constant, or read from the CPU (SVE)
  // Four independent sums, so that the loop does not wait on each MulAdd's
  // latency (named, not an array: SVE vectors are sizeless types).
  auto sum0 = hn::Zero(d), sum1 = hn::Zero(d), sum2 = hn::Zero(d), sum3 = hn::Zero(d);
  std::size_t i = 0;
  for (; i + 4 * N <= n; i += 4 * N) {
    sum0 = hn::MulAdd(hn::LoadU(d, a + i), hn::LoadU(d, b + i), sum0);
    sum1 = hn::MulAdd(hn::LoadU(d, a + i + N), hn::LoadU(d, b + i + N), sum1);
    sum2 = hn::MulAdd(hn::LoadU(d, a + i + 2 * N), hn::LoadU(d, b + i + 2 * N), sum2);
    sum3 = hn::MulAdd(hn::LoadU(d, a + i + 3 * N), hn::LoadU(d, b + i + 3 * N), sum3);
  }
  for (; i + N <= n; i += N) sum0 = hn::MulAdd(hn::LoadU(d, a + i), hn::LoadU(d, b + i), sum0);
  float sum = hn::GetLane(hn::SumOfLanes(d, hn::Add(hn::Add(sum0, sum1), hn::Add(sum2, sum3))));
  for (; i < n; ++i) sum += a[i] * b[i];  // the tail: fewer than N floats
  return sum;
}

// What ran: Highway's name for the target it compiled, and the lane count.
const char *CPUD_FN(dot_hwy_style)() { return hwy::TargetName(HWY_STATIC_TARGET); }
std::size_t CPUD_FN(dot_hwy_lanes)() { return hn::Lanes(hn::ScalableTag<float>()); }
HWY_AFTER_NAMESPACE();
