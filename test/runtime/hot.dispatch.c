/* A small kernel called through CPUD_DISPATCH_CALL_CACHED by hot_path_api.c:
 * test cached-call-hot-path reads that caller's machine code. */
#include "hot.dispatch.h"

int CPUD_FN(hot_add)(int a, int b);
int CPUD_FN(hot_add)(int a, int b) { return a + b + 1; }
