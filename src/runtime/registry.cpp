// The list of dispatched functions that have selected a target, for
// introspection (cpudispatch-info) and for re-selecting them in tests.
#include "detect.h"

namespace {
cpud_function *g_head = nullptr;
}

extern "C" {

void cpud__register(cpud_function *f) {
  int expected = 0;
  // Only the first registration of a function links it in.
  if (!__atomic_compare_exchange_n(&f->registered, &expected, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return;
  cpud_function *head = __atomic_load_n(&g_head, __ATOMIC_ACQUIRE);
  do {
    f->next = head;
  } while (!__atomic_compare_exchange_n(&g_head, &head, f, true, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
}

const cpud_function *cpud_functions(void) { return __atomic_load_n(&g_head, __ATOMIC_ACQUIRE); }

uint64_t cpud_set_usable_mask(uint64_t mask) {
  uint64_t prev = cpud_usable_mask();
  // Closed over implied features, like every usable mask: a feature whose
  // implied features are masked off is off too, so the C macros (every
  // feature a target needs) and the C++ dispatcher (the target's own bit)
  // pick the same target.
  uint64_t m = cpud::internal::close_over_implied((mask & cpud_detected_mask()) | cpud_baseline_mask()) | 1u;
  __atomic_store_n(&cpud__usable, m, __ATOMIC_RELEASE);
  for (const cpud_function *f = cpud_functions(); f; f = f->next) f->reset();
  return prev;
}

}  // extern "C"
