/* SPDX-License-Identifier: MIT */
/* The list of dispatched functions that have selected a target
 * (cpudispatch/functions.h), for introspection (cpudispatch-info) and for
 * re-selecting them when a mask changes (process_state.c). Layer 1:
 * calls nothing of the runtime. */
#include "cpudispatch/functions.h"

static cpud_function *g_head = NULL;

void cpud__register(cpud_function *f) {
  int expected = 0;
  /* Only the first registration of a function links it in (registered: 1
   * while linking, 2 once linked); the others wait the few instructions
   * that takes, so a function is on the list, where a mask change's walk
   * finds it, before any of its callers goes on to select a target. */
  if (!__atomic_compare_exchange_n(&f->registered, &expected, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    while (__atomic_load_n(&f->registered, __ATOMIC_SEQ_CST) != 2) {
    }
    return;
  }
  cpud_function *head = __atomic_load_n(&g_head, __ATOMIC_ACQUIRE);
  do {
    f->next = head;
  } while (!__atomic_compare_exchange_n(&g_head, &head, f, 1, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
  __atomic_store_n(&f->registered, 2, __ATOMIC_SEQ_CST);
}

/* Sequentially consistent with the epoch (process_state.c): a function
 * that registered before a change's epoch bump is seen by its re-selection
 * walk. */
const cpud_function *cpud_functions(void) { return __atomic_load_n(&g_head, __ATOMIC_SEQ_CST); }
