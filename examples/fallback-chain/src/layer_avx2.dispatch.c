/* The avx2 layer file as a dispatch source of its own (target AVX2): one
 * source per per-ISA file, so no two files share a translation unit (helpers
 * of one name, intrinsics headers that clash). Its one external name becomes
 * CPUD_FN(blit_layer_avx2). */
#include "layer_avx2.dispatch.h" /* first: CPUD_FN and the kernel names */

#define blit_init_avx2 CPUD_FN(blit_layer_avx2)
#include "isa/blit_avx2.c"
