/* A kernel whose name the generated header cannot map into the build's
 * namespace: a macro of another file makes it (unmapped_kernel.h), so
 * neither the text nor its own macros give it to cpudispatch-gen. In a
 * static link another library's unmapped_add_<TARGET> could serve this
 * one's calls; cpudispatch-check must refuse the builds and say how to
 * name it. */
#include "unmapped.dispatch.h"
#include "unmapped_kernel.h"

int UNMAPPED_KERNEL(unmapped_add)(int x);
int UNMAPPED_KERNEL(unmapped_add)(int x) { return x + 1; }
