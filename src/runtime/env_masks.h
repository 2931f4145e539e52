// Internal: the run-time masks from PREFIX_DISABLE_CPU_FEATURES and
// PREFIX_ENABLE_CPU_FEATURES. A pure function of its inputs, so the tests
// call it directly as well as through real environment variables.
#ifndef CPUDISPATCH_SRC_ENV_MASKS_H_
#define CPUDISPATCH_SRC_ENV_MASKS_H_

#include <cstddef>
#include <cstdint>

#include "cpudispatch/cpudispatch.h"

namespace cpud::internal {

constexpr std::size_t k_env_max_len = 1024;

struct env_inputs {
  const char *disable;       // value or nullptr
  const char *enable;        // value or nullptr
  std::uint64_t usable;      // detected and closed over implied features
  std::uint64_t baseline;    // the build's baseline, closed
  std::uint64_t dispatched;  // dispatch targets of the build and what they imply
  std::uint64_t targets;     // the dispatch targets themselves
};

struct env_outcome {
  bool ok;
  std::uint64_t usable;  // after the masks
  char error[1280];      // set when !ok: one line, no trailing newline
  char warning[1536];     // may be set when ok: one line per warning
};

CPUD_HIDDEN env_outcome apply_env_masks(const env_inputs &in);

}  // namespace cpud::internal

#endif
