/* The neon layer file as a dispatch source of its own (target ASIMD): one
 * source per per-ISA file, so no two files share a translation unit (helpers
 * of one name, intrinsics headers that clash). Its one external name becomes
 * CPUD_FN(blit_layer_neon). */
#include "layer_neon.dispatch.h" /* first: CPUD_FN and the kernel names */

#define blit_init_neon CPUD_FN(blit_layer_neon)
#include "isa/blit_neon.c"
