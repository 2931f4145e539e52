/* Redispatch from C: each build writes its name at names[0] and hands on to
 * the build below it (CPUD_DISPATCH_BELOW) until the baseline build, which
 * ends the list with a null; the redispatch test compares the chain with
 * the C++ dispatcher's and with the table walk (the same targets as
 * chain.dispatch.cpp, FMA4 among them). */
#include "chain_c.dispatch.h"

#include <stddef.h>

#include "cpudispatch/dispatch.h"

CPUD_DISPATCH_DEFINE(void, chain_c, (const char **names));
void CPUD_FN(chain_c)(const char **names) {
  void (*below)(const char **) = CPUD_DISPATCH_BELOW(chain_c);
  names[0] = CPUD_TARGET_NAME;
  if (below) {
    below(names + 1);
    return;
  }
  names[1] = NULL;
}
