/* SPDX-License-Identifier: MIT */
/* NumPy's AVX512DQ_MASK: the compiler has AVX-512DQ's 8-bit mask operations
 * as intrinsics (GCC >= 7, Clang >= 8). Compiled with the AVX512_SKX flags
 * and -Werror=implicit-function-declaration, never run. */
#include <immintrin.h>

int main(int argc, char **argv) {
  (void)argv;
  __m512d a = _mm512_set1_pd((double)argc);
  __mmask8 m = _mm512_cmp_pd_mask(a, a, _CMP_EQ_OQ);
  __mmask8 n = _kor_mask8(_kand_mask8(m, m), _kxor_mask8(_knot_mask8(m), m));
  return (int)_cvtmask8_u32(n);
}
