/* The NEON file (AArch64 Advanced SIMD): 16 bytes per step. On aarch64 NEON
 * is in every baseline, so the baseline build includes it: hex.dispatch.c
 * chooses by CPUD_HAVE_ASIMD, not CPUD_TARGET_ASIMD (docs/per-isa-files.md). */
#include <arm_neon.h>

#include "hex_isa.h"

const struct hex_info hex_info_neon = {"neon", 16};

size_t hex_encode_neon(char *dst, const uint8_t *src, size_t n) {
  const uint8x16_t table = vld1q_u8((const uint8_t *)hex_digits);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const uint8x16_t v = vld1q_u8(src + i);
    uint8x16x2_t digits;
    digits.val[0] = vqtbl1q_u8(table, vshrq_n_u8(v, 4));
    digits.val[1] = vqtbl1q_u8(table, vandq_u8(v, vdupq_n_u8(15)));
    vst2q_u8((uint8_t *)dst + 2 * i, digits); /* interleaved: high digit, low digit, ... */
  }
  hex_encode_tail(dst + 2 * i, src + i, n - i);
  return 2 * n;
}

/* 16 digits to their values; sets in *bad the bytes that are not digits. */
static inline uint8x16_t values16(uint8x16_t c, uint8x16_t *bad) {
  const uint8x16_t d = vsubq_u8(c, vdupq_n_u8('0'));
  const uint8x16_t l = vsubq_u8(vorrq_u8(c, vdupq_n_u8(0x20)), vdupq_n_u8('a'));
  const uint8x16_t is_d = vcleq_u8(d, vdupq_n_u8(9)), is_l = vcleq_u8(l, vdupq_n_u8(5));
  *bad = vorrq_u8(*bad, vmvnq_u8(vorrq_u8(is_d, is_l)));
  return vbslq_u8(is_d, d, vaddq_u8(l, vdupq_n_u8(10)));
}

size_t hex_decode_neon(uint8_t *dst, const char *src, size_t n) {
  if (n % 2 != 0) return HEX_INVALID;
  uint8x16_t bad = vdupq_n_u8(0);
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const uint8x16x2_t c = vld2q_u8((const uint8_t *)src + i); /* de-interleaved: high digits, low digits */
    const uint8x16_t hi = values16(c.val[0], &bad), lo = values16(c.val[1], &bad);
    vst1q_u8(dst + i / 2, vsliq_n_u8(lo, hi, 4)); /* hi << 4 | lo */
  }
  if (vmaxvq_u8(bad) != 0 || hex_decode_tail(dst + i / 2, src + i, n - i) != 0) return HEX_INVALID;
  return n / 2;
}
