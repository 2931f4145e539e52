/* A program that links several libraries made with cpudispatch, knowing
 * nothing of cpudispatch (run_multilib.py compiles it with plain cc and
 * each library's pkg-config file). Each LIB in LIBS (a -D list) prints
 *   LIB: RESULT TARGET
 * for LIB_compute(1000) and the target that computed it. */
#include <stdio.h>

#define DECLARE(LIB) int LIB##_compute(int); const char *LIB##_target(void);
#define CALL(LIB) printf(#LIB ": %d %s\n", LIB##_compute(1000), LIB##_target());
LIBS(DECLARE)

int main(void) {
  LIBS(CALL)
  fflush(stdout);
  return 0;
}
