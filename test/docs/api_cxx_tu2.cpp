// The second translation unit of api_cxx_test (see api_probes.h).
#include "cpudispatch/functions.h"
#include <cstring>

#include "api_probes.h"

int docs_api_tu2_select_scale_have() {
  (void)scale_have.get();
  int n = 0;
  for (const cpud_function *f = cpud_functions(); f; f = f->next) n += !std::strcmp(f->name, "scale_have");
  return n;
}
