/* What every per-ISA file of the hex codec defines, ISA being the file's
 * suffix (scalar, sse41, avx2, neon), as a library that keeps one source
 * file per ISA has it:
 *
 *   size_t hex_encode_ISA(char *dst, const uint8_t *src, size_t n);
 *       writes the 2n lower-case hex digits of src[0..n) to dst; returns 2n
 *   size_t hex_decode_ISA(uint8_t *dst, const char *src, size_t n);
 *       the n digits of src (either case) as n/2 bytes; returns n/2, or
 *       HEX_INVALID when n is odd or a character is not a hex digit
 *   const struct hex_info hex_info_ISA;
 *       the file's descriptor (data, defined per file like the functions)
 *
 * and the scalar loops the SIMD files finish their tails with. Those are
 * static: each build that includes this header compiles its own copy with
 * its own flags, so no name needs renaming and no copy is shared. */
#ifndef HEX_ISA_H_
#define HEX_ISA_H_

#include <stddef.h>
#include <stdint.h>

struct hex_info {
  const char *file; /* "avx2": which per-ISA file this is */
  size_t block;     /* input bytes its encode loop takes per step (1: no SIMD) */
};

#define HEX_INVALID ((size_t)-1)

static const char hex_digits[16] = {'0', '1', '2', '3', '4', '5', '6', '7',
                                    '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};

static inline void hex_encode_tail(char *dst, const uint8_t *src, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    dst[2 * i] = hex_digits[src[i] >> 4];
    dst[2 * i + 1] = hex_digits[src[i] & 15];
  }
}

/* The value of one hex digit, or -1. */
static inline int hex_value(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* n (even) digits to n/2 bytes; 0, or -1 if a character is not a digit. */
static inline int hex_decode_tail(uint8_t *dst, const char *src, size_t n) {
  for (size_t i = 0; i + 1 < n; i += 2) {
    const int hi = hex_value((unsigned char)src[i]), lo = hex_value((unsigned char)src[i + 1]);
    if (hi < 0 || lo < 0) return -1;
    dst[i / 2] = (uint8_t)(hi << 4 | lo);
  }
  return 0;
}

#endif /* HEX_ISA_H_ */
