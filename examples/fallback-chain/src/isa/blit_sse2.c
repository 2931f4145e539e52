/* The SSE2 layer: saturating adds 16 bytes at a time. SSE2 has no byte
 * shuffle, so byte swaps stay with the layer below. */
#include <emmintrin.h>

#include "blit_impl.h"

static void add_sat_sse2(const struct blit_impl *self, uint8_t *dst, const uint8_t *src, size_t n) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(dst + i));
    const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
    _mm_storeu_si128((__m128i *)(void *)(dst + i), _mm_adds_epu8(a, b));
  }
  blit_add_sat_below(self, dst + i, src + i, n - i);
}

void blit_init_sse2(struct blit_impl *self, const struct blit_impl *fallback) {
  blit_layer_init(self, fallback, "sse2");
  self->add_sat = add_sat_sse2;
}
