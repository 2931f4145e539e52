/* The public API: the chain of layers, built on the first call, lowest
 * first. Each layer above general is a dispatch source with one target; its
 * init function is reached through the cached dispatcher, which gives NULL
 * where that target cannot run (no baseline build in its list): the layer
 * is left out and the next one goes over the layers below. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blit.h"
#include "isa/blit_impl.h"
/* The layers' dispatch headers, in any order: CPUD_DISPATCH_DEFINE takes
 * the targets of the source that defines each name. */
#include "layer_sse2.dispatch.h"
#include "layer_ssse3.dispatch.h"
#include "layer_avx2.dispatch.h"
#include "layer_neon.dispatch.h"
CPUD_DISPATCH_DEFINE(void, blit_layer_sse2, (struct blit_impl *, const struct blit_impl *));
CPUD_DISPATCH_DEFINE(void, blit_layer_ssse3, (struct blit_impl *, const struct blit_impl *));
CPUD_DISPATCH_DEFINE(void, blit_layer_avx2, (struct blit_impl *, const struct blit_impl *));
CPUD_DISPATCH_DEFINE(void, blit_layer_neon, (struct blit_impl *, const struct blit_impl *));

typedef void blit_init_fn(struct blit_impl *self, const struct blit_impl *fallback);

static struct blit_impl layers[5]; /* general and at most four above it */
static const struct blit_impl *top, *add_sat_in, *bswap32_in;
static pthread_once_t built = PTHREAD_ONCE_INIT;

/* The library's own variable from before cpudispatch: BLIT_DISABLE="ssse3
 * avx2" leaves those layers out (names separated by spaces or commas).
 * cpudispatch's variables apply besides: a layer is there when both allow. */
static int disabled_by_user(const char *name) {
  const char *v = getenv("BLIT_DISABLE");
  const size_t len = strlen(name);
  for (; v && *v; v += strcspn(v, " ,")) {
    v += strspn(v, " ,");
    if (strncmp(v, name, len) == 0 && (v[len] == 0 || v[len] == ' ' || v[len] == ','))
      return 1;
  }
  return 0;
}

static void build_chain(void) {
  /* Lowest first: each layer is made over the one below it. */
  blit_init_fn *const above[] = {CPUD_DISPATCH_CACHED(blit_layer_sse2), CPUD_DISPATCH_CACHED(blit_layer_ssse3),
                                 CPUD_DISPATCH_CACHED(blit_layer_avx2), CPUD_DISPATCH_CACHED(blit_layer_neon)};
  static const char *const names[] = {"sse2", "ssse3", "avx2", "neon"};
  size_t n = 0;
  blit_init_general(&layers[0]);
  for (size_t i = 0; i < sizeof above / sizeof above[0]; ++i)
    if (above[i] && !disabled_by_user(names[i])) { /* NULL: this CPU (or a mask) cannot run the layer's target */
      above[i](&layers[n + 1], &layers[n]);
      ++n;
    }
  top = &layers[n];
  add_sat_in = blit_find_add_sat(top);
  bswap32_in = blit_find_bswap32(top);
}

void blit_add_sat(uint8_t *dst, const uint8_t *src, size_t n) {
  pthread_once(&built, build_chain);
  add_sat_in->add_sat(add_sat_in, dst, src, n);
}

void blit_bswap32(uint32_t *p, size_t n) {
  pthread_once(&built, build_chain);
  bswap32_in->bswap32(bswap32_in, p, n);
}

void blit_describe(char *buf, size_t cap) {
  size_t at = 0;
  pthread_once(&built, build_chain);
  buf[0] = 0;
  for (const struct blit_impl *l = &layers[0]; at < cap; ++l) {
    at += (size_t)snprintf(buf + at, cap - at, "%s%s", l == &layers[0] ? "chain: " : " ", l->name);
    if (l == top) break;
  }
  if (at < cap) snprintf(buf + at, cap - at, "\nadd_sat: %s\nbswap32: %s", add_sat_in->name, bswap32_in->name);
}
