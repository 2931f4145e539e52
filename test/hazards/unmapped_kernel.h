/* A macro of another file that makes kernel names (unmapped.dispatch.c):
 * cpudispatch-gen expands the dispatch source's own macros, not those of
 * the headers it includes. */
#define UNMAPPED_KERNEL(NAME) CPUD_FN(NAME)
