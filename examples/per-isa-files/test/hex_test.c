/* Checks the library against its scalar file on many inputs, and prints which
 * target and which per-ISA file each function ran on (one line each, read by
 * cpudispatch's test/example/run_per_isa.py). Under
 * `meson test --setup cpudispatch:each_target` or `each_cpu` it runs once per
 * target or CPU model, so every per-ISA file is checked. Exit status 0 when
 * everything agrees. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hex.h"

/* The reference: the scalar file itself, compiled here as plain code. */
#include "../src/isa/hex_scalar.c"

enum { MAX_BYTES = 300, TEXT = 2 * MAX_BYTES };

static int failures, inputs;

static void fail(const char *what, size_t n, size_t at) {
  if (++failures <= 10) printf("FAIL: %s (length %zu, at %zu)\n", what, n, at);
}

static uint32_t next(uint32_t *s) { /* xorshift32: the same inputs on every run */
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

/* src[0..n) through both directions, against the scalar file. */
static void round_trip(const uint8_t *src, size_t n, uint32_t *seed) {
  char text[TEXT], want[TEXT];
  uint8_t back[MAX_BYTES];
  ++inputs;
  if (hex_encode(text, src, n) != 2 * n) fail("hex_encode's length", n, 0);
  hex_encode_scalar(want, src, n);
  if (memcmp(text, want, 2 * n) != 0) fail("hex_encode differs from the scalar file", n, 0);
  for (size_t i = 0; i < 2 * n; ++i) /* either case decodes */
    if (next(seed) % 2 && text[i] >= 'a') text[i] = (char)(text[i] - 'a' + 'A');
  if (hex_decode(back, text, 2 * n) != (ptrdiff_t)n || memcmp(back, src, n) != 0)
    fail("hex_decode does not give the bytes back", n, 0);
}

/* Every byte value as every character of a text of n digits, in the SIMD
 * steps and in the tail: decoded as the scalar file decodes it. */
static void each_character(size_t n) {
  char text[TEXT];
  uint8_t got[MAX_BYTES], want[MAX_BYTES];
  for (size_t i = 0; i < n; ++i) text[i] = hex_digits[(i * 7) % 16];
  for (size_t at = 0; at < n; ++at) {
    for (int c = 0; c < 256; ++c) {
      const char keep = text[at];
      text[at] = (char)c;
      ++inputs;
      const size_t w = hex_decode_scalar(want, text, n);
      const ptrdiff_t g = hex_decode(got, text, n);
      if (w == HEX_INVALID ? g != -1 : (g != (ptrdiff_t)w || memcmp(got, want, w) != 0))
        fail("hex_decode differs from the scalar file on one character", n, at);
      if ((w == HEX_INVALID) != (hex_value((unsigned char)c) < 0)) fail("the scalar file on one character", n, at);
      text[at] = keep;
    }
  }
}

int main(void) {
  const struct hex_build enc = hex_encode_build(), dec = hex_decode_build();
  printf("hex_encode: %s %s\n", enc.target, enc.file);
  printf("hex_decode: %s %s\n", dec.target, dec.file);

  /* Known answers, for the scalar file itself. */
  const uint8_t bytes[] = {0x00, 0x01, 0x7f, 0x80, 0xab, 0xff};
  char text[TEXT];
  uint8_t back[MAX_BYTES];
  if (hex_encode_scalar(text, bytes, 6) != 12 || memcmp(text, "00017f80abff", 12) != 0) fail("known answer", 6, 0);
  if (hex_decode(back, "1", 1) != -1 || hex_decode(back, "0g", 2) != -1) fail("invalid input accepted", 2, 0);
  if (hex_decode(back, "AbCd", 4) != 2 || back[0] != 0xab || back[1] != 0xcd) fail("known answer", 4, 0);

  /* Every length up to MAX_BYTES: several SIMD steps of every file and each
   * tail; random bytes, then every byte value. */
  uint32_t seed = 2463534242u;
  uint8_t src[MAX_BYTES];
  for (size_t n = 0; n <= MAX_BYTES; ++n) {
    for (size_t i = 0; i < n; ++i) src[i] = (uint8_t)next(&seed);
    round_trip(src, n, &seed);
  }
  for (size_t i = 0; i < 256; ++i) src[i] = (uint8_t)i;
  round_trip(src, 256, &seed);
  each_character(2);                  /* the tail alone */
  each_character(4 * enc.block + 6);  /* two decode steps (2 * block digits each) and a tail */
  for (size_t n = 1; n < 20; n += 2) /* odd lengths */
    if (++inputs, hex_decode(back, "0123456789abcdef0123", n) != -1) fail("an odd length accepted", n, 0);

  if (failures) {
    printf("%d of %d inputs differ from the scalar reference\n", failures, inputs);
    return 1;
  }
  printf("results match the scalar reference on %d inputs\n", inputs);
  return 0;
}
