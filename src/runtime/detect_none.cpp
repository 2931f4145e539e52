// Arches without a detection backend: only group rows (which need nothing)
// count as detected, so no dispatch target is ever selected.
#include "detect.h"

namespace cpud::internal {

cpud_mask detect_raw(const cpud_mask &want) {
  feature_set raw;
#define CPUD__ROW(NAME, INTEREST, KIND, ...) \
  if (KIND == CPUD_DETECT_GROUP) raw |= CPUD_BIT(NAME);
  CPUD_FEATURES(CPUD__ROW)
#undef CPUD__ROW
  return raw & feature_set(want);
}

cpud_mask detect_raw_from(const cpud_cpu_report &, const cpud_mask &want, bool, reading_cost *) {
  return detect_raw(want);
}

int vector_feature() { return 0; }
int live_vector_bytes() { return 0; }

unsigned cpuid_count() { return 0; }
bool libc_cpuid_copy() { return false; }
unsigned leaves_read() { return 0; }
const char *leaf_name(int) { return nullptr; }

}  // namespace cpud::internal
