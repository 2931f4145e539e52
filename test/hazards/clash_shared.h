// An inline function used only by target builds, of two dispatch sources
// whose targets (X86_V3 and AVX512_SKX) do not imply each other: no link
// order can make one copy safe for both (AVX512_SKX does not imply BMI,
// LZCNT, MOVBE). It returns the target it was compiled for, so a program
// can tell which copy served which code.
#ifndef CPUD_TEST_CLASH_SHARED_H_
#define CPUD_TEST_CLASH_SHARED_H_

#include "cpudispatch/dispatch.h"

__attribute__((noinline)) inline const char *clash_built_for() { return CPUD_TARGET_NAME; }

#endif
