// The kernel of two shared libraries (twin_a.dispatch.cpp and
// twin_b.dispatch.cpp, TWIN_LIB 'a' or 'b'), each with its own target list.
// The dispatched function and every target symbol have the same names in
// both.
#include TWIN_HEADER

const char *CPUD_FN(cpud_twin)() { return TWIN_LIB_NAME ":" CPUD_TARGET_NAME; }
