/* The AVX2 layer: saturating adds 32 bytes at a time; a tail of 16 or more
 * goes to the SSE2 layer below it, the rest further down. */
#include <immintrin.h>

#include "blit_impl.h"

static void add_sat_avx2(const struct blit_impl *self, uint8_t *dst, const uint8_t *src, size_t n) {
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(dst + i));
    const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(src + i));
    _mm256_storeu_si256((__m256i *)(void *)(dst + i), _mm256_adds_epu8(a, b));
  }
  blit_add_sat_below(self, dst + i, src + i, n - i);
}

void blit_init_avx2(struct blit_impl *self, const struct blit_impl *fallback) {
  blit_layer_init(self, fallback, "avx2");
  self->add_sat = add_sat_avx2;
}
