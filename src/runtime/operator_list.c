/* SPDX-License-Identifier: MIT */
/* The typed layer's registered operators (cpudispatch/operators.h), for
 * introspection. Layer 1: calls nothing of the runtime. */
#include "cpudispatch/operators.h"

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
