/* SPDX-License-Identifier: MIT */
/* Internal: the run-time masks from PREFIX_DISABLE_CPU_FEATURES and
 * PREFIX_ENABLE_CPU_FEATURES. A pure function of its inputs, so the tests
 * call it directly as well as through real environment variables. */
#ifndef CPUDISPATCH_SRC_ENV_MASKS_H_
#define CPUDISPATCH_SRC_ENV_MASKS_H_

#include <stddef.h>
#include <stdint.h>

#include "cpudispatch/cpudispatch.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CPUD__ENV_MAX_LEN 1024

typedef struct cpud__env_inputs {
  const char *disable;  /* value or NULL */
  const char *enable;   /* value or NULL */
  cpud_mask usable;     /* detected and closed over implied features */
  cpud_mask baseline;   /* the build's baseline, closed */
  cpud_mask dispatched; /* dispatch targets and what they imply */
  cpud_mask targets;    /* the dispatch targets themselves */
  /* 1: those are what this program's dispatch sources were compiled for
   * (include/cpudispatch/compiled.h); 0: the build's cpu-dispatch set. */
  int compiled;
} cpud__env_inputs;

typedef struct cpud__env_outcome {
  int ok;
  cpud_mask usable;  /* after the masks */
  char error[2048];  /* set when !ok: one line, no trailing newline */
  char warning[1536]; /* may be set when ok: one line per warning */
} cpud__env_outcome;

/* Writes the outcome to *out (large: callers keep it off small stacks). */
CPUD_HIDDEN void cpud__apply_env_masks(const cpud__env_inputs *in, cpud__env_outcome *out);

/* A variable's value that is set: it holds at least one name (not only
 * separators); else NULL, as for an unset variable. */
CPUD_HIDDEN const char *cpud__names_something(const char *value);

#ifdef __cplusplus
}

#include <cstddef>

CPUD_NAMESPACE_BEGIN
namespace internal {
constexpr std::size_t k_env_max_len = CPUD__ENV_MAX_LEN;
using env_inputs = cpud__env_inputs;
using env_outcome = cpud__env_outcome;
inline env_outcome apply_env_masks(const env_inputs &in) {
  env_outcome out;
  cpud__apply_env_masks(&in, &out);
  return out;
}
inline const char *names_something(const char *value) { return cpud__names_something(value); }
}  // namespace internal
CPUD_NAMESPACE_END  // namespace cpud
#endif

#endif
