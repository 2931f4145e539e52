/* blit: two pixel operations over a chain of implementations. */
#ifndef BLIT_H_
#define BLIT_H_

#include <stddef.h>
#include <stdint.h>

/* dst[i] = min(dst[i] + src[i], 255) */
void blit_add_sat(uint8_t *dst, const uint8_t *src, size_t n);
/* p[i] with its four bytes reversed */
void blit_bswap32(uint32_t *p, size_t n);
/* The chain, lowest layer first ("general sse2 ssse3 avx2"), and the layer
 * each operation starts in, as three lines of text into buf. */
void blit_describe(char *buf, size_t cap);

#endif /* BLIT_H_ */
