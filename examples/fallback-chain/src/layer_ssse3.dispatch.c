/* The ssse3 layer file as a dispatch source of its own (target SSSE3): one
 * source per per-ISA file, so no two files share a translation unit (helpers
 * of one name, intrinsics headers that clash). Its one external name becomes
 * CPUD_FN(blit_layer_ssse3). */
#include "layer_ssse3.dispatch.h" /* first: CPUD_FN and the kernel names */

#define blit_init_ssse3 CPUD_FN(blit_layer_ssse3)
#include "isa/blit_ssse3.c"
