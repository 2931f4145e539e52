/* Calls a target-only C dispatch source through CPUD_DISPATCH_CALL. */
#include <stdio.h>

#include "nobase.dispatch.h"

CPUD_DISPATCH_DECLARE(int nobase_sum, (const int *, int))

int main(void) {
  const int v[4] = {1, 2, 3, 4};
  int s = CPUD_DISPATCH_CALL(nobase_sum, (v, 4));
  printf("sum %d\n", s);
  return s == 10 ? 0 : 1;
}
