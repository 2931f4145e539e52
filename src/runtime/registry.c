/* The list of dispatched functions that have selected a target, for
 * introspection (cpudispatch-info) and for re-selecting them when a mask
 * changes (selection.c); and CPUD_DISPATCH_PICK's reading of a target name
 * (dispatch.h). */
#include <stddef.h>
#include <string.h>

#include "detect.h"
#include "names.h"

static cpud_function *g_head = NULL;

/* Operators come and go (a local operator in a test, a plugin unloading),
 * so their list has a lock; it is taken to register, to leave and to walk,
 * never on a call or a cached resolution. */
static cpud_operator *g_ops = NULL;
static int g_ops_lock = 0;
static void lock_ops(void) {
  while (__atomic_exchange_n(&g_ops_lock, 1, __ATOMIC_ACQUIRE))
    while (__atomic_load_n(&g_ops_lock, __ATOMIC_RELAXED)) {
    }
}
static void unlock_ops(void) { __atomic_store_n(&g_ops_lock, 0, __ATOMIC_RELEASE); }

/* The features a target name stands for (names.h): "AVX2__FMA3",
 * "fma3+avx2" and "AVX2+FMA3+AVX" are one set; "baseline" (and a name of
 * baseline features only) is the empty set. 0 when a member is no feature
 * name of this arch. */
static int target_features(const char *name, cpud_mask *out) {
  *out = cpud_mask_none();
  if (!name || !*name) return 0;
  static const char k_baseline[] = "baseline";
  int n = 0;
  while (k_baseline[n] && (name[n] | 0x20) == k_baseline[n]) ++n;
  if (!k_baseline[n] && !name[n]) return 1;
  cpud__target_name t;
  if (!cpud__parse_target_name(name, strlen(name), &t)) return 0;
  /* Where the reduction leaves no member the parse keeps them all: then
   * the (closed) baseline holds every one, and the name is the baseline's. */
  if (!cpud__mask_empty(cpud_mask_andnot(t.members, cpud_baseline_mask()))) *out = t.members;
  return 1;
}

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

/* Sequentially consistent with the epoch (selection.c): a function that
 * registered before a change's epoch bump is seen by its re-selection walk. */
const cpud_function *cpud_functions(void) { return __atomic_load_n(&g_head, __ATOMIC_SEQ_CST); }

int cpud__pick_find(const char *name, const char *const *names, int count, int *status) {
  cpud_mask want, have;
  if (!target_features(name, &want)) {
    if (status) *status = CPUD_PICK_UNKNOWN;
    return -1;
  }
  for (int i = 0; i < count; ++i)
    if (target_features(names[i], &have) && cpud_mask_equal(have, want)) return i;
  if (status) *status = CPUD_PICK_NOT_COMPILED;
  return -1;
}

void cpud__register_operator(cpud_operator *op) {
  lock_ops();
  op->next = g_ops;
  g_ops = op;
  unlock_ops();
}

void cpud__unregister_operator(cpud_operator *op) {
  lock_ops();
  for (cpud_operator **p = &g_ops; *p; p = &(*p)->next)
    if (*p == op) {
      *p = op->next;
      break;
    }
  unlock_ops();
}

void cpud_for_each_operator(void (*fn)(const cpud_operator *, void *), void *ctx) {
  lock_ops();
  for (const cpud_operator *op = g_ops; op; op = op->next) fn(op, ctx);
  unlock_ops();
}
