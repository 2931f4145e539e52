// SPDX-License-Identifier: MIT
// Demo kernels, compiled once per target (see src/demo/meson.build): f32 sum,
// f32 dot product and a byte count. Explicit intrinsics where the target has
// a clear win; elsewhere plain loops the compiler vectorises with the
// target's flags. Four accumulators everywhere, so each target's float
// rounding differs from the others only through vector width.
#include "kernels.dispatch.h"

#include <cstddef>
#include <cstdint>

namespace CPUD_TARGET_NS {

inline float sum_tail(const float *p, std::size_t i, std::size_t n, float s) {
  for (; i < n; ++i) s += p[i];
  return s;
}

#if defined(CPUD_HAVE_AVX512F)
// Horizontal sum; _mm512_reduce_add_ps would do, but GCC 12's header for it
// warns (-Wuninitialized) into every consumer's build log.
inline float hsum512(__m512 v) {
  // maskz forms with full masks: the plain ones (and the 512->256 cast,
  // built on them) start from an "undefined" value GCC 12 warns about.
  v = _mm512_add_ps(v, _mm512_maskz_shuffle_f32x4(0xFFFF, v, v, _MM_SHUFFLE(1, 0, 3, 2)));
  __m256 h = _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xF, _mm512_castps_pd(v), 0));
  __m128 q = _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
  q = _mm_add_ps(q, _mm_movehl_ps(q, q));
  return _mm_cvtss_f32(_mm_add_ss(q, _mm_shuffle_ps(q, q, 1)));
}
#endif

#if defined(CPUD_HAVE_NEON)
// The four lanes' sum as AArch64's FADDP pair does it, (l0 + l1) + (l2 + l3):
// one across-vector add there, pairwise adds in AArch32 (32-bit arm).
inline float hsum_f32x4(float32x4_t v) {
#if defined(__aarch64__)
  return vaddvq_f32(v);
#else
  const float32x2_t h = vpadd_f32(vget_low_f32(v), vget_high_f32(v));
  return vget_lane_f32(vpadd_f32(h, h), 0);
#endif
}
#endif

}  // namespace CPUD_TARGET_NS

using namespace CPUD_TARGET_NS;

float CPUD_FN(cpud_demo_sum_f32)(const float *p, std::size_t n) {
  std::size_t i = 0;
#if defined(CPUD_HAVE_AVX512F)
  __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
  for (; i + 64 <= n; i += 64) {
    a0 = _mm512_add_ps(a0, _mm512_loadu_ps(p + i));
    a1 = _mm512_add_ps(a1, _mm512_loadu_ps(p + i + 16));
    a2 = _mm512_add_ps(a2, _mm512_loadu_ps(p + i + 32));
    a3 = _mm512_add_ps(a3, _mm512_loadu_ps(p + i + 48));
  }
  float s = hsum512(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
#elif defined(CPUD_HAVE_AVX)
  __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
  for (; i + 32 <= n; i += 32) {
    a0 = _mm256_add_ps(a0, _mm256_loadu_ps(p + i));
    a1 = _mm256_add_ps(a1, _mm256_loadu_ps(p + i + 8));
    a2 = _mm256_add_ps(a2, _mm256_loadu_ps(p + i + 16));
    a3 = _mm256_add_ps(a3, _mm256_loadu_ps(p + i + 24));
  }
  __m256 t8 = _mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3));
  __m128 t4 = _mm_add_ps(_mm256_castps256_ps128(t8), _mm256_extractf128_ps(t8, 1));
  t4 = _mm_add_ps(t4, _mm_movehl_ps(t4, t4));
  t4 = _mm_add_ss(t4, _mm_shuffle_ps(t4, t4, 1));
  float s = _mm_cvtss_f32(t4);
#elif defined(CPUD_HAVE_SSE2)
  __m128 a0 = _mm_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
  for (; i + 16 <= n; i += 16) {
    a0 = _mm_add_ps(a0, _mm_loadu_ps(p + i));
    a1 = _mm_add_ps(a1, _mm_loadu_ps(p + i + 4));
    a2 = _mm_add_ps(a2, _mm_loadu_ps(p + i + 8));
    a3 = _mm_add_ps(a3, _mm_loadu_ps(p + i + 12));
  }
  __m128 t4 = _mm_add_ps(_mm_add_ps(a0, a1), _mm_add_ps(a2, a3));
  t4 = _mm_add_ps(t4, _mm_movehl_ps(t4, t4));
  t4 = _mm_add_ss(t4, _mm_shuffle_ps(t4, t4, 1));
  float s = _mm_cvtss_f32(t4);
#elif defined(CPUD_HAVE_NEON)
  float32x4_t a0 = vdupq_n_f32(0), a1 = a0, a2 = a0, a3 = a0;
  for (; i + 16 <= n; i += 16) {
    a0 = vaddq_f32(a0, vld1q_f32(p + i));
    a1 = vaddq_f32(a1, vld1q_f32(p + i + 4));
    a2 = vaddq_f32(a2, vld1q_f32(p + i + 8));
    a3 = vaddq_f32(a3, vld1q_f32(p + i + 12));
  }
  float s = hsum_f32x4(vaddq_f32(vaddq_f32(a0, a1), vaddq_f32(a2, a3)));
#else
  float a[4] = {0, 0, 0, 0};
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; ++k) a[k] += p[i + k];
  float s = (a[0] + a[1]) + (a[2] + a[3]);
#endif
  return sum_tail(p, i, n, s);
}

float CPUD_FN(cpud_demo_dot_f32)(const float *x, const float *y, std::size_t n) {
  std::size_t i = 0;
  float s;
#if defined(CPUD_HAVE_AVX512F)
  __m512 a0 = _mm512_setzero_ps(), a1 = a0;
  for (; i + 32 <= n; i += 32) {
    a0 = _mm512_fmadd_ps(_mm512_loadu_ps(x + i), _mm512_loadu_ps(y + i), a0);
    a1 = _mm512_fmadd_ps(_mm512_loadu_ps(x + i + 16), _mm512_loadu_ps(y + i + 16), a1);
  }
  s = hsum512(_mm512_add_ps(a0, a1));
#elif defined(CPUD_HAVE_FMA3)
  __m256 a0 = _mm256_setzero_ps(), a1 = a0;
  for (; i + 16 <= n; i += 16) {
    a0 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i), a0);
    a1 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i + 8), _mm256_loadu_ps(y + i + 8), a1);
  }
  __m256 t8 = _mm256_add_ps(a0, a1);
  __m128 t4 = _mm_add_ps(_mm256_castps256_ps128(t8), _mm256_extractf128_ps(t8, 1));
  t4 = _mm_add_ps(t4, _mm_movehl_ps(t4, t4));
  t4 = _mm_add_ss(t4, _mm_shuffle_ps(t4, t4, 1));
  s = _mm_cvtss_f32(t4);
#elif defined(CPUD_HAVE_SSE2)
  __m128 a0 = _mm_setzero_ps(), a1 = a0;
  for (; i + 8 <= n; i += 8) {
    a0 = _mm_add_ps(a0, _mm_mul_ps(_mm_loadu_ps(x + i), _mm_loadu_ps(y + i)));
    a1 = _mm_add_ps(a1, _mm_mul_ps(_mm_loadu_ps(x + i + 4), _mm_loadu_ps(y + i + 4)));
  }
  __m128 t4 = _mm_add_ps(a0, a1);
  t4 = _mm_add_ps(t4, _mm_movehl_ps(t4, t4));
  t4 = _mm_add_ss(t4, _mm_shuffle_ps(t4, t4, 1));
  s = _mm_cvtss_f32(t4);
#elif defined(CPUD_HAVE_NEON_VFPV4)
  float32x4_t a0 = vdupq_n_f32(0), a1 = a0;
  for (; i + 8 <= n; i += 8) {
    a0 = vfmaq_f32(a0, vld1q_f32(x + i), vld1q_f32(y + i));
    a1 = vfmaq_f32(a1, vld1q_f32(x + i + 4), vld1q_f32(y + i + 4));
  }
  s = hsum_f32x4(vaddq_f32(a0, a1));
#else
  float a[4] = {0, 0, 0, 0};
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; ++k) a[k] += x[i + k] * y[i + k];
  s = (a[0] + a[1]) + (a[2] + a[3]);
#endif
  for (; i < n; ++i) s += x[i] * y[i];
  return s;
}

std::size_t CPUD_FN(cpud_demo_count_u8)(const std::uint8_t *p, std::size_t n, std::uint8_t v) {
  std::size_t i = 0, c = 0;
#if defined(CPUD_HAVE_AVX512BW)
  const __m512i needle = _mm512_set1_epi8(static_cast<char>(v));
  for (; i + 64 <= n; i += 64) {
    const __mmask64 eq = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512(p + i), needle);
#if defined(__x86_64__)
    c += static_cast<std::size_t>(_mm_popcnt_u64(eq));
#else  // 32-bit x86: no 64-bit POPCNT
    c += static_cast<std::size_t>(_mm_popcnt_u32(static_cast<unsigned>(eq)) +
                                  _mm_popcnt_u32(static_cast<unsigned>(eq >> 32)));
#endif
  }
#elif defined(CPUD_HAVE_AVX2)
  const __m256i needle = _mm256_set1_epi8(static_cast<char>(v));
  for (; i + 32 <= n; i += 32) {
    __m256i eq = _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(p + i)), needle);
    c += static_cast<std::size_t>(_mm_popcnt_u32(static_cast<unsigned>(_mm256_movemask_epi8(eq))));
  }
#elif defined(CPUD_HAVE_SSE2)
  const __m128i needle = _mm_set1_epi8(static_cast<char>(v));
  for (; i + 16 <= n; i += 16) {
    unsigned m = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p + i)), needle)));
#if defined(CPUD_HAVE_POPCNT)
    c += static_cast<std::size_t>(_mm_popcnt_u32(m));
#else
    for (; m; m &= m - 1) ++c;
#endif
  }
#endif
  // The rest (and every target without explicit code): a loop the compiler
  // vectorises with the target's flags.
  for (; i < n; ++i) c += p[i] == v;
  return c;
}

// The kernels of the demo operator 'sum' (kernels.h): one type-erased
// signature for every element type; the float32 one is the kernel above.
void CPUD_FN(cpud_demo_sum_any_f32)(const void *p, std::size_t n, void *out) {
  *static_cast<float *>(out) = CPUD_FN(cpud_demo_sum_f32)(static_cast<const float *>(p), n);
}
void CPUD_FN(cpud_demo_sum_any_f64)(const void *p, std::size_t n, void *out) {
  const double *x = static_cast<const double *>(p);
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) s0 += x[i], s1 += x[i + 1], s2 += x[i + 2], s3 += x[i + 3];
  for (; i < n; ++i) s0 += x[i];
  *static_cast<double *>(out) = (s0 + s1) + (s2 + s3);
}
void CPUD_FN(cpud_demo_sum_any_i64)(const void *p, std::size_t n, void *out) {
  const std::int64_t *x = static_cast<const std::int64_t *>(p);
  std::uint64_t s = 0;  // wraps like the hardware, no signed overflow
  for (std::size_t i = 0; i < n; ++i) s += static_cast<std::uint64_t>(x[i]);
  *static_cast<std::int64_t *>(out) = static_cast<std::int64_t>(s);
}
