/* The general layer: every operation in plain C, the bottom of every chain.
 * Ordinary code of the library (a source in meson.build), built with the
 * baseline's flags. */
#include "blit_impl.h"

static void add_sat_general(const struct blit_impl *self, uint8_t *dst, const uint8_t *src, size_t n) {
  (void)self;
  for (size_t i = 0; i < n; ++i) {
    const unsigned v = (unsigned)dst[i] + src[i];
    dst[i] = (uint8_t)(v > 255 ? 255 : v);
  }
}

static void bswap32_general(const struct blit_impl *self, uint32_t *p, size_t n) {
  (void)self;
  for (size_t i = 0; i < n; ++i)
    p[i] = (p[i] >> 24) | ((p[i] >> 8) & 0xff00u) | ((p[i] << 8) & 0xff0000u) | (p[i] << 24);
}

void blit_init_general(struct blit_impl *self) {
  blit_layer_init(self, NULL, "general");
  self->add_sat = add_sat_general;
  self->bswap32 = bswap32_general;
}
