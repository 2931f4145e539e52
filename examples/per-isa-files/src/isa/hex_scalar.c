/* The scalar file: the reference every other file must agree with, and what
 * runs where no SIMD file applies. Not a source of its own in meson.build:
 * hex.dispatch.c includes it (docs/per-isa-files.md). */
#include "hex_isa.h"

const struct hex_info hex_info_scalar = {"scalar", 1};

size_t hex_encode_scalar(char *dst, const uint8_t *src, size_t n) {
  hex_encode_tail(dst, src, n);
  return 2 * n;
}

size_t hex_decode_scalar(uint8_t *dst, const char *src, size_t n) {
  if (n % 2 != 0 || hex_decode_tail(dst, src, n) != 0) return HEX_INVALID;
  return n / 2;
}
