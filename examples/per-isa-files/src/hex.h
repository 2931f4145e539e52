/* hexcodec: bytes to hex digits and back, with one source file per ISA
 * (scalar, SSE4.1, AVX2, NEON) and the best one this CPU runs picked at run
 * time by cpudispatch. */
#ifndef HEX_H_
#define HEX_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the 2n lower-case hex digits of src[0..n) to dst (no NUL); returns 2n. */
size_t hex_encode(char *dst, const void *src, size_t n);
/* Decodes the n hex digits of src (either case) to n/2 bytes at dst; returns
 * n/2, or -1 when n is odd or a character is not a hex digit. */
ptrdiff_t hex_decode(void *dst, const char *src, size_t n);

/* What runs a function on this CPU: its dispatch target ("AVX2", "SSE41",
 * "baseline") and the per-ISA file compiled into that target ("avx2",
 * "sse41", "neon", "scalar"). */
struct hex_build {
  const char *target;
  const char *file;
  size_t block; /* the file's encode step, in input bytes */
};
struct hex_build hex_encode_build(void);
struct hex_build hex_decode_build(void);

#ifdef __cplusplus
}
#endif
#endif /* HEX_H_ */
