/* SPDX-License-Identifier: MIT */
/*
 * cpudispatch: the registry of dispatched functions. Each one records
 * itself on its first call (C++ CPUD_DISPATCH, C CPUD_DISPATCH_DEFINE);
 * introspection walks the list (cpudispatch-info, tests), and every change
 * of a mask makes each select again. The cpud__ functions are what
 * dispatch.h and dispatch.hpp call; a program calls cpud_functions().
 */
#ifndef CPUDISPATCH_FUNCTIONS_H_
#define CPUDISPATCH_FUNCTIONS_H_

#include "cpudispatch/cpudispatch.h"
/* The name cpudispatch.h points here, when it came first (namespace.h). */
#undef cpud_functions
#define cpud_functions CPUD__NS(cpud_functions)

#ifdef __cplusplus
extern "C" {
#endif

/* One dispatched function: its compiled targets and the one it selected. */
typedef struct cpud_function cpud_function;
struct cpud_function {
  const char *name;
  int (*target_count)(void);          /* compiled targets, baseline included */
  const char *(*target_name)(int i);  /* i = 0 is the highest interest */
  int (*target_feature)(int i);       /* feature id, 0 for the baseline */
  int (*selected)(void);              /* index of the selected target, -1: none yet */
  void (*reset)(void);                /* forget the selection; the next call selects again */
  const cpud_function *next;          /* set by cpud__register */
  int registered;
};
/* Every registered dispatched function, most recent first. */
CPUD_HIDDEN const cpud_function *cpud_functions(void);

/* For the dispatchers: add f to the list (once; thread-safe). */
CPUD_HIDDEN void cpud__register(cpud_function *f);
/* For dispatch.hpp: the process's usable set (no thread's restriction). */
CPUD_HIDDEN cpud_mask cpud__process_mask(void);
/* For dispatch.hpp: a counter every change of a mask bumps. */
CPUD_HIDDEN unsigned cpud__epoch(void);
/* For dispatch.hpp: register f and make it select again. */
CPUD_HIDDEN void cpud__reselect(cpud_function *f);
/* For the dispatchers: "no compiled target of FUNCTION can run on this CPU
 * and it has no baseline build; ..." on stderr, then abort(). */
CPUD_HIDDEN CPUD_NORETURN void cpud__no_target(const char *function);

#ifdef __cplusplus
}
#endif

#endif /* CPUDISPATCH_FUNCTIONS_H_ */
