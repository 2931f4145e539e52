/* The dispatch source: meson.build compiles it once per target of
 * 'baseline SSE41 AVX2 ASIMD', and each build takes the best per-ISA file its
 * flags allow (docs/per-isa-files.md). The per-ISA files in isa/ are not
 * sources of their own: they are compiled only here. */
#include "hex.dispatch.h" /* first: it defines this build's CPUD_HAVE_* */

/* The chain asks CPUD_HAVE_<F> (what this build's flags allow: its target,
 * what that implies, and the baseline), not CPUD_TARGET_<F> (its target
 * alone): so the baseline build takes hex_avx2.c when the baseline has AVX2
 * (cpu-baseline=x86_v3) and hex_neon.c on aarch64, where NEON is baseline.
 * Each branch renames the file's entry points and its data to this build's
 * names (hex_encode_AVX2, hex_info_baseline, ...): the names the
 * CPUD_DISPATCH macros of hex.c look for, and never the same in two builds. */
#if defined(CPUD_HAVE_AVX2)
#define hex_encode_avx2 CPUD_FN(hex_encode)
#define hex_decode_avx2 CPUD_FN(hex_decode)
#define hex_info_avx2 CPUD_FN(hex_info)
#include "isa/hex_avx2.c"
#elif defined(CPUD_HAVE_SSE41)
#define hex_encode_sse41 CPUD_FN(hex_encode)
#define hex_decode_sse41 CPUD_FN(hex_decode)
#define hex_info_sse41 CPUD_FN(hex_info)
#include "isa/hex_sse41.c"
#elif defined(CPUD_HAVE_ASIMD) && defined(__aarch64__) /* A64's table lookups: 32-bit arm takes the scalar file */
#define hex_encode_neon CPUD_FN(hex_encode)
#define hex_decode_neon CPUD_FN(hex_decode)
#define hex_info_neon CPUD_FN(hex_info)
#include "isa/hex_neon.c"
#else
#define hex_encode_scalar CPUD_FN(hex_encode)
#define hex_decode_scalar CPUD_FN(hex_decode)
#define hex_info_scalar CPUD_FN(hex_info)
#include "isa/hex_scalar.c"
#endif

/* The descriptor, for baseline code: dispatched like the functions. */
const struct hex_info *CPUD_FN(hex_info_of)(void) { return &CPUD_FN(hex_info); }
