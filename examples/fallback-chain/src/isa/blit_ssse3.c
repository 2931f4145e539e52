/* The SSSE3 layer: byte swaps with PSHUFB, four words at a time. Its adds
 * are the layer below's. */
#include <tmmintrin.h>

#include "blit_impl.h"

static void bswap32_ssse3(const struct blit_impl *self, uint32_t *p, size_t n) {
  const __m128i order = _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m128i v = _mm_loadu_si128((const __m128i *)(void *)(p + i));
    _mm_storeu_si128((__m128i *)(void *)(p + i), _mm_shuffle_epi8(v, order));
  }
  blit_bswap32_below(self, p + i, n - i);
}

void blit_init_ssse3(struct blit_impl *self, const struct blit_impl *fallback) {
  blit_layer_init(self, fallback, "ssse3");
  self->bswap32 = bswap32_ssse3;
}
