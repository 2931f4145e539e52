/* The SSE4.1 file: 16 bytes per step. Needs -msse4.1: hex.dispatch.c
 * includes it only in builds whose flags have SSE4.1 (docs/per-isa-files.md). */
#include <smmintrin.h>

#include "hex_isa.h"

const struct hex_info hex_info_sse41 = {"sse41", 16};

/* Eight bytes, zero-extended to words, to their 16 digits: each word gets its
 * high nibble in its low byte and its low nibble in its high byte (the
 * digits' order in memory), and one pshufb looks both up. */
static inline __m128i digits8(__m128i words, __m128i table) {
  const __m128i low = _mm_and_si128(words, _mm_set1_epi16(15));
  return _mm_shuffle_epi8(table, _mm_or_si128(_mm_srli_epi16(words, 4), _mm_slli_epi16(low, 8)));
}

size_t hex_encode_sse41(char *dst, const uint8_t *src, size_t n) {
  const __m128i table = _mm_loadu_si128((const __m128i *)hex_digits);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128((const __m128i *)(src + i));
    _mm_storeu_si128((__m128i *)(dst + 2 * i), digits8(_mm_cvtepu8_epi16(v), table));  /* pmovzxbw */
    _mm_storeu_si128((__m128i *)(dst + 2 * i + 16), digits8(_mm_cvtepu8_epi16(_mm_srli_si128(v, 8)), table));
  }
  hex_encode_tail(dst + 2 * i, src + i, n - i);
  return 2 * n;
}

/* 16 digits to their values; sets in *bad the bytes that are not digits. */
static inline __m128i values16(__m128i c, __m128i *bad) {
  /* '0'..'9' to 0..9; 'a'..'f' and 'A'..'F' to 0..5; d <= 9 and l <= 5 (unsigned) mark digits */
  const __m128i d = _mm_sub_epi8(c, _mm_set1_epi8('0'));
  const __m128i l = _mm_sub_epi8(_mm_or_si128(c, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
  const __m128i is_d = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
  const __m128i is_l = _mm_cmpeq_epi8(_mm_min_epu8(l, _mm_set1_epi8(5)), l);
  *bad = _mm_or_si128(*bad, _mm_xor_si128(_mm_or_si128(is_d, is_l), _mm_set1_epi8(-1)));
  return _mm_blendv_epi8(_mm_add_epi8(l, _mm_set1_epi8(10)), d, is_d); /* SSE4.1 */
}

size_t hex_decode_sse41(uint8_t *dst, const char *src, size_t n) {
  if (n % 2 != 0) return HEX_INVALID;
  const __m128i weights = _mm_set1_epi16(0x0110); /* each pair of values: first * 16 + second */
  __m128i bad = _mm_setzero_si128();
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m128i a = values16(_mm_loadu_si128((const __m128i *)(src + i)), &bad);
    const __m128i b = values16(_mm_loadu_si128((const __m128i *)(src + i + 16)), &bad);
    _mm_storeu_si128((__m128i *)(dst + i / 2),
                     _mm_packus_epi16(_mm_maddubs_epi16(a, weights), _mm_maddubs_epi16(b, weights)));
  }
  if (!_mm_testz_si128(bad, bad) || hex_decode_tail(dst + i / 2, src + i, n - i) != 0) return HEX_INVALID;
  return n / 2;
}
