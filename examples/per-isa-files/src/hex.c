/* The library's public functions: baseline code that calls the best build of
 * hex.dispatch.c this CPU can run. */
#include "hex.h"

#include <stdint.h>

#include "hex.dispatch.h"
#include "isa/hex_isa.h" /* struct hex_info */

/* Cached dispatchers: the first call selects, later calls are one load and
 * an indirect call (docs/api.md). */
CPUD_DISPATCH_DEFINE(size_t, hex_encode, (char *, const uint8_t *, size_t));
CPUD_DISPATCH_DEFINE(size_t, hex_decode, (uint8_t *, const char *, size_t));
/* The per-target data, through its accessor. */
CPUD_DISPATCH_DECLARE(const struct hex_info *hex_info_of, (void))

size_t hex_encode(char *dst, const void *src, size_t n) {
  return CPUD_DISPATCH_CALL_CACHED(hex_encode, (dst, (const uint8_t *)src, n));
}

ptrdiff_t hex_decode(void *dst, const char *src, size_t n) {
  const size_t r = CPUD_DISPATCH_CALL_CACHED(hex_decode, ((uint8_t *)dst, src, n));
  return r == HEX_INVALID ? -1 : (ptrdiff_t)r;
}

/* hex_info_of has the same target list as the functions (one source), so
 * the same CHECK chain picks the same target for it. */
static struct hex_build build(const char *target) {
  const struct hex_info *info = CPUD_DISPATCH_CALL(hex_info_of, ());
  struct hex_build b = {target, info->file, info->block};
  return b;
}

struct hex_build hex_encode_build(void) { return build(CPUD_DISPATCH_SELECTED_NAME(hex_encode)); }
struct hex_build hex_decode_build(void) { return build(CPUD_DISPATCH_SELECTED_NAME(hex_decode)); }
