// Internal: the run-time masks from PREFIX_DISABLE_CPU_FEATURES and
// PREFIX_ENABLE_CPU_FEATURES. A pure function of its inputs, so the tests
// call it directly as well as through real environment variables.
#ifndef CPUDISPATCH_SRC_ENV_MASKS_H_
#define CPUDISPATCH_SRC_ENV_MASKS_H_

#include <cstddef>
#include <cstdint>

#include "cpudispatch/cpudispatch.h"

// Sets cross this interface as cpud_mask, the C type: the runtime's
// cpud::feature_set has internal linkage (cpudispatch.h says why), so tests
// and benchmarks that call it use their own.
namespace cpud::internal {

constexpr std::size_t k_env_max_len = 1024;

struct env_inputs {
  const char *disable;       // value or nullptr
  const char *enable;        // value or nullptr
  cpud_mask usable;      // detected and closed over implied features
  cpud_mask baseline;    // the build's baseline, closed
  cpud_mask dispatched;  // dispatch targets and what they imply
  cpud_mask targets;     // the dispatch targets themselves
  // 1: those are what this program's dispatch sources were compiled for
  // (include/cpudispatch/compiled.h); 0: the build's cpu-dispatch set.
  int compiled;
};

struct env_outcome {
  bool ok;
  cpud_mask usable;    // after the masks
  char error[2048];    // set when !ok: one line, no trailing newline
  char warning[1536];     // may be set when ok: one line per warning
};

CPUD_HIDDEN env_outcome apply_env_masks(const env_inputs &in);

// A variable's value that is set: it holds at least one name (not only
// separators); else nullptr, as for an unset variable.
CPUD_HIDDEN const char *names_something(const char *value);

}  // namespace cpud::internal

#endif
