/* The kernels, compiled once per target. Every library made of this
 * template has them under the same names: simd_add_AVX2, simd_target_AVX2,
 * ... Each adds its own library's number, so a program can tell whose
 * kernel served a call. */
#include "simd.dispatch.h"

int CPUD_FN(simd_add)(int x) { return x + @ADD@; }
const char *CPUD_FN(simd_target)(void) { return CPUD_TARGET_NAME; }
