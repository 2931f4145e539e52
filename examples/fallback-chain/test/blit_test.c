/* Checks the library against the general layer on every length up to 300
 * (so every layer's vectors and each tail that falls to the layers below),
 * and prints the chain and the layer each operation starts in (read by
 * cpudispatch's test/example/run_fallback_chain.py). Under
 * `meson test --setup cpudispatch:each_target` or `each_cpu` it runs once per
 * target or CPU model, so every chain a CPU can get is checked. Exit status 0
 * when everything agrees. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "blit.h"

/* The reference: the general layer itself, compiled here as plain code. */
#include "../src/isa/blit_general.c"

enum { MAX_N = 300 };

static uint32_t next(uint32_t *s) { /* xorshift32: the same inputs on every run */
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

int main(void) {
  struct blit_impl general;
  uint8_t dst[MAX_N], src[MAX_N], want[MAX_N];
  uint32_t words[MAX_N], want_words[MAX_N], seed = 2463534242u;
  int failures = 0;
  char what[256];
  blit_init_general(&general);
  for (size_t n = 0; n <= MAX_N; ++n) {
    for (size_t i = 0; i < MAX_N; ++i) {
      dst[i] = want[i] = (uint8_t)next(&seed);
      src[i] = (uint8_t)next(&seed);
      words[i] = want_words[i] = next(&seed);
    }
    blit_add_sat(dst, src, n);
    general.add_sat(&general, want, src, n);
    blit_bswap32(words, n);
    general.bswap32(&general, want_words, n);
    /* Beyond n nothing may change: compared whole. */
    if (memcmp(dst, want, sizeof dst) != 0 && ++failures <= 10) printf("FAIL: blit_add_sat differs at length %zu\n", n);
    if (memcmp(words, want_words, sizeof words) != 0 && ++failures <= 10)
      printf("FAIL: blit_bswap32 differs at length %zu\n", n);
  }
  blit_describe(what, sizeof what);
  printf("%s\n", what);
  if (failures) return 1;
  printf("results match the general layer (lengths 0 to %d)\n", MAX_N);
  return 0;
}
