// docs/api.md's C cached dispatcher from C++ (inside extern "C": total is a
// C dispatch source), in api_cxx_test: it compiles and selects as in C, and
// agrees with the C++ dispatcher of the same source, target by target and
// under every mask tried.
#include "cpudispatch/functions.h"
#include "cpudispatch/testing.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "total.dispatch.h"
extern "C" {
CPUD_DISPATCH_DEFINE(int, total, (const int *, int, char *));
}
#include "cpudispatch/dispatch.hpp"
namespace cxx {
extern "C" {
CPUD_DISPATCH(int, total, (const int *, int, char *));
}
}  // namespace cxx

#define EXPECT(c) ((c) ? (void)0 : (std::fprintf(stderr, "api-cxx-c-cached: FAIL line %d: %s\n", __LINE__, #c), std::exit(1)))

int docs_api_cxx_c_cached();

namespace {
void agree(const char *why, const char *process_name = nullptr) {
  const char *name = CPUD_DISPATCH_SELECTED_NAME(total);
  if (!name || std::strcmp(name, cxx::total.selected_name()) != 0) {
    std::fprintf(stderr, "api-cxx-c-cached: %s: C selects %s, C++ %s\n", why, name ? name : "none",
                 cxx::total.selected_name());
    EXPECT(0);
  }
  EXPECT(CPUD_DISPATCH_CACHED(total) == cxx::total.get());
  EXPECT(CPUD_DISPATCH_SELECT(total) == cxx::total.get());
  char log[64] = "";
  const int v[2] = {1, 2};
  EXPECT(CPUD_DISPATCH_CALL_CACHED(total, (v, 2, log)) == 3 && std::strncmp(log, name, std::strlen(name)) == 0);
  // The record's selected() is the process's selection (a restricted
  // thread's calls select per call), as the C++ dispatcher's record says.
  const cpud_function *c_rec = CPUD_DISPATCH_RECORD(total), *cxx_rec = cpud_functions();
  while (cxx_rec && (cxx_rec == c_rec || std::strcmp(cxx_rec->name, "total") != 0)) cxx_rec = cxx_rec->next;
  EXPECT(cxx_rec && c_rec->selected() == cxx_rec->selected() && c_rec->selected() >= 0);
  EXPECT(std::strcmp(c_rec->target_name(c_rec->selected()), process_name ? process_name : name) == 0);
  // PICK answers each entry as the C++ dispatcher's usable() does.
  int i = 0;
  for (const auto *e = cxx::total.targets(); e->fn; ++e, ++i) {
    int status = -1;
    const auto fn = CPUD_DISPATCH_PICK(total, e->name, &status);
    const bool usable = decltype(cxx::total)::usable(*e);
    EXPECT(status == (usable ? CPUD_PICK_OK : CPUD_PICK_NOT_USABLE) && fn == (usable ? e->fn : nullptr));
    EXPECT(std::strcmp(CPUD_DISPATCH_RECORD(total)->target_name(i), e->name) == 0);
    EXPECT(CPUD_DISPATCH_RECORD(total)->target_feature(i) == e->feature);
  }
  EXPECT(i == CPUD_DISPATCH_RECORD(total)->target_count());
}
}  // namespace

int docs_api_cxx_c_cached() {
  agree("as started");
  const cpud::feature_set det = cpud_detected_mask();
  for (int drop = 1; drop <= CPUD_FEATURE_COUNT; ++drop) {
    if (!det.has(drop)) continue;
    cpud::scoped_features without(det & ~cpud::feature_set(drop));
    agree(cpud_feature_name(drop));
  }
  {
    const std::string top = cxx::total.selected_name();
    cpud::only_features guard({});
    agree("thread restricted to the baseline", top.c_str());
    EXPECT(std::strcmp(CPUD_DISPATCH_SELECTED_NAME(total), "baseline") == 0);
  }
  agree("restored");
  return 0;
}
