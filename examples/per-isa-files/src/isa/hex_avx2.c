/* The AVX2 file: 32 bytes per step. Needs -mavx2: hex.dispatch.c includes
 * it only in builds whose flags have AVX2 (docs/per-isa-files.md). */
#include <immintrin.h>

#include "hex_isa.h"

const struct hex_info hex_info_avx2 = {"avx2", 32};

/* 16 bytes to their 32 digits, as hex_sse41.c does 8: vpshufb looks up
 * within each 128-bit half, so the table is in both. */
static inline __m256i digits16(__m128i bytes, __m256i table) {
  const __m256i words = _mm256_cvtepu8_epi16(bytes);
  const __m256i low = _mm256_and_si256(words, _mm256_set1_epi16(15));
  return _mm256_shuffle_epi8(table, _mm256_or_si256(_mm256_srli_epi16(words, 4), _mm256_slli_epi16(low, 8)));
}

size_t hex_encode_avx2(char *dst, const uint8_t *src, size_t n) {
  const __m256i table = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)hex_digits));
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    _mm256_storeu_si256((__m256i *)(dst + 2 * i), digits16(_mm_loadu_si128((const __m128i *)(src + i)), table));
    _mm256_storeu_si256((__m256i *)(dst + 2 * i + 32),
                        digits16(_mm_loadu_si128((const __m128i *)(src + i + 16)), table));
  }
  hex_encode_tail(dst + 2 * i, src + i, n - i);
  return 2 * n;
}

/* 32 digits to their values; sets in *bad the bytes that are not digits. */
static inline __m256i values32(__m256i c, __m256i *bad) {
  const __m256i d = _mm256_sub_epi8(c, _mm256_set1_epi8('0'));
  const __m256i l = _mm256_sub_epi8(_mm256_or_si256(c, _mm256_set1_epi8(0x20)), _mm256_set1_epi8('a'));
  const __m256i is_d = _mm256_cmpeq_epi8(_mm256_min_epu8(d, _mm256_set1_epi8(9)), d);
  const __m256i is_l = _mm256_cmpeq_epi8(_mm256_min_epu8(l, _mm256_set1_epi8(5)), l);
  *bad = _mm256_or_si256(*bad, _mm256_xor_si256(_mm256_or_si256(is_d, is_l), _mm256_set1_epi8(-1)));
  return _mm256_blendv_epi8(_mm256_add_epi8(l, _mm256_set1_epi8(10)), d, is_d);
}

size_t hex_decode_avx2(uint8_t *dst, const char *src, size_t n) {
  if (n % 2 != 0) return HEX_INVALID;
  const __m256i weights = _mm256_set1_epi16(0x0110);
  __m256i bad = _mm256_setzero_si256();
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m256i a = _mm256_maddubs_epi16(values32(_mm256_loadu_si256((const __m256i *)(src + i)), &bad), weights);
    const __m256i b =
        _mm256_maddubs_epi16(values32(_mm256_loadu_si256((const __m256i *)(src + i + 32)), &bad), weights);
    /* vpackuswb packs within each half (a0-7 b0-7 | a8-15 b8-15): put the quarters back in order */
    _mm256_storeu_si256((__m256i *)(dst + i / 2),
                        _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), _MM_SHUFFLE(3, 1, 2, 0)));
  }
  if (!_mm256_testz_si256(bad, bad) || hex_decode_tail(dst + i / 2, src + i, n - i) != 0) return HEX_INVALID;
  return n / 2;
}
