/* The NEON layer (AArch64): saturating adds and byte swaps, 16 bytes at a
 * time; tails to the layer below. */
#include <arm_neon.h>

#include "blit_impl.h"

static void add_sat_neon(const struct blit_impl *self, uint8_t *dst, const uint8_t *src, size_t n) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) vst1q_u8(dst + i, vqaddq_u8(vld1q_u8(dst + i), vld1q_u8(src + i)));
  blit_add_sat_below(self, dst + i, src + i, n - i);
}

static void bswap32_neon(const struct blit_impl *self, uint32_t *p, size_t n) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) vst1q_u32(p + i, vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32(vld1q_u32(p + i)))));
  blit_bswap32_below(self, p + i, n - i);
}

void blit_init_neon(struct blit_impl *self, const struct blit_impl *fallback) {
  blit_layer_init(self, fallback, "neon");
  self->add_sat = add_sat_neon;
  self->bswap32 = bswap32_neon;
}
