/* A library's API function whose whole body is a cached dispatched call,
 * as xxHash's XXH3_64bits_dispatch: its hot path must be the load, the test
 * and the jump through the cached pointer, with the first call's selection
 * out of line (cpudispatch/dispatch.h, CPUD__COLD_PATH). Built at -O2 by
 * test/runtime/meson.build, and once with CPUD__INLINE_COLD_PATH (the
 * control). */
#include "hot.dispatch.h"

CPUD_DISPATCH_DEFINE(int, hot_add, (int, int));

int hot_path_api(int a, int b);
int hot_path_api(int a, int b) { return CPUD_DISPATCH_CALL_CACHED(hot_add, (a, b)); }
