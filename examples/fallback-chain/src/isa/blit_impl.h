/* A blit implementation, as the library has it: a layer over the layer
 * below it (its fallback), each per-ISA file making one layer that does the
 * operations its ISA is good at and leaves the rest, and its tails, to the
 * layers below. The chain is built once, lowest first (src/blit.c):
 *
 *   general (every operation, plain C) < sse2 < ssse3 < avx2   on x86
 *   general < neon                                               on aarch64
 *
 * Every per-ISA file defines one external name:
 *
 *   void blit_init_ISA(struct blit_impl *self, const struct blit_impl *fallback);
 *       makes *self the ISA's layer over fallback
 *
 * and everything else static. This header's helpers are static too: each
 * build that includes it compiles its own copy with its own flags. */
#ifndef BLIT_IMPL_H_
#define BLIT_IMPL_H_

#include <stddef.h>
#include <stdint.h>

struct blit_impl;
/* dst[i] = min(dst[i] + src[i], 255) */
typedef void blit_add_sat_fn(const struct blit_impl *self, uint8_t *dst, const uint8_t *src, size_t n);
/* p[i] with its four bytes reversed */
typedef void blit_bswap32_fn(const struct blit_impl *self, uint32_t *p, size_t n);

struct blit_impl {
  const struct blit_impl *fallback; /* the layer below; NULL for general */
  const char *name;                 /* "sse2": the per-ISA file */
  blit_add_sat_fn *add_sat;         /* NULL: a layer below does it */
  blit_bswap32_fn *bswap32;
};

static inline void blit_layer_init(struct blit_impl *self, const struct blit_impl *fallback, const char *name) {
  self->fallback = fallback;
  self->name = name;
  self->add_sat = NULL;
  self->bswap32 = NULL;
}

/* The first layer from `impl` down that does the operation. general does
 * all, so the walk ends there. */
static inline const struct blit_impl *blit_find_add_sat(const struct blit_impl *impl) {
  while (!impl->add_sat) impl = impl->fallback;
  return impl;
}
static inline const struct blit_impl *blit_find_bswap32(const struct blit_impl *impl) {
  while (!impl->bswap32) impl = impl->fallback;
  return impl;
}

/* What a layer does not finish (a tail shorter than its vectors), done by
 * the layers below it. */
static inline void blit_add_sat_below(const struct blit_impl *self, uint8_t *dst, const uint8_t *src, size_t n) {
  const struct blit_impl *below = blit_find_add_sat(self->fallback);
  below->add_sat(below, dst, src, n);
}
static inline void blit_bswap32_below(const struct blit_impl *self, uint32_t *p, size_t n) {
  const struct blit_impl *below = blit_find_bswap32(self->fallback);
  below->bswap32(below, p, n);
}

void blit_init_general(struct blit_impl *self);

#endif /* BLIT_IMPL_H_ */
