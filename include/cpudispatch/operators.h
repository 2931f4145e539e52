/* SPDX-License-Identifier: MIT */
/*
 * cpudispatch: the registry of the typed layer's operators (operator.hpp).
 * Each operator records itself on its first resolution and leaves the list
 * when destroyed; introspection walks it (cpudispatch-info --operators).
 */
#ifndef CPUDISPATCH_OPERATORS_H_
#define CPUDISPATCH_OPERATORS_H_

#include <stddef.h>

#include "cpudispatch/cpudispatch.h"
/* The name cpudispatch.h points here, when it came first (namespace.h). */
#undef cpud_for_each_operator
#define cpud_for_each_operator CPUD__NS(cpud_for_each_operator)

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cpud_operator cpud_operator;
struct cpud_operator {
  const char *name;
  const void *self;
  int (*kernel_count)(const void *self);
  /* Kernel i (static table first, then added ones in the order added): its
   * dispatched function's name, its parameter types as text ("(float32,
   * float32)"), the target it selects for the calling thread, and its
   * compiled targets (highest interest first). */
  const char *(*kernel_function)(const void *self, int i);
  void (*kernel_types)(const void *self, int i, char *buf, size_t cap);
  const char *(*kernel_selected)(const void *self, int i);
  int (*kernel_target_count)(const void *self, int i);
  const char *(*kernel_target_name)(const void *self, int i, int j);
  /* Resolution cache slot s, 0 <= s < cache_slots (the most slots the cache
   * grows to; past its current size a slot holds nothing): 0 when it holds nothing
   * current; else 1, with the argument types and each argument's
   * conversion written as text and *kernel set to the chosen kernel's
   * function (NULL, and "no match" or "ambiguous" for the conversions, when
   * the types matched nothing or tied). */
  int cache_slots;
  int (*cache_entry)(const void *self, int s, char *args, size_t args_cap, char *conv, size_t conv_cap,
                     const char **kernel);
  /* The fallback kernel's name (NULL: none), and when the compile hook
   * runs: -1 no hook, 0 on a miss, 1 on every inexact resolution
   * (cpud::compile_on). A cache entry the fallback serves reads
   * "fallback" with *kernel its name. */
  const char *(*fallback)(const void *self);
  int (*compile_hook)(const void *self);
  cpud_operator *next;
};
/* For operator.hpp: join and leave the list. */
CPUD_HIDDEN void cpud__register_operator(cpud_operator *op);
/* For operator.hpp: call() with no kernel and no fallback prints
 * "cpudispatch: TEXT" and aborts. */
CPUD_HIDDEN CPUD_NORETURN void cpud__no_kernel(const char *text);
CPUD_HIDDEN void cpud__unregister_operator(cpud_operator *op);
/* Calls fn for each registered operator, most recent first, while holding
 * the list's lock (an operator cannot be destroyed meanwhile; fn must not
 * resolve on an operator that has not registered yet). */
CPUD_HIDDEN void cpud_for_each_operator(void (*fn)(const cpud_operator *op, void *ctx), void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* CPUDISPATCH_OPERATORS_H_ */
