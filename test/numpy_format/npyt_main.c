/* The caller of npyt_kernel.dispatch.c, as NumPy's callers use a NumPy-format
 * header: NPY_MTARGETS_CONF_DISPATCH declares and picks the targets, highest
 * interest first, NPY_MTARGETS_CONF_BASELINE the baseline build. NumPy's
 * TEST_CB is its own CPU test; here cpudispatch's CPUD_HAVE (the same
 * names, after the environment variables' masks). Prints the build it ran
 * and the sum, which must be 5050 whatever the build. With an argument it
 * runs the highest target without asking the CPU. */
#include <stdio.h>

#include "cpudispatch/cpudispatch.h"
#include "npyt_kernel.dispatch.h"

#define NPYT_CAT_(a, b) a##_##b
#define NPYT_CAT(a, b) NPYT_CAT_(a, b)
#define NPYT_DECLARE(TEST, TARGET, ...) \
  int NPYT_CAT(npyt_sum, TARGET)(const int *, int); const char *NPYT_CAT(npyt_name, TARGET)(void);
NPY_MTARGETS_CONF_DISPATCH(CPUD_HAVE, NPYT_DECLARE, ~)
#define NPYT_DECLARE_BASELINE(...) int npyt_sum(const int *, int); const char *npyt_name(void);
NPY_MTARGETS_CONF_BASELINE(NPYT_DECLARE_BASELINE, ~)

int main(int argc, char **argv) {
  (void)argv;
  int (*sum)(const int *, int) = 0;
  const char *(*name)(void) = 0;
#define NPYT_PICK(TEST, TARGET, ...) \
  if (!sum && (TEST)) { sum = NPYT_CAT(npyt_sum, TARGET); name = NPYT_CAT(npyt_name, TARGET); }
  /* Any argument: the highest target, untested (the negative control). */
#define NPYT_YES(F) (argc > 1 || CPUD_HAVE(F))
  NPY_MTARGETS_CONF_DISPATCH(NPYT_YES, NPYT_PICK, ~)
#define NPYT_PICK_BASELINE(...) \
  if (!sum) { sum = npyt_sum; name = npyt_name; }
  NPY_MTARGETS_CONF_BASELINE(NPYT_PICK_BASELINE, ~)
  int v[100];
  for (int i = 0; i < 100; ++i) v[i] = i + 1;
  int s = sum(v, 100);
  printf("%s %d\n", name(), s);
  return s == 5050 ? 0 : 1;
}
