/* SPDX-License-Identifier: MIT */
/* NumPy's AVX512F_REDUCE: the compiler has AVX-512F's horizontal reduction
 * sequences (GCC >= 7, Clang >= 4). Compiled with -mavx512f and
 * -Werror=implicit-function-declaration, never run. */
#include <immintrin.h>

int main(int argc, char **argv) {
  (void)argv;
  __m512 f = _mm512_set1_ps((float)argc);
  __m512d d = _mm512_set1_pd((double)argc);
  __m512i i = _mm512_set1_epi32(argc);
  __m512i l = _mm512_set1_epi64(argc);
  float s = _mm512_reduce_add_ps(f) + _mm512_reduce_mul_ps(f) + _mm512_reduce_min_ps(f) + _mm512_reduce_max_ps(f);
  double t = _mm512_reduce_add_pd(d) + _mm512_reduce_mul_pd(d) + _mm512_reduce_min_pd(d) + _mm512_reduce_max_pd(d);
  int u = _mm512_reduce_add_epi32(i) + _mm512_reduce_and_epi32(i) + _mm512_reduce_or_epi32(i) +
          _mm512_reduce_min_epu32(i) + _mm512_reduce_max_epi32(i);
  long long v = _mm512_reduce_add_epi64(l) + _mm512_reduce_and_epi64(l) + _mm512_reduce_min_epi64(l) +
                _mm512_reduce_max_epu64(l);
  return (int)s + (int)t + u + (int)v;
}
