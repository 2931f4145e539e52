/* SPDX-License-Identifier: MIT */
/* Detection from a described CPU (cpudispatch/testing.h): what such a CPU
 * would be detected with, dispatching as on it, and the vector length an
 * assumed CPU reports. Layer 7. */
#include "cpudispatch/testing.h"
#include "detect.h"
#include "process_state.h"
#include "startup.h"

static int g_vector_bytes = -1; /* an assumed CPU's; -1: ask this one */

cpud_mask cpud_detect_cpu(const cpud_cpu_report *cpu) {
  return cpu ? cpud__close_over_implied(cpud__detect_raw_from(cpu, cpud__every_feature(), 0, NULL)) : cpud_mask_none();
}

void cpud_assume_cpu(const cpud_cpu_report *cpu) {
  (void)cpud_usable_mask();
  const cpud_mask detected = cpud_detect_cpu(cpu);
  cpud__env_outcome o;
  cpud__apply_env(detected, &o);
  __atomic_store_n(&g_vector_bytes, cpu ? cpu->vector_bytes : 0, __ATOMIC_RELAXED);
  cpud__replace_detected(detected, o.usable);
  cpud__print_warnings(o.warning);
}

int cpud_vector_bytes(void) {
  /* 0 unless the vectors' feature is usable, for a described CPU too (its
   * report may give a length with SVE masked or absent). */
  const int f = cpud__vector_feature();
  if (!f || !cpud_have(f)) return 0;
  const int assumed = __atomic_load_n(&g_vector_bytes, __ATOMIC_RELAXED);
  return assumed >= 0 ? assumed : cpud__live_vector_bytes();
}
