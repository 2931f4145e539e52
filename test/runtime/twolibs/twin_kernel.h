// The kernel of two shared libraries (twin_a.dispatch.cpp and
// twin_b.dispatch.cpp, TWIN_LIB 'a' or 'b'), each with its own target list.
// The dispatched function and every target symbol have the same names in
// both.
#include TWIN_HEADER

const char *CPUD_FN(cpud_twin)() { return TWIN_LIB_NAME ":" CPUD_TARGET_NAME; }

// Redispatch in both libraries, again with the same names: each build
// appends "LIB:TARGET " to out and hands on to the build below it in its
// own library (CPUD_BELOW), down to that library's baseline build.
#include <cstring>

#include "cpudispatch/dispatch.hpp"
CPUD_DISPATCH(void, cpud_twin_chain, (char *));
void CPUD_FN(cpud_twin_chain)(char *out) {
  std::strcat(out, TWIN_LIB_NAME ":" CPUD_TARGET_NAME " ");
  if (auto below = CPUD_BELOW(cpud_twin_chain)) below(out);
}
