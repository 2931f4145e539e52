/* docs/api.md's C redispatch example, compiled once per target of
 * test/docs/meson.build's list; the block between the markers is the docs
 * block, verbatim. api_c_test.c checks its sums. */
/* api-redispatch-c:start */
/* bulk_c.dispatch.c, compiled once per target of
 * "baseline SSE42 X86_V3 AVX512_SKX ASIMDDP VSX3" */
#include <stddef.h>

#include "bulk_c.dispatch.h"

/* The function's own cached dispatcher, static to each build of this file. */
CPUD_DISPATCH_DEFINE(long, bulk_total, (const int *, size_t));

/* The build below handles what is left after whole blocks of 8. */
long CPUD_FN(bulk_total)(const int *p, size_t n) {
  long (*below)(const int *, size_t) = CPUD_DISPATCH_BELOW(bulk_total);
  long s = 0;
  size_t i = 0;
  if (below) {
    for (; i + 8 <= n; i += 8) {
      int j;
      for (j = 0; j < 8; ++j) s += p[i + j];
    }
    return i < n ? s + below(p + i, n - i) : s;
  }
  for (; i < n; ++i) s += p[i]; /* the baseline build: nothing below */
  return s;
}
/* api-redispatch-c:end */
