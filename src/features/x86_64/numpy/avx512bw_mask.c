/* SPDX-License-Identifier: MIT */
/* NumPy's AVX512BW_MASK: the compiler has AVX-512BW's 32- and 64-bit mask
 * operations as intrinsics (GCC >= 7, Clang >= 8). Compiled with the
 * AVX512_SKX flags and -Werror=implicit-function-declaration, never run. */
#include <immintrin.h>

int main(int argc, char **argv) {
  (void)argv;
  __m512i a = _mm512_set1_epi8((char)argc);
  __mmask64 m = _mm512_cmpeq_epi8_mask(a, a);
  __mmask64 n = _kor_mask64(_kand_mask64(m, m), _kxor_mask64(_knot_mask64(m), m));
  __mmask32 k = _kandn_mask32(_cvtu32_mask32((unsigned)argc), _cvtu32_mask32(3u));
  return (int)(_cvtmask64_u64(n) >> 40) + (int)_cvtmask32_u32(k);
}
