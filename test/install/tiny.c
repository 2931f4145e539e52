/* A C program built outside Meson against the installed cpudispatch
 * (pkg-config), linked with the C compiler alone. */
#include <stdio.h>

#include <cpudispatch/cpudispatch.h>

int main(void) {
  printf("main reached\n");
  printf("arch %s, baseline %s, %d features known, SSE2 usable: %d\n", CPUD_ARCH, CPUD_BASELINE_NAMES,
         CPUD_FEATURE_COUNT, cpud_feature_by_name("sse2") ? cpud_have(cpud_feature_by_name("sse2")) : -1);
  return cpud_check_baseline(NULL, 0) == 0 ? 0 : 1;
}
