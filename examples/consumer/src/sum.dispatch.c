/* Sum of floats, one C source compiled once per target of its list
 * (meson.build): SSE (baseline x86_64), AVX2, AVX-512, NEON (aarch64, and 32-bit
 * arm's ASIMD), plus a plain loop for every other arch. */
#include "sum.dispatch.h"

#include <stddef.h>

float CPUD_FN(sum)(const float *p, size_t n) {
  size_t i = 0;
  float s = 0.0f;
#if defined(CPUD_HAVE_AVX512F)
  __m512 acc = _mm512_setzero_ps();
  for (; i + 16 <= n; i += 16) acc = _mm512_add_ps(acc, _mm512_loadu_ps(p + i));
  s = _mm512_reduce_add_ps(acc);
#elif defined(CPUD_HAVE_AVX2)
  __m256 acc = _mm256_setzero_ps();
  for (; i + 8 <= n; i += 8) acc = _mm256_add_ps(acc, _mm256_loadu_ps(p + i));
  __m128 h = _mm_add_ps(_mm256_castps256_ps128(acc), _mm256_extractf128_ps(acc, 1));
  h = _mm_add_ps(h, _mm_movehl_ps(h, h));
  s = _mm_cvtss_f32(_mm_add_ss(h, _mm_shuffle_ps(h, h, 1)));
#elif defined(CPUD_HAVE_SSE2)
  __m128 acc = _mm_setzero_ps();
  for (; i + 4 <= n; i += 4) acc = _mm_add_ps(acc, _mm_loadu_ps(p + i));
  acc = _mm_add_ps(acc, _mm_movehl_ps(acc, acc));
  s = _mm_cvtss_f32(_mm_add_ss(acc, _mm_shuffle_ps(acc, acc, 1)));
#elif defined(CPUD_HAVE_ASIMD)
  float32x4_t acc = vdupq_n_f32(0.0f);
  for (; i + 4 <= n; i += 4) acc = vaddq_f32(acc, vld1q_f32(p + i));
#if defined(__aarch64__)
  s = vaddvq_f32(acc);
#else /* 32-bit arm has ASIMD too, without the across-vector add */
  float32x2_t h = vpadd_f32(vget_low_f32(acc), vget_high_f32(acc));
  s = vget_lane_f32(vpadd_f32(h, h), 0);
#endif
#endif
  for (; i < n; ++i) s += p[i];
  return s;
}

/* Which build this is, for the demo's output. */
const char *CPUD_FN(sum_target)(void) { return CPUD_TARGET_NAME; }
